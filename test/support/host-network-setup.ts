/**
 * Vitest setup file: a test file that drives Chromium, or a Docker engine, holds the host's network for its whole
 * run (test/support/host-network.ts). The hold is taken here, before vitest imports the file, so that the files take
 * it in the order they start in, whichever imports faster; it is let go after the file's own afterAll.
 */
import { relative } from "node:path";
import { afterAll, expect, inject } from "vitest";
import { holdHostNetwork, hostNetworkUse } from "./host-network.ts";
import { PACKAGE_ROOT } from "./start-process.ts";

const { testPath } = expect.getState();
if (!testPath) throw new Error("vitest names no test file here: the host's network cannot be held for it");
const use = hostNetworkUse(relative(PACKAGE_ROOT, testPath).split("\\").join("/"));
const release = use ? await holdHostNetwork(inject("hostNetworkRoom"), use) : undefined;

afterAll(() => release?.());
