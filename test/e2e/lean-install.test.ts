/**
 * The kit as a consumer installs it: `npm pack`, then `npm install <the archive> --omit=dev` in an empty
 * project. What that brings must stay small (issue 13: 115 MiB in 262 packages, when Prism, faker and a
 * TypeScript loader came along), and what it brings must be enough to run the mock, its docs page, the
 * contract runner and the library. The optional peers (Prism, faker) are not installed.
 * Slow (an npm install, from the warm cache): about a minute on an idle machine.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PACKAGE_ROOT, startProcess, waitForHealthy, type StartedProcess } from "../support/start-process.ts";

/** The goal of issue 13, in MiB of disk (what `du` counts), for node_modules after the install. */
const LIMIT_MIB = 60;

let project = "";
const started: StartedProcess[] = [];

beforeAll(() => {
  project = mkdtempSync(join(tmpdir(), "plk-lean-"));
  const packed = execFileSync("npm", ["pack", "--ignore-scripts", "--pack-destination", project], { cwd: PACKAGE_ROOT, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], env: withoutNpmVariables() }).trim().split("\n").at(-1)!;
  writeFileSync(join(project, "package.json"), JSON.stringify({ name: "consumer", private: true, type: "module" }));
  // From npm's cache where it can (this machine's is warm); no audit or funding calls.
  const installed = spawnSync("npm", ["install", join(project, packed), "--omit=dev", "--prefer-offline", "--no-audit", "--no-fund"], {
    cwd: project,
    encoding: "utf8",
    env: withoutNpmVariables(),
    timeout: 240_000,
  });
  if (installed.status !== 0) throw new Error(`npm install failed:\n${installed.stdout}\n${installed.stderr}`);
}, 260_000);

afterAll(async () => {
  for (const process of started.splice(0)) {
    process.signal("SIGKILL");
    await process.exited;
  }
  if (project) rmSync(project, { recursive: true, force: true });
});

describe("npm install <the packed kit> --omit=dev", { timeout: 60_000 }, () => {
  it(`takes at most ${LIMIT_MIB} MiB, without Prism or faker (optional peers)`, () => {
    const kib = Number(execFileSync("du", ["-sk", join(project, "node_modules")], { encoding: "utf8" }).split("\t")[0]);
    const { packages } = JSON.parse(readFileSync(join(project, "node_modules", ".package-lock.json"), "utf8")) as { packages: Record<string, unknown> };
    console.log(`lean install: ${(kib / 1024).toFixed(1)} MiB on disk in ${Object.keys(packages).length} packages`);
    expect(kib / 1024).toBeLessThanOrEqual(LIMIT_MIB);
    for (const absent of ["@stoplight/prism-cli", "@faker-js/faker", "postman-collection"]) {
      expect(existsSync(join(project, "node_modules", absent)), `${absent} is not installed`).toBe(false);
    }
  });

  it("runs the mock from its bin, with its docs page, and answers the API", async () => {
    const mock = startProcess(join(project, "node_modules", ".bin", "property-listing-mock"), ["--port", "0", "--quiet"]);
    started.push(mock);
    const [, url] = await mock.waitForOutput(/listening on (http:\/\/127\.0\.0\.1:\d+)/);
    await waitForHealthy(`${url}/healthz`);
    const headers = { "API-KEY": "demo-key", TOKEN: "demo-token", "content-type": "application/json" };
    expect((await fetch(`${url}/api/v1/object/properties/1`, { headers })).status).toBe(200);
    expect((await fetch(`${url}/docs/swagger-ui-bundle.js`)).status).toBe(200);
  });

  it("gives a program the library, and the contract runner its bin", async () => {
    const script = join(project, "use.mjs");
    writeFileSync(script, 'import { createContract, createMockServer } from "property-listing-kit"; console.log(typeof createContract, typeof createMockServer);');
    const run = startProcess(process.execPath, [script]);
    expect(await run.exited, run.output()).toBe(0);
    expect(run.output().trim()).toBe("function function");
    const help = startProcess(join(project, "node_modules", ".bin", "property-listing-contract"), ["--help"]);
    expect(await help.exited, help.output()).toBe(0);
  });
});

/** npm, when it runs this suite, exports its settings (the package's own folder among them) to children. */
function withoutNpmVariables(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.toLowerCase().startsWith("npm_")));
}
