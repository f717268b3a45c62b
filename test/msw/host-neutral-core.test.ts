/**
 * Issue 30, item 1: the whole mock answers a plain request value with a plain reply, with no `node:` import and no
 * Node-only package in its module graph. esbuild bundles it for the browser platform with every Node builtin
 * refused (scripts/browser-bundle.ts), and the bundle then runs in a context that has the web's globals only
 * (no process, Buffer or require), answering a create, a retrieve, a 400 and a 401.
 */
import { createContext, runInContext } from "node:vm";
import { webcrypto } from "node:crypto";
import { describe, expect, it } from "vitest";
import { bundleForBrowser } from "../../scripts/browser-bundle.ts";

const DEMO = { "api-key": "demo-key", token: "demo-token" };
const VALID_PROPERTY = { street: "1 Main St", city: "Springfield", state: "IL", zip: "62701" };

describe("the mock's core, bundled for the browser", () => {
  it("bundles the core and the MSW module with no Node builtin, and says who imports one when there is", {
    timeout: 60_000,
  }, async () => {
    for (const entry of ["test/msw/core-entry.ts", "src/msw.ts"]) {
      const bundle = await bundleForBrowser(entry, { external: ["msw"] });
      expect(bundle.ok ? [] : bundle.errors, entry).toEqual([]);
    }
    // The check can fail: the Node server's module reaches node:http, node:fs and json-server.
    const node = await bundleForBrowser("src/hosts/node/create-mock-server.ts");
    expect(node.ok).toBe(false);
    expect(node.ok ? "" : node.errors.join("\n")).toMatch(
      /Node builtin "node:http" imported by src\/hosts\/node\/create-mock-server\.ts/,
    );
  });

  it("answers plain requests where only the web's globals exist", { timeout: 60_000 }, async () => {
    const bundle = await bundleForBrowser("test/msw/core-entry.ts", { format: "iife", globalName: "kit" });
    if (!bundle.ok) throw new Error(bundle.errors.join("\n"));
    // What a page has, and nothing of Node's: no process, Buffer, require, setImmediate or global.
    const page = createContext({
      TextEncoder,
      TextDecoder,
      URL,
      URLSearchParams,
      crypto: webcrypto,
      performance,
      setTimeout,
      clearTimeout,
      structuredClone,
      console,
    });
    runInContext(bundle.code, page);
    expect(runInContext("typeof process + typeof Buffer + typeof require", page)).toBe("undefinedundefinedundefined");
    const mock = runInContext("kit.createPlainMock()", page) as {
      answer(request: object): Promise<{ status: number; contentType: string; body: string }>;
      violations: unknown[];
    };

    const created = await mock.answer({
      method: "POST",
      url: "/api/v1/object/property",
      headers: { ...DEMO, "content-type": "application/json" },
      body: JSON.stringify(VALID_PROPERTY),
    });
    expect(created.status, created.body).toBe(200);
    expect(created.contentType).toBe("application/json; charset=utf-8");
    const { nid, uri } = JSON.parse(created.body) as { nid: number; uri: string };
    expect(uri).toMatch(/^http:\/\/mock\.test\/autologin\/1-\d+-[0-9a-f]{32}$/);

    const retrieved = await mock.answer({
      method: "GET",
      url: `http://mock.test/api/v1/object/property/${nid}`,
      headers: { ...DEMO, "Content-Type": "application/json" },
    });
    expect(retrieved.status).toBe(200);
    expect(JSON.parse(retrieved.body)).toMatchObject({ nid, street: "1 Main St" });

    const bad = await mock.answer({
      method: "POST",
      url: "/api/v1/object/property",
      headers: { ...DEMO, "content-type": "application/json" },
      body: "{",
    });
    expect([bad.status, bad.contentType]).toEqual([400, "application/problem+json; charset=utf-8"]);
    const anonymous = await mock.answer({ method: "GET", url: `/api/v1/object/property/${nid}` });
    expect(anonymous.status).toBe(401);
    const page404 = await mock.answer({ method: "GET", url: "/__db/properties", headers: { host: "localhost:4010" } });
    expect([page404.status, JSON.parse(page404.body).detail]).toEqual([404, expect.stringContaining("json-server")]);
    expect(mock.violations).toEqual([]);
  });
});
