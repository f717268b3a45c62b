/**
 * The package can be published as it stands: `npm publish --dry-run` (what the release workflow runs for real, on
 * a version tag) exits 0 with no warning, and the archive it would publish holds what a user needs and nothing
 * else: every file package.json's exports and bins name, the licence, the changelog, the README; no test, source
 * map, TypeScript source or script. A dummy token stands in for a login, which a dry run does not use.
 */
import { execFile, execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { withoutNpmVariables } from "../support/consumer-install.ts";
import { PACKAGE_ROOT } from "../support/start-process.ts";

interface Manifest {
  private?: boolean;
  version: string;
  license: string;
  publishConfig?: { access?: string; provenance?: boolean };
  exports: Record<string, string | { types: string; default: string }>;
  bin: Record<string, string>;
}

const manifest = JSON.parse(readFileSync(join(PACKAGE_ROOT, "package.json"), "utf8")) as Manifest;
let dir = "";
let files: string[] = [];
let code: number | string = "";
let output = "";

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "plk-publish-"));
  const userconfig = join(dir, "npmrc");
  writeFileSync(userconfig, "//registry.npmjs.org/:_authToken=dry-run-only\n");
  // --ignore-scripts: dist/ is what the run's global set-up built; prepare would rebuild files other tests read.
  const args = ["publish", "--dry-run", "--json", "--ignore-scripts", "--userconfig", userconfig];
  ({ code, output } = await new Promise<{ code: number | string; output: string }>((resolve) => {
    execFile("npm", args, { cwd: PACKAGE_ROOT, env: withoutNpmVariables() }, (error, stdout, stderr) =>
      resolve({ code: error ? (error.code ?? "failed") : 0, output: `${stdout}${stderr}` }),
    );
  }));
  const packed = execFileSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], {
    cwd: PACKAGE_ROOT,
    encoding: "utf8",
    env: withoutNpmVariables(),
  });
  files = (JSON.parse(packed) as Array<{ files: Array<{ path: string }> }>)[0]!.files.map((file) => file.path);
}, 120_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("npm publish --dry-run", () => {
  it("exits 0 and warns of nothing", () => {
    expect(code, output).toBe(0);
    expect(output).not.toMatch(/npm warn/i);
    expect(output).toContain(`"id": "property-listing-kit@${manifest.version}"`);
  });

  it("publishes publicly, with provenance, under an open licence", () => {
    expect(manifest.private).toBeUndefined();
    expect(manifest.publishConfig).toEqual({ access: "public", provenance: true });
    expect(manifest.license).toBe("MIT");
  });

  it("ships every file the exports and the bins name, the licence, the changelog and the README", () => {
    const named = Object.values(manifest.exports).flatMap((target) =>
      typeof target === "string" ? [target] : [target.types, target.default],
    );
    for (const path of [
      ...named,
      ...Object.values(manifest.bin),
      "LICENSE",
      "CHANGELOG.md",
      "README.md",
      "package.json",
    ]) {
      expect(files, path).toContain(path.replace(/^\.\//, ""));
    }
  });

  it("ships no test, source map, TypeScript source or development script", () => {
    const stray = files.filter((path) =>
      /\.test\.|\.map$|^src\/|^test\/|^scripts\/|^examples\/|^\.github\/|(?<!\.d)\.ts$/.test(path),
    );
    expect(stray).toEqual([]);
  });
});
