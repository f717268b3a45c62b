/**
 * The kit as a consumer installs it: `npm pack`, then `npm install --save-dev <the archive>` in an empty project
 * (test/support/consumer-install.ts, shared with package-consumer.test.ts). What that brings must stay small
 * (issue 13: 115 MiB in 262 packages, when Prism, faker and a TypeScript loader came along), must run no install
 * script, and must be enough to run the mock, its docs page, its raw routes (json-server's router, issue 22), the
 * contract runner and the library from the built JavaScript. The optional peers (Prism, faker) are not installed.
 * fast-check (with pure-rand, some 1.8 MiB) is a dependency since the runner generates cases with it (issue 21).
 * Slow the first time (an npm install, from the warm cache); later runs of an unchanged package reuse it.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { consumerInstall, withoutNpmVariables, type ConsumerInstall } from "../support/consumer-install.ts";
import { HANG_MS } from "../support/deadlines.ts";
import { startProcess, waitForHealthy, type StartedProcess } from "../support/start-process.ts";

/**
 * The goal of issue 22 (json-server back as a dependency), in MiB of disk (what `du` counts), for node_modules after
 * the install.
 */
const LIMIT_MIB = 30;
/**
 * Packages a consumer must not get: the optional peers (Prism and what only it needs, faker, testcontainers), the
 * TypeScript loader and its compiler (the bins run built JavaScript), swagger-ui-dist and its analytics dependency (the
 * build copies the docs page's files into the package), and the compiler.
 */
const MUST_NOT_BE_INSTALLED = [
  "@stoplight/prism-cli",
  "openapi-fetch",
  "postman-collection",
  "@faker-js/faker",
  "testcontainers",
  "tsx",
  "esbuild",
  "typescript",
  "swagger-ui-dist",
  "@scarf/scarf",
];

interface LockEntry {
  version?: string;
  hasInstallScript?: boolean;
  dependencies?: Record<string, string>;
}

let installed: ConsumerInstall;
let lock: Record<string, LockEntry>;
const started: StartedProcess[] = [];

beforeAll(async () => {
  installed = await consumerInstall();
  lock = (
    JSON.parse(readFileSync(join(installed.project, "node_modules", ".package-lock.json"), "utf8")) as {
      packages: Record<string, LockEntry>;
    }
  ).packages;
}, 260_000);

afterAll(async () => {
  for (const process of started.splice(0)) {
    process.signal("SIGKILL");
    await process.exited;
  }
});

