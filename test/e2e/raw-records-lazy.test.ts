/**
 * json-server serves /__db, but only /__db: a start and the API's requests load neither json-server nor Express
 * (the bench's start-up and throughput goals stand as they were); the first raw request loads them. Run in a
 * process of its own on the built package, where nothing else can have loaded them.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { PACKAGE_ROOT } from "../support/start-process.ts";

const script = `
import { createRequire } from "node:module";
import { createMockServer } from ${JSON.stringify(pathToFileURL(join(PACKAGE_ROOT, "dist", "index.js")).href)};
const require = createRequire(import.meta.url);
const packageOf = (path) => /[\\\\/]node_modules[\\\\/](json-server|express|lowdb|lodash)[\\\\/]/.exec(path)?.[1];
const loaded = () => [...new Set(Object.keys(require.cache).map(packageOf).filter(Boolean))].sort();
const mock = createMockServer({ quiet: true });
const { url } = await mock.listen(0, "127.0.0.1");
const headers = { "API-KEY": "demo-key", TOKEN: "demo-token", "content-type": "application/json" };
const statuses = [
  (await fetch(url + "/healthz")).status,
  (await fetch(url + "/api/v1/object/properties/1", { headers })).status,
];
const body = JSON.stringify({ street: "1 Main St", city: "Austin", state: "TX", zip: "78701" });
statuses.push((await fetch(url + "/api/v1/object/property", { method: "POST", headers, body })).status);
const afterApi = loaded();
statuses.push((await fetch(url + "/__db/accounts?_limit=1")).status);
console.log(JSON.stringify({ statuses, afterApi, afterRaw: loaded() }));
await mock.close();
`;

describe("json-server on the raw routes only", () => {
  it("is not loaded by a start or the API, and is by the first /__db request", () => {
    const output = execFileSync(process.execPath, ["--input-type=module", "-e", script], {
      cwd: PACKAGE_ROOT,
      encoding: "utf8",
      timeout: 60_000,
    });
    const { statuses, afterApi, afterRaw } = JSON.parse(output.trim().split("\n").at(-1)!) as {
      statuses: number[];
      afterApi: string[];
      afterRaw: string[];
    };
    expect(statuses).toEqual([200, 200, 200, 200]);
    expect(afterApi).toEqual([]);
    expect(afterRaw).toEqual(["express", "json-server", "lodash", "lowdb"]);
  });

  it("stays a dynamic import in the bundled bin, so that its start does not load it either", () => {
    const bundle = readFileSync(join(PACKAGE_ROOT, "dist", "cli", "mock.js"), "utf8");
    expect(bundle).not.toMatch(/^import[^;]*from\s*["']json-server["']/m);
    expect(bundle).not.toMatch(/^import[^;]*from\s*["']express["']/m);
    expect(bundle).toMatch(/await import\(["']json-server["']\)/);
  });
});
