/**
 * The order the suite's test files start in (vitest.config.ts): the files that drive Chromium first, and those that
 * mostly wait beside them; among each, the listed slow files in their order, then the others by the duration vitest
 * cached from the last run; `--shard` deals the sorted files out in turn.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { TestSpecification, Vitest } from "vitest/node";
import config from "../../vitest.config.ts";
import { hostNetworkUse } from "../support/host-network.ts";
import { SLOW_FILES, SlowFirstSequencer, WITH_CHROMIUM_FILES } from "../support/slow-first-sequencer.ts";
import { PACKAGE_ROOT } from "../support/start-process.ts";

const ROOT = "/repo";
/** A sequencer over a fake vitest: a root, a shard, and the durations (ms) of an earlier run by file. */
function sequencer(durations: Record<string, number> = {}, shard?: { index: number; count: number }) {
  const vitest = {
    config: { root: ROOT, shard },
    cache: {
      getFileTestResults: (key: string) =>
        key.split(":")[1]! in durations ? { duration: durations[key.split(":")[1]!], failed: false } : undefined,
    },
  };
  return new SlowFirstSequencer(vitest as unknown as Vitest);
}
const specs = (...paths: string[]) =>
  paths.map((path) => ({ moduleId: `${ROOT}/${path}`, project: { name: "" } }) as unknown as TestSpecification);
const paths = (files: TestSpecification[]) => files.map((file) => file.moduleId.slice(ROOT.length + 1));

describe("the slow-first sequencer", () => {
  it("is the suite's sequencer", () => {
    expect(config.test?.sequence?.sequencer).toBe(SlowFirstSequencer);
  });

  it("lists only files that exist, each once", () => {
    expect(SLOW_FILES.filter((file) => !existsSync(join(PACKAGE_ROOT, file)))).toEqual([]);
    expect(new Set(SLOW_FILES).size).toBe(SLOW_FILES.length);
  });

  it("starts the listed slow files first, in the list's order, then the others longest first, then by name", () => {
    const [slowest, second] = SLOW_FILES as [string, string];
    const files = specs("test/a.test.ts", second, "test/c.test.ts", "test/b.test.ts", slowest, "test/d.test.ts");
    expect(paths(sequencer({ "test/c.test.ts": 900, "test/d.test.ts": 50 }).sort(files))).toEqual([
      slowest,
      second,
      "test/c.test.ts",
      "test/d.test.ts",
      "test/a.test.ts",
      "test/b.test.ts",
    ]);
  });

  it("starts the files that drive Chromium before all others, the listed slow ones among them included", () => {
    const listed = SLOW_FILES.find(
      (file) => hostNetworkUse(file) === undefined && !WITH_CHROMIUM_FILES.includes(file),
    )!;
    const files = specs("test/a.test.ts", listed, "test/browser/b.test.ts", "test/docker/container.test.ts");
    expect(paths(sequencer({ "test/a.test.ts": 900 }).sort(files))).toEqual([
      "test/browser/b.test.ts",
      listed,
      "test/docker/container.test.ts",
      "test/a.test.ts",
    ]);
  });

  it("starts the files that mostly wait with the Chromium files; each is listed, and drives neither", () => {
    const [waiting] = WITH_CHROMIUM_FILES as [string];
    const files = specs("test/a.test.ts", "test/docker/container.test.ts", waiting, "test/browser/b.test.ts");
    expect(paths(sequencer({ "test/a.test.ts": 900, "test/browser/b.test.ts": 5 }).sort(files))).toEqual([
      waiting,
      "test/browser/b.test.ts",
      "test/docker/container.test.ts",
      "test/a.test.ts",
    ]);
    expect(
      WITH_CHROMIUM_FILES.filter((file) => !SLOW_FILES.includes(file) || hostNetworkUse(file) !== undefined),
    ).toEqual([]);
  });

  it("deals the sorted files out in turn with --shard, each file to one shard", () => {
    const files = specs("test/a.test.ts", "test/b.test.ts", "test/c.test.ts", SLOW_FILES[0]!, "test/d.test.ts");
    const shards = [1, 2].map((index) => paths(sequencer({}, { index, count: 2 }).shard(files)));
    expect(shards).toEqual([
      [SLOW_FILES[0], "test/b.test.ts", "test/d.test.ts"],
      ["test/a.test.ts", "test/c.test.ts"],
    ]);
  });
});
