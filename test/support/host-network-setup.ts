/**
 * Vitest setup file: a test file that drives Chromium, or a Docker engine, holds the host's network for its whole
 * run, its own hooks included (test/support/host-network.ts). Registered first, the hold is taken before the file's
 * own beforeAll and let go after its own afterAll.
 */
import { relative } from "node:path";
import { afterAll, beforeAll, expect, inject } from "vitest";
import { holdHostNetwork, hostNetworkUse } from "./host-network.ts";
import { PACKAGE_ROOT } from "./start-process.ts";

/** Long enough for the other use's files to end: the Storybook file's first install takes minutes. */
const WAIT_MS = 20 * 60_000;

let release: (() => void) | undefined;

beforeAll(async () => {
  const path = relative(PACKAGE_ROOT, expect.getState().testPath ?? "")
    .split("\\")
    .join("/");
  const use = hostNetworkUse(path);
  if (use) release = await holdHostNetwork(inject("hostNetworkRoom"), use);
}, WAIT_MS);

afterAll(() => {
  release?.();
  release = undefined;
});
