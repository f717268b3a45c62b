/**
 * `/docs` over HTTP (the rendered page is test/browser/docs.test.ts): its page and assets come from the mock,
 * it is not an admin route, it fills in only the demo credentials, and nothing of it is read before it is asked for.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import request from "supertest";
import { describe, expect, it } from "vitest";
import { createMockServer } from "../../src/hosts/node/create-mock-server.ts";
import { DOCS_ASSET_DIR, DOCS_ASSETS } from "../../src/hosts/node/docs-assets.ts";
import { createDocsPages } from "../../src/hosts/node/docs-pages.ts";
import { sharedContract } from "../support/mock-harness.ts";
import { startProcess } from "../support/start-process.ts";
import { tinyFixtures } from "../support/tiny-fixtures.ts";

const mock = createMockServer({ fixtures: tinyFixtures(), contract: sharedContract() });

describe("/docs", () => {
  it("serves a page that loads only the mock's own assets", async () => {
    const page = await request(mock.app).get("/docs").expect(200);
    expect(page.headers["content-type"]).toBe("text/html; charset=utf-8");
    // What the page loads (scripts, styles, the icon); its one link, to the console, is not loaded.
    const sources = [...page.text.matchAll(/(?:src|<link [^>]*href)="([^"]+)"/g)].map((match) => match[1]!);
    expect([...page.text.matchAll(/<a href="([^"]+)"/g)].map((match) => match[1])).toEqual(["/__admin/console"]);
    expect(sources.length).toBeGreaterThanOrEqual(3);
    for (const source of sources) {
      expect(source).toMatch(/^\/docs\//);
      const asset = await request(mock.app).get(source).expect(200);
      expect(asset.headers["content-type"]).toMatch(/^(text\/css|text\/javascript|image\/png)/);
    }
    const bundle = await request(mock.app).get("/docs/swagger-ui-bundle.js").expect(200);
    expect(bundle.text.length).toBeGreaterThan(100_000);
  });

  it("serves dist/docs-assets, the build's copies of swagger-ui-dist's files as they are, and licence", async () => {
    const original = dirname(createRequire(import.meta.url).resolve("swagger-ui-dist/package.json"));
    for (const name of Object.keys(DOCS_ASSETS)) {
      const served = (
        await request(mock.app)
          .get(`/docs/${name}`)
          .buffer(true)
          .parse((response, done) => {
            const chunks: Buffer[] = [];
            response.on("data", (chunk: Buffer) => chunks.push(chunk));
            response.on("end", () => done(null, Buffer.concat(chunks)));
          })
          .expect(200)
      ).body as Buffer;
      expect(served.equals(readFileSync(join(DOCS_ASSET_DIR, name))), `${name} is the copy in dist/docs-assets`).toBe(
        true,
      );
      expect(served.equals(readFileSync(join(original, name))), `${name} is swagger-ui-dist's`).toBe(true);
    }
    for (const beside of ["LICENSE", "NOTICE"])
      expect(readFileSync(join(DOCS_ASSET_DIR, beside), "utf8")).toBe(readFileSync(join(original, beside), "utf8"));
  });

  it("answers 404 saying how to build the copies when they are missing, naming no file path", async () => {
    const empty = mkdtempSync(join(tmpdir(), "plk-no-docs-assets-"));
    try {
      const docs = createDocsPages(() => undefined, empty);
      const server = createServer((incoming, response) => {
        if (!docs(incoming, response, new URL(incoming.url!, "http://mock").pathname)) response.writeHead(418).end();
      });
      const answer = await request(server).get("/docs/swagger-ui-bundle.js");
      expect(answer.status).toBe(404);
      expect(answer.headers["content-type"]).toBe("application/problem+json; charset=utf-8");
      expect(answer.body.detail).toContain("npm run build");
      expect(answer.text).not.toContain(empty);
      expect((await request(server).get("/docs")).status, "the page itself needs no file").toBe(200);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });

  it("fills in the demo credentials and points 'Try it out' at the mock itself", async () => {
    const init = (await request(mock.app).get("/docs/docs-init.js").expect(200)).text;
    expect(init).toContain('{"apiKey":"demo-key","token":"demo-token"}');
    expect(init).toContain("window.location.origin");
    expect(init).toContain("validatorUrl: null");
  });

  it("fills in no configured account's secret", async () => {
    const closed = createMockServer({
      fixtures: tinyFixtures(),
      contract: sharedContract(),
      accounts: [{ apiKey: "ci-key", token: "ci-secret", uid: 1 }],
    });
    const init = (await request(closed.app).get("/docs/docs-init.js").expect(200)).text;
    expect(init).not.toContain("ci-secret");
    expect(init).toContain("const credentials = null;");
  });

  it("answers a file it does not serve with a 404 problem, never a file outside its assets", async () => {
    for (const path of [
      "/docs/package.json",
      "/docs/../package.json",
      "/docs/%2e%2e/%2e%2e/package.json",
      "/docs/swagger-ui.js.map",
    ]) {
      const answer = await request(mock.app).get(path);
      expect(answer.status, path).toBe(404);
      expect(answer.headers["content-type"], path).toBe("application/problem+json; charset=utf-8");
    }
  });

  it("is listed by the index", async () => {
    expect((await request(mock.app).get("/").expect(200)).body).toMatchObject({ docs: "/docs" });
  });

  it("reads nothing of the reference until /docs is asked for", async () => {
    // A process of its own records every file it reads from the moment before the mock is loaded.
    const script = `
import fs from "node:fs";
import { syncBuiltinESMExports } from "node:module";
const read = [];
const original = fs.readFileSync;
fs.readFileSync = function (path, ...rest) { read.push(String(path)); return original.call(this, path, ...rest); };
syncBuiltinESMExports();
const { createMockServer } = await import("./src/hosts/node/create-mock-server.ts");
const mock = createMockServer();
const { url } = await mock.listen(0);
const headers = { "API-KEY": "demo-key", TOKEN: "demo-token", "content-type": "application/json" };
await (await fetch(url + "/healthz")).text();
await (await fetch(url + "/api/v1/object/template_base", { headers })).text();
const before = read.filter((path) => path.includes("swagger-ui")).length;
await (await fetch(url + "/docs")).text();
await (await fetch(url + "/docs/swagger-ui-bundle.js")).text();
const after = read.filter((path) => path.includes("swagger-ui")).length;
await mock.close();
console.log(JSON.stringify({ before, after }));
`;
    const child = startProcess(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script]);
    expect(await child.exited, child.output()).toBe(0);
    expect(JSON.parse(child.output().trim().split("\n").at(-1)!)).toEqual({ before: 0, after: 1 });
  });
});
