/**
 * The package can be published as it stands: `npm publish --dry-run` (what the release workflow runs for real, on
 * a version tag) exits 0 with no warning, and the archive it would publish holds what a user needs and nothing
 * else: every file package.json's exports and bins name, the licence, the changelog, the README; no test, source
 * map, TypeScript source or script. A dummy token stands in for a login, which a dry run does not use.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { withoutNpmVariables } from "../support/consumer-install.ts";
import { PACKAGE_ROOT } from "../support/start-process.ts";

interface Manifest {
  name: string;
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
  let report = "";
  ({ code, output, report } = await new Promise<{ code: number | string; output: string; report: string }>(
    (resolve) => {
      execFile("npm", args, { cwd: PACKAGE_ROOT, env: withoutNpmVariables() }, (error, stdout, stderr) =>
        resolve({ code: error ? (error.code ?? "failed") : 0, output: `${stdout}${stderr}`, report: stdout }),
      );
    },
  ));
  if (code !== 0) return;
  // The archive's files as the dry run lists them (npm 11: by package name; npm 10, as `npm pack`: a list).
  type Packed = { files: Array<{ path: string }> };
  const json = JSON.parse(report) as Record<string, Packed> | Packed[];
  const packed = Array.isArray(json) ? json[0] : json[manifest.name];
  files = packed?.files.map((file) => file.path) ?? [];
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
