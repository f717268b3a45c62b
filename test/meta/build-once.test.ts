/**
 * The suite's global setup leaves `npm run build` out only when dist/ is plainly current (test/support/build-once.ts):
 * held on a package root of its own, each way the sources can move past dist/ makes it build again.
 */
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { distIsCurrent } from "../support/build-once.ts";

const root = mkdtempSync(join(tmpdir(), "plk-build-once-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Seconds since the epoch: every file gets a time of its own, far apart, so that no clock resolution decides. */
const SOURCES_AT = 1_000_000;
const BUILT_AT = 2_000_000;

function write(path: string, at: number, text = ""): void {
  mkdirSync(join(root, path, ".."), { recursive: true });
  writeFileSync(join(root, path), text);
  utimesSync(join(root, path), at, at);
}

function setTime(path: string, at: number): void {
  utimesSync(join(root, path), at, at);
}

beforeEach(() => {
  rmSync(root, { recursive: true, force: true });
  write("package.json", SOURCES_AT, JSON.stringify({ bin: { "a-bin": "dist/cli/a.js" } }));
  write("tsconfig.json", SOURCES_AT);
  write("src/index.ts", SOURCES_AT);
  write("src/cli/a.ts", SOURCES_AT);
  write("node_modules/.package-lock.json", SOURCES_AT);
  for (const folder of ["src/cli", "src", "node_modules"]) setTime(folder, SOURCES_AT);
  write("dist/index.js", BUILT_AT);
  write("dist/cli/a.js", BUILT_AT);
});

describe("dist/ as the test run finds it", () => {
  it("is current when every file of dist/ is newer than every input of the build", () => {
    expect(distIsCurrent(root)).toBe(true);
  });

  it("is not after a source is edited, one is removed (its folder's time), or the packages are installed again", () => {
    setTime("src/index.ts", BUILT_AT + 1);
    expect(distIsCurrent(root)).toBe(false);
    setTime("src/index.ts", SOURCES_AT);
    rmSync(join(root, "src/cli/a.ts"));
    expect(distIsCurrent(root)).toBe(false);
    setTime("src/cli", SOURCES_AT);
    expect(distIsCurrent(root)).toBe(true);
    setTime("node_modules/.package-lock.json", BUILT_AT + 1);
    expect(distIsCurrent(root)).toBe(false);
  });

  it("is not when one file of dist/ is older than an input: a build that stopped part-way", () => {
    setTime("dist/index.js", SOURCES_AT - 1);
    expect(distIsCurrent(root)).toBe(false);
  });

  it("is not when a bin of package.json is missing, or dist/ is empty or absent", () => {
    rmSync(join(root, "dist/cli/a.js"));
    expect(distIsCurrent(root)).toBe(false);
    rmSync(join(root, "dist"), { recursive: true });
    mkdirSync(join(root, "dist"));
    writeFileSync(join(root, "package.json"), "{}");
    setTime("package.json", SOURCES_AT);
    expect(distIsCurrent(root)).toBe(false);
    rmSync(join(root, "dist"), { recursive: true });
    expect(distIsCurrent(root)).toBe(false);
  });
});
