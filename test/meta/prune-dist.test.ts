/**
 * `npm run build` removes from dist/ what tsc compiled from a source that is gone (scripts/prune-dist.ts), so that
 * `npm pack` in a working copy where a module moved ships no copy of it from before. Run as the build runs it, on
 * a package root of its own: a source kept, one moved, one removed with its folder, the copied assets and the
 * bundled chunks.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { PACKAGE_ROOT } from "../support/start-process.ts";

const root = mkdtempSync(join(tmpdir(), "plk-prune-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function write(path: string): void {
  mkdirSync(join(root, path, ".."), { recursive: true });
  writeFileSync(join(root, path), "");
}

function filesBelow(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(root, join(entry.parentPath, entry.name)))
    .sort();
}

describe("the build's pruning of dist/", () => {
  it("removes the compiled files of sources gone, and their empty folders; keeps the rest and copied assets", () => {
    for (const source of ["src/index.ts", "src/hosts/node/create-app.ts"]) write(source);
    const kept = [
      "dist/index.js",
      "dist/index.d.ts",
      "dist/hosts/node/create-app.js",
      "dist/hosts/node/create-app.d.ts",
      "dist/docs-assets/swagger-ui.css",
      "dist/docs-assets/README.md",
      "dist/console-assets/console.js",
      "dist/notes.txt",
      // The bundle step's chunks beside the runner's bin: no source of their own, replaced by that step.
      "dist/cli/contract-chunk-K7HUIGZA.js",
    ];
    const stale = [
      "dist/mock/http/create-app.js",
      "dist/mock/http/create-app.d.ts",
      "dist/mock/http/create-app.js.map",
      "dist/old/gone.js",
      "dist/old/deeper/gone.d.ts",
    ];
    for (const file of [...kept, ...stale]) write(file);

    const output = execFileSync(
      join(PACKAGE_ROOT, "node_modules/.bin/tsx"),
      [join(PACKAGE_ROOT, "scripts/prune-dist.ts"), root],
      { encoding: "utf8" },
    );

    expect(filesBelow(join(root, "dist"))).toEqual(kept.sort());
    expect(readdirSync(join(root, "dist")).sort()).toEqual([
      "cli",
      "console-assets",
      "docs-assets",
      "hosts",
      "index.d.ts",
      "index.js",
      "notes.txt",
    ]);
    expect(output).toContain(`removed ${stale.length} files`);
  });

  it("leaves a dist/ whose every compiled file has its source as it is, and says nothing", () => {
    const output = execFileSync(
      join(PACKAGE_ROOT, "node_modules/.bin/tsx"),
      [join(PACKAGE_ROOT, "scripts/prune-dist.ts"), root],
      { encoding: "utf8" },
    );
    expect(output).toBe("");
    expect(filesBelow(join(root, "dist")).length).toBe(9);
  });
});
