/**
 * The order vitest starts the test files in: those that drive Chromium first, as the files that drive a Docker
 * engine wait for them to end (test/support/host-network.ts), with the files that mostly wait beside them; then the
 * slowest first, so that on a machine with few cores no long file starts last and runs alone while the other
 * workers idle. Vitest orders by the durations it cached in an earlier run, but a clean clone (CI) has none and
 * would order by file size, which put the bench test near the end.
 */
import { relative } from "node:path";
import type { TestSequencer, TestSpecification, Vitest } from "vitest/node";
import { hostNetworkUse } from "./host-network.ts";

/**
 * The files that take longest (wall time of `npm test` on the 2-core machine, measured when they were listed), in
 * the order they start: mostly the slowest first, a file that mostly waits early. A file missing from the list only
 * starts later; a listed file that is gone is ignored.
 */
export const SLOW_FILES = [
  // An npm install (on a first run), a Storybook build and the stories in Chromium: minutes on a first run. The
  // longest of the files that drive Chromium, which all start before the others.
  "test/e2e/storybook-example.test.ts",
  // Waits out the runner's --timeout twice, with little CPU of its own: started beside the Chromium files (see
  // WITH_CHROMIUM_FILES), its waits overlap the Storybook build rather than the Docker files' waits.
  "test/contract/runner-network.test.ts",
  // The first to start once the Chromium files are under way: they keep the cores busy until the Storybook file
  // ends and the Docker files may start.
  "test/contract/independent.test.ts",
  "test/profile/closed-loop.test.ts",
  // Builds nothing in CI (the image is built before the suite) but waits on containers for a minute, with little CPU
  // of its own: started early, it overlaps the files that need the cores. It waits for the Storybook file to end.
  "test/docker/container.test.ts",
  "test/bench/bench.test.ts",
  "test/docker/testcontainers.test.ts",
  "test/meta/static-checks.test.ts",
  "test/docker/docker-files.test.ts",
  "test/e2e/contract-cli-manners.test.ts",
  "test/e2e/package-consumer.test.ts",
  "test/e2e/contract-cli.test.ts",
  "test/contract/runner.test.ts",
  "test/contract/fuzz-phase.test.ts",
  "test/contract/independent-seeds.test.ts",
  "test/mock/fuzz.test.ts",
  "test/prism/prism-dynamic.test.ts",
];

/** Files that start with the Chromium files though they drive no browser: they mostly wait. */
export const WITH_CHROMIUM_FILES = ["test/contract/runner-network.test.ts"];

export class SlowFirstSequencer implements TestSequencer {
  constructor(private readonly vitest: Vitest) {}

  /** `--shard i/n`: every n-th file of the sorted list, so that each shard gets slow and quick files alike. */
  shard(files: TestSpecification[]): TestSpecification[] {
    const { index, count } = this.vitest.config.shard!;
    return this.sort(files).filter((_, position) => position % count === index - 1);
  }

  /**
   * The files that drive Chromium (and those started with them) before the others; among each, the listed slow files
   * in their order, then the others by the duration cached from the last run, longest first.
   */
  sort(files: TestSpecification[]): TestSpecification[] {
    const root = this.vitest.config.root;
    const path = (file: TestSpecification) => relative(root, file.moduleId).split("\\").join("/");
    const later = (file: TestSpecification) =>
      hostNetworkUse(path(file)) === "steady" || WITH_CHROMIUM_FILES.includes(path(file)) ? 0 : 1;
    const rank = (file: TestSpecification) => {
      const position = SLOW_FILES.indexOf(path(file));
      return position === -1 ? SLOW_FILES.length : position;
    };
    const cached = (file: TestSpecification) =>
      this.vitest.cache.getFileTestResults(`${file.project.name}:${path(file)}`)?.duration ?? 0;
    return [...files].sort(
      (a, b) => later(a) - later(b) || rank(a) - rank(b) || cached(b) - cached(a) || path(a).localeCompare(path(b)),
    );
  }
}