/** `node_modules/a/node_modules/@b/c` → `@b/c`: the name of each installed package, wherever npm nested it. */
const installedNames = () => Object.keys(lock).map((path) => path.replace(/^(.*\/)?node_modules\//, ""));

describe("npm install --save-dev <the packed kit>, as the README installs it", () => {
  it(`takes at most ${LIMIT_MIB} MiB`, () => {
    const kib = Number(
      execFileSync("du", ["-sk", join(installed.project, "node_modules")], { encoding: "utf8" }).split("\t")[0],
    );
    console.log(`lean install: ${(kib / 1024).toFixed(1)} MiB on disk in ${Object.keys(lock).length} packages`);
    expect(kib / 1024).toBeLessThanOrEqual(LIMIT_MIB);
  });

  it("is a project where nothing outside its own node_modules can supply a package the install left out", () => {
    for (let folder = dirname(realpathSync(installed.project)); ; folder = dirname(folder)) {
      expect(existsSync(join(folder, "node_modules")), `${folder}/node_modules`).toBe(false);
      if (dirname(folder) === folder) break;
    }
  });

  it("brings no optional peer, TypeScript loader, compiler or swagger-ui-dist (and its analytics)", () => {
    const names = installedNames();
    expect(names).toContain("property-listing-kit");
    expect(names.filter((name) => MUST_NOT_BE_INSTALLED.includes(name) || name.startsWith("@esbuild/"))).toEqual([]);
  });

  it("brings json-server 0.17.4, which serves /__db, and Express only as json-server's own dependency", () => {
    expect(lock["node_modules/json-server"]?.version).toBe("0.17.4");
    const kit = JSON.parse(
      readFileSync(join(installed.project, "node_modules", "property-listing-kit", "package.json"), "utf8"),
    ) as { dependencies: Record<string, string> };
    expect(kit.dependencies["json-server"]).toBe("0.17.4");
    expect(Object.keys(kit.dependencies)).not.toContain("express");
    const dependents = Object.entries(lock)
      .filter(([, entry]) => entry.dependencies?.express !== undefined)
      .map(([path]) => path.replace(/^(.*\/)?node_modules\//, ""));
    expect(dependents).toEqual(["json-server"]);
  });

  it("brings fast-check and its one dependency, pure-rand: the runner's --fuzz phase needs them at run time", () => {
    expect(installedNames()).toEqual(expect.arrayContaining(["fast-check", "pure-rand"]));
  });

  it("leaves out the TypeScript sources and source maps, which nothing reads at run time", () => {
    const kit = join(installed.project, "node_modules", "property-listing-kit");
    expect(existsSync(join(kit, "dist", "generated", "contract-validators.js"))).toBe(true);
    expect(existsSync(join(kit, "dist", "generated", "contract-validators.js.map"))).toBe(false);
    expect(existsSync(join(kit, "src"))).toBe(false);
    // No built file points at a map that is not there (a bundler would warn about each).
    expect(readFileSync(join(kit, "dist", "msw.js"), "utf8")).not.toContain("sourceMappingURL");
  });

  it("runs no install script of any package it brings", () => {
    expect(
      Object.entries(lock)
        .filter(([, entry]) => entry.hasInstallScript)
        .map(([path]) => path),
    ).toEqual([]);
  });

  it("runs the mock's bin from the built JavaScript: --version, /healthz, the API, /__db, the docs page", async () => {
    const bin = join(installed.project, "node_modules", ".bin", "property-listing-mock");
    expect(realpathSync(bin)).toBe(
      join(realpathSync(installed.project), "node_modules", "property-listing-kit", "dist", "cli", "mock.js"),
    );
    const { version } = JSON.parse(
      readFileSync(join(installed.project, "node_modules", "property-listing-kit", "package.json"), "utf8"),
    ) as { version: string };
    const npx = spawnSync("npx", ["property-listing-mock", "--version"], {
      cwd: installed.project,
      encoding: "utf8",
      env: withoutNpmVariables(),
      timeout: HANG_MS,
    });
    expect(npx.status, npx.stderr).toBe(0);
    expect(npx.stdout.trim()).toBe(`property-listing-kit ${version}`);

    const mock = startProcess(bin, ["--port", "0", "--quiet"]);
    started.push(mock);
    const [, url] = await mock.waitForOutput(/listening on (http:\/\/127\.0\.0\.1:\d+)/);
    await waitForHealthy(`${url}/healthz`);
    const headers = { "API-KEY": "demo-key", TOKEN: "demo-token", "content-type": "application/json" };
    const properties = await fetch(`${url}/api/v1/object/properties/1`, { headers });
    expect(properties.status).toBe(200);
    expect(((await properties.json()) as unknown[]).length).toBeGreaterThan(0);
    const raw = await fetch(`${url}/__db/properties?_limit=1`);
    expect(raw.status).toBe(200);
    expect(Number(raw.headers.get("x-total-count"))).toBeGreaterThan(0);
    const page = await fetch(`${url}/docs`);
    expect(page.status).toBe(200);
    const assets = [...(await page.text()).matchAll(/(?:src|href)="(\/docs\/[^"]+)"/g)].map((match) => match[1]!);
    expect(assets).toContain("/docs/swagger-ui-bundle.js");
    for (const asset of assets) expect((await fetch(`${url}${asset}`)).status, asset).toBe(200);
  });

  it("gives a program the library, and the contract runner its bin", async () => {
    const script = join(installed.project, `use-${process.pid}.mjs`); // inside the project, to import the kit by name
    writeFileSync(
      script,
      'import { createContract, createMockServer } from "property-listing-kit"; console.log(typeof ' +
        "createContract, typeof createMockServer);",
    );
    const run = startProcess(process.execPath, [script]);
    try {
      expect(await run.exited, run.output()).toBe(0);
    } finally {
      rmSync(script, { force: true });
    }
    expect(run.output().trim()).toBe("function function");
    const help = startProcess(join(installed.project, "node_modules", ".bin", "property-listing-contract"), ["--help"]);
    expect(await help.exited, help.output()).toBe(0);
  });
});
