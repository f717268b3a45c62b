/**
 * The kit as another project uses it: built to JavaScript, imported by its package name from plain Node, the
 * matcher registered in that project's vitest, its bins as `npm install` links them, and the files `npm pack`
 * ships (the packed archive and its install are shared with lean-install.test.ts: test/support/consumer-install.ts).
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { consumerInstall } from "../support/consumer-install.ts";
import { DOCS_ASSET_LICENSES, DOCS_ASSETS } from "../../src/hosts/node/docs-assets.ts";
import { CONSOLE_ASSETS } from "../../src/hosts/node/console-assets.ts";
import { placeInstalledKit } from "../support/installed-kit.ts";
import { PACKAGE_ROOT, startProcess } from "../support/start-process.ts";

let project = "";
afterAll(() => {
  if (project) rmSync(project, { recursive: true, force: true });
});
beforeAll(() => {
  // dist/ is built once for the whole run (test/support/build-once.ts).
  project = mkdtempSync(join(tmpdir(), "plk-consumer-"));
  mkdirSync(join(project, "node_modules"));
  placeInstalledKit(join(project, "node_modules"));
  symlinkSync(join(PACKAGE_ROOT, "node_modules", "vitest"), join(project, "node_modules", "vitest"), "dir");
  writeFileSync(join(project, "package.json"), JSON.stringify({ name: "client", type: "module", private: true }));
});

const run = async (command: string, args: string[]) => {
  const process = startProcess(command, args);
  const code = await process.exited;
  return { code, output: process.output() };
};

describe("the built package", () => {
  it("gives a plain Node program the contract, the mock and the runner", async () => {
    const script = join(project, "consumer.mjs");
    writeFileSync(
      script,
      `import {
  checkRecording, createContract, createMockServer, readRecording, runContract,
} from "property-listing-kit";
const contract = createContract();
const broken = contract.validateResponse({
  method: "POST", path: "/api/v1/object/property", status: 200,
  headers: { "content-type": "application/json" }, body: { nid: 1, uri: "x" },
});
const mock = createMockServer();
const { url } = await mock.listen(0);
const outcome = await runContract({ baseUrl: url, apiKey: "demo-key", token: "demo-token", contract });
await mock.close();
const read = readRecording(JSON.stringify([{
  request: { method: "GET", path: "/api/v1/object/agent_cards", headers: { "API-KEY": "k", TOKEN: "t" } },
  response: { status: 200, headers: { "content-type": "application/json" }, body: { "1003": { id: 1003 } } } }]));
const recorded = checkRecording(read.exchanges, { source: "inline", contract });
console.log(JSON.stringify({ errors: broken.errors.map((error) => error.location), result: outcome.report.result,
  recording: recorded.report.results
    .filter((result) => result.status === "failed")
    .map((result) => result.violations[0].location) }));
`,
    );
    const { code, output } = await run("node", [script]);
    expect(code).toBe(0);
    expect(JSON.parse(output.trim().split("\n").at(-1)!)).toEqual({
      errors: ["response.body/nid", "response.body/uri"],
      result: "passed",
      recording: ["response.body/1003/email"],
    });
  });

  it("gives property-listing-kit/client, a typed client sending credentials, finding fetch at call time", async () => {
    const script = join(project, "client.mjs");
    writeFileSync(
      script,
      `import { createMockServer } from "property-listing-kit";
import { createListingClient } from "property-listing-kit/client";
const mock = createMockServer();
const { url } = await mock.listen(0);
const calls = [];
const real = globalThis.fetch;
const api = createListingClient({ baseUrl: url, apiKey: "demo-key", token: "demo-token" });
// Replaced after the client was made, as MSW's server.listen() replaces it: the client must call this one.
globalThis.fetch = (request) => (calls.push(request.method), real(request));
const listed = await api.GET("/api/v1/object/properties/{uid}", { params: { path: { uid: 1 } } });
const [entry] = mock.requests();
await mock.close();
console.log(JSON.stringify({
  status: listed.response.status, list: Array.isArray(listed.data), calls,
  sent: [entry.headers["api-key"], entry.headers.token, entry.headers["content-type"]],
}));
`,
    );
    const { code, output } = await run("node", [script]);
    expect(code, output).toBe(0);
    expect(JSON.parse(output.trim().split("\n").at(-1)!)).toEqual({
      status: 200,
      list: true,
      calls: ["GET"],
      sent: ["demo-key", "demo-token", "application/json"],
    });
  });

  it("adds toSatisfyContract to the vitest of the project that imports property-listing-kit/vitest", async () => {
    writeFileSync(
      join(project, "client.test.mjs"),
      `import "property-listing-kit/vitest";
import { expect, it } from "vitest";
it("holds recorded traffic against the contract", () => {
  const ok = { method: "GET", path: "/api/v1/object/document/4001", status: 200,
    headers: { "content-type": "application/json" },
    body: { nid: "4001", created: 1, changed: 1, title: "Plan", property_reference: 1024,
      file_url: "https://f.example/p.pdf", visible: true, category: "floorplan", is_floorplan: true,
      Show_on_unbranded: false } };
  expect(ok).toSatisfyContract();
  expect({ ...ok, body: { ...ok.body, visible: "yes" } }).not.toSatisfyContract();
});
`,
    );
    const { code, output } = await run("node", [
      join(PACKAGE_ROOT, "node_modules", "vitest", "vitest.mjs"),
      "run",
      "--root",
      project,
    ]);
    expect(output).toContain("1 passed");
    expect(code).toBe(0);
  });

  it("runs its programs as npm install links them, from the built files; --help names them; --version", async () => {
    const { version } = JSON.parse(readFileSync(join(PACKAGE_ROOT, "package.json"), "utf8")) as { version: string };
    const bins = (
      JSON.parse(readFileSync(join(PACKAGE_ROOT, "package.json"), "utf8")) as { bin: Record<string, string> }
    ).bin;
    expect(Object.keys(bins).sort()).toEqual(["property-listing-contract", "property-listing-mock"]);
    const installed = await consumerInstall();
    for (const [name, file] of Object.entries(bins)) {
      expect(file).toMatch(/^dist\/cli\/[a-z-]+\.js$/);
      const bin = join(installed.project, "node_modules", ".bin", name);
      const help = await run(bin, ["--help"]);
      expect(help.code, help.output).toBe(0);
      expect(help.output).toMatch(new RegExp(`^Usage: ${name} `));
      const printed = await run(bin, ["--version"]);
      expect(printed.code).toBe(0);
      expect(printed.output.trim()).toBe(`property-listing-kit ${version}`);
    }
  }, 260_000);

  it("ships the built code, docs page's files and licence, spec, fixtures, docs; no test, CI, local file", async () => {
    const { files } = await consumerInstall();
    const docsAssets = [
      ...[...Object.keys(DOCS_ASSETS), ...DOCS_ASSET_LICENSES].map((name) => `dist/docs-assets/${name}`),
      ...Object.keys(CONSOLE_ASSETS).map((name) => `dist/console-assets/${name}`),
    ];
    for (const required of [
      "dist/index.js",
      "dist/index.d.ts",
      "dist/vitest.js",
      "dist/client.js",
      "dist/client.d.ts",
      "dist/cli/mock.js",
      "dist/cli/contract.js",
      ...docsAssets,
      "spec/openapi.yaml",
      "fixtures/db.json",
      "docs/assumptions.md",
      "README.md",
    ]) {
      expect(files, required).toContain(required);
    }
    // The alternatives: a folder of the repository only, a test file, a configuration of the repository, a tarball.
    const unwanted = new RegExp(
      [
        /^(test|scripts|node_modules|coverage|scratch|\.ci|\.github)\//.source,
        /(^|\/)[^/]*\.test\.[cm]?[jt]s(\.map)?$/.source,
        /^(vitest\.config|tsconfig|redocly|docker-compose|Dockerfile|\.dockerignore|\.gitignore)/.source,
        /\.tgz$/.source,
      ].join("|"),
    );
    expect(files.filter((file) => unwanted.test(file))).toEqual([]);
  }, 260_000);

  it("is ESM only, for the Node versions of package.json's engines; CommonJS on them can require() it", async () => {
    const manifest = JSON.parse(readFileSync(join(PACKAGE_ROOT, "package.json"), "utf8")) as {
      type: string;
      engines: { node: string };
      exports: Record<string, unknown>;
    };
    expect(manifest.type).toBe("module");
    expect(JSON.stringify(manifest.exports)).not.toContain('"require"');
    expect(manifest.engines.node).toMatch(/^>=\d+\.\d+$/);
    writeFileSync(
      join(project, "common.cjs"),
      'const kit = require("property-listing-kit"); console.log(typeof kit.createMockServer);',
    );
    const { code, output } = await run("node", [join(project, "common.cjs")]);
    expect(code, output).toBe(0);
    expect(output.trim().split("\n").at(-1)).toBe("function");
  });

  it("keeps the packed archive (npm pack's *.tgz) out of git", () => {
    expect(
      execFileSync("git", ["check-ignore", "property-listing-kit-0.1.0.tgz", "dist/x.tgz"], {
        cwd: PACKAGE_ROOT,
        encoding: "utf8",
      })
        .trim()
        .split("\n"),
    ).toHaveLength(2);
  });
});
