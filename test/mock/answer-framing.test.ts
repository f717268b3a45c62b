/**
 * How the Node host frames its answers on the wire: every answer says its length (no chunked encoding), and
 * carries the CORS headers once (the API and the public pages) or not at all (the admin routes). Read from a
 * raw socket, where a header sent twice or a chunked body shows as it is.
 */
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMockServer } from "../../src/hosts/node/create-mock-server.ts";
import { sharedContract } from "../support/mock-harness.ts";
import { DEMO, tinyFixtures } from "../support/tiny-fixtures.ts";

const mock = createMockServer({ fixtures: tinyFixtures(), contract: sharedContract(), log: () => {} });
let port = 0;

beforeAll(async () => {
  ({ port } = await mock.listen(0, "127.0.0.1"));
});
afterAll(() => mock.close());

interface RawAnswer {
  status: number;
  /** Every header line, names lower-cased, in the order sent (a repeated header appears twice). */
  headers: [string, string][];
  body: Buffer;
}

/** Sends one request on its own connection and reads the whole answer as bytes (the server closes after it). */
function exchange(method: string, path: string, headers: Record<string, string> = {}, body = ""): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    const chunks: Buffer[] = [];
    socket.on("data", (chunk: Buffer) => chunks.push(chunk));
    socket.on("error", reject);
    socket.on("end", () => {
      const raw = Buffer.concat(chunks);
      const split = raw.indexOf("\r\n\r\n");
      const [statusLine, ...lines] = raw.subarray(0, split).toString("latin1").split("\r\n");
      resolve({
        status: Number(statusLine!.split(" ")[1]),
        headers: lines.map((line) => [
          line.slice(0, line.indexOf(":")).toLowerCase(),
          line.slice(line.indexOf(":") + 1).trim(),
        ]),
        body: raw.subarray(split + 4),
      });
    });
    const head = Object.entries({
      host: `127.0.0.1:${port}`,
      connection: "close",
      ...headers,
      ...(body ? { "content-length": String(Buffer.byteLength(body)) } : {}),
    })
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join("");
    socket.write(`${method} ${path} HTTP/1.1\r\n${head}\r\n${body}`);
  });
}

const values = (answer: RawAnswer, name: string) =>
  answer.headers.filter(([header]) => header === name).map(([, value]) => value);
const JSON_HEADERS = { ...DEMO, "content-type": "application/json" };

describe("answers on the wire", () => {
  it.each([
    ["a retrieved property", "GET", "/api/v1/object/property/1001", JSON_HEADERS, "", 200],
    ["a property list", "GET", "/api/v1/object/properties/1", JSON_HEADERS, "", 200],
    [
      "a created property",
      "POST",
      "/api/v1/object/property",
      JSON_HEADERS,
      JSON.stringify({ street: "221 Baker Street", city: "Springfield", state: "IL", zip: "62701" }),
      200,
    ],
    ["a refusal", "GET", "/api/v1/object/property/999999", JSON_HEADERS, "", 404],
    ["a 405 with its Allow", "DELETE", "/api/v1/object/property/1001", JSON_HEADERS, "", 405],
    ["the health page", "GET", "/healthz", {}, "", 200],
    ["the spec as YAML", "GET", "/openapi.yaml", {}, "", 200],
    ["an admin page", "GET", "/__admin/requests", {}, "", 200],
  ] as const)("%s says its length, and is not chunked", async (_label, method, path, headers, body, status) => {
    const answer = await exchange(method, path, headers, body);
    expect(answer.status).toBe(status);
    expect(values(answer, "transfer-encoding")).toEqual([]);
    expect(values(answer, "content-length")).toEqual([String(answer.body.length)]);
    expect(answer.body.length).toBeGreaterThan(0);
    expect(values(answer, "content-type")).toHaveLength(1);
  });

  it("sends the CORS headers once on the API, its refusals, the public pages and the API reference", async () => {
    for (const [path, headers] of [
      ["/api/v1/object/property/1001", JSON_HEADERS],
      ["/api/v1/object/property/999999", JSON_HEADERS],
      ["/api/v1/object/nowhere", JSON_HEADERS],
      ["/healthz", {}],
      ["/openapi.yaml", {}],
      ["/docs", {}],
      ["/docs/nothing-here.js", {}],
    ] as const) {
      const answer = await exchange("GET", path, headers);
      expect(values(answer, "access-control-allow-origin"), path).toEqual(["*"]);
      expect(values(answer, "access-control-expose-headers"), path).toEqual([
        "Allow, Content-Type, Preference-Applied",
      ]);
    }
  });

  it("sends no CORS header on the admin routes", async () => {
    for (const path of ["/__admin/requests", "/__admin/faults", "/__db/properties"]) {
      const answer = await exchange("GET", path);
      expect(values(answer, "access-control-allow-origin"), path).toEqual([]);
    }
  });

  it("answers a HEAD with the length of the GET and no body", async () => {
    const get = await exchange("GET", "/healthz");
    const head = await exchange("HEAD", "/healthz");
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    expect(values(head, "content-length")).toEqual(values(get, "content-length"));
  });

  it("keeps the Preference-Applied header a Prefer asked for beside the CORS ones", async () => {
    const answer = await exchange("GET", "/api/v1/object/property/1001", { ...JSON_HEADERS, prefer: "code=404" });
    expect(answer.status).toBe(404);
    expect(values(answer, "preference-applied")).toEqual(["code=404"]);
    expect(values(answer, "access-control-allow-origin")).toEqual(["*"]);
  });
});
