/**
 * `property-listing-kit/client` under MSW's `setupServer`: a client made at module level, before `server.listen()`,
 * reaches the handlers as one made after it does (openapi-fetch alone keeps the fetch of the moment it was made,
 * which `listen()` replaces later). Every operation carries the credentials and `content-type`, a given fetch is
 * the one called, and the answers are typed values.
 */
import { setupServer } from "msw/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import "../../src/vitest.ts";
import { createListingClient } from "../../src/client.ts";
import { createMockHandlers } from "../../src/msw.ts";

const BASE = "http://client.mock.test";
const mock = createMockHandlers({ baseUrl: BASE, validateResponses: true });
// Made before server.listen(), as a module of the app under test would be.
const early = createListingClient({ baseUrl: BASE, apiKey: "demo-key", token: "demo-token" });
const server = setupServer(...mock.handlers);

let late: ReturnType<typeof createListingClient>;
beforeAll(() => {
  server.listen({ onUnhandledRequest: "error" });
  late = createListingClient({ baseUrl: BASE, apiKey: "demo-key", token: "demo-token" });
});
afterAll(() => server.close());

describe("createListingClient", () => {
  it("reaches the handlers whether it was made before or after server.listen()", async () => {
    mock.reset();
    for (const client of [early, late]) {
      const { data, error, response } = await client.GET("/api/v1/object/properties/{uid}", {
        params: { path: { uid: 1 } },
      });
      expect(error).toBeUndefined();
      expect(response.status).toBe(200);
      expect(Array.isArray(data)).toBe(true);
    }
    expect(mock.requests({ method: "GET" })).toHaveLength(2);
  });

  it("sends API-KEY, TOKEN and content-type on every operation, a GET with no body included", async () => {
    mock.reset();
    const created = await early.POST("/api/v1/object/property", {
      body: { street: "1 Client Row", city: "Austin", state: "TX", zip: "78701" },
    });
    expect(created.response.status).toBe(200);
    const nid = Number(created.data!.nid);
    const read = await late.GET("/api/v1/object/property/{nid}", { params: { path: { nid } } });
    expect(read.data?.street).toBe("1 Client Row");
    const sent = mock.requests();
    expect(sent.map((entry) => `${entry.method} ${entry.path}`)).toEqual([
      "POST /api/v1/object/property",
      `GET /api/v1/object/property/${nid}`,
    ]);
    for (const entry of sent) {
      expect(entry.headers).toMatchObject({
        "api-key": "demo-key",
        token: "demo-token",
        "content-type": "application/json",
      });
      expect(entry).toSatisfyContract();
    }
    expect(mock.violations).toEqual([]);
  });

  it("gives an expected failure as a value, with the problem the mock answered", async () => {
    const stranger = createListingClient({ baseUrl: BASE, apiKey: "demo-key", token: "wrong" });
    const { data, error, response } = await stranger.GET("/api/v1/object/properties/{uid}", {
      params: { path: { uid: 1 } },
    });
    expect(data).toBeUndefined();
    expect(response.status).toBe(401);
    expect(error).toMatchObject({ status: 401 });
  });

  it("calls the fetch it is given, and no other", async () => {
    const seen: string[] = [];
    const client = createListingClient({
      baseUrl: "http://elsewhere.test",
      apiKey: "k",
      token: "t",
      fetch: async (request) => {
        seen.push(
          `${request.method} ${request.url} ${request.headers.get("api-key")} ${request.headers.get("content-type")}`,
        );
        return new Response("[]", { headers: { "content-type": "application/json" } });
      },
    });
    const { data } = await client.GET("/api/v1/object/agent_cards");
    expect(data).toEqual([]);
    expect(seen).toEqual(["GET http://elsewhere.test/api/v1/object/agent_cards k application/json"]);
  });

  it("refuses options it cannot use, saying which", () => {
    expect(() => createListingClient({ baseUrl: BASE, apiKey: "", token: "t" })).toThrow(
      '"apiKey" must be a non-empty string',
    );
    expect(() => createListingClient({ baseUrl: BASE, apiKey: "k", token: "t", fetch: "no" as never })).toThrow(
      '"fetch" must be a function',
    );
  });
});
