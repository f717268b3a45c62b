/**
 * Which test files never run beside each other, and so the two groups the suite runs in, one after the other
 * (vitest.config.ts).
 *
 * Chromium watches the host's network addresses and, when one changes, fails every request it has in flight or
 * connecting, loopback included, with net::ERR_NETWORK_CHANGED. A Docker engine changes them with each container it
 * starts or removes and each step of a build it runs: the veth it adds to its bridge gets an IPv6 link-local address,
 * and loses it again. Beside the container tests, a page lost a module of its set-up, the stories' page never
 * connected, or a story waited a minute for text that never came.
 *
 * So the files that drive Chromium run first, in a group of their own, and those that start containers or builds
 * (each imports test/support/docker.ts or Testcontainers) run after it. The others are shared out: test/contract goes
 * with the browsers, its files long enough to keep the other workers busy while the Storybook file runs; the rest go
 * with the containers, beside the minute the container file spends waiting on its engine.
 */

/** The files that drive Chromium, and so must never run while a container starts or stops. */
export const BROWSER_FILES = [
  "test/browser/**/*.test.ts",
  "test/e2e/storybook-example.test.ts",
  "test/e2e/vite-builds.test.ts",
];

/** The first group: the browsers, and the files that run beside them. */
export const FIRST_GROUP = [...BROWSER_FILES, "test/contract/**/*.test.ts"];

/** What a test file imports when it drives Chromium, and when it may drive a Docker engine. */
export const DRIVES_CHROMIUM = /from "(?:\.\.\/)+support\/(?:chromium|msw-page)\.ts"|from "playwright(?:-core)?"/;
export const DRIVES_DOCKER = /from "(?:\.\.\/)+support\/docker\.ts"|from "testcontainers"/;
