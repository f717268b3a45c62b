/**
 * The admin surface (/__db, /__admin) against the pages a developer has open: no CORS, no foreign Origin, JSON
 * bodies only, a Host allow-list against DNS rebinding, and an optional bearer token. Every refused request
 * changes nothing; the API keeps its open CORS.
 */
import request from "supertest";
import { describe, expect, it } from "vitest";
import { checkAdminRequest } from "../../src/mock/http/admin-guard.ts";
import { createMockServer, type MockServerOptions } from "../../src/hosts/node/create-mock-server.ts";
import { createHarness, sharedContract } from "../support/mock-harness.ts";
import { DEMO, tinyFixtures } from "../support/tiny-fixtures.ts";

const { mock } = createHarness();
const FOREIGN = "http://evil.example";
const state = (target = mock) => JSON.stringify(target.store.state);
const rawProperty = async () => (await request(mock.app).get("/__db/properties/1001").expect(200)).body;

/** Every request a page or a stranger might send to change the mock, as a function of extra headers. */
const writes = (target = mock) => [
  (headers: Record<string, string>) => request(target.app).post("/__admin/reset").set(headers),
  (headers: Record<string, string>) =>
    request(target.app).patch("/__db/properties/1001").set(headers).send({ title: "Changed" }),
  (headers: Record<string, string>) => request(target.app).delete("/__db/agents/1003").set(headers),
];

function corsHeaders(headers: Record<string, string>): string[] {
  return Object.keys(headers).filter((name) => name.startsWith("access-control-"));
}

describe("no CORS on the admin routes", () => {
  it("sends no Access-Control header, whatever the Origin, preflights included; the API keeps its CORS", async () => {
    for (const origin of [undefined, "http://127.0.0.1", FOREIGN]) {
      const headers = origin ? { Origin: origin } : {};
      for (const path of ["/__db/properties", "/__db/properties/1001", "/__admin/reset"]) {
        const answer = await request(mock.app).get(path).set(headers);
        expect(corsHeaders(answer.headers), `${origin} ${path}`).toEqual([]);
      }
      const preflight = await request(mock.app)
        .options("/__admin/reset")
        .set({ ...headers, "Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "content-type" });
      expect(corsHeaders(preflight.headers)).toEqual([]);
      expect(preflight.status).not.toBe(204);
    }
    const api = await request(mock.app)
      .get("/api/v1/object/template_base")
      .set({ ...DEMO, "content-type": "application/json", Origin: FOREIGN })
      .expect(200);
    expect(api.headers["access-control-allow-origin"]).toBe("*");
  });

  it("answers the API's preflight for the headers a client sends: API-KEY, TOKEN, content-type, Prefer", async () => {
    const preflight = await request(mock.app)
      .options("/api/v1/object/property/1001")
      .set({
        Origin: FOREIGN,
        "Access-Control-Request-Method": "PUT",
        "Access-Control-Request-Headers": "api-key,token,content-type,prefer",
      })
      .expect(204);
    expect(preflight.headers["access-control-allow-origin"]).toBe("*");
    expect(preflight.headers["access-control-allow-headers"]!.toLowerCase().split(/,\s*/).sort()).toEqual([
      "api-key",
      "content-type",
      "prefer",
      "token",
    ]);
    const plain = await request(mock.app)
      .options("/api/v1/object/template_base")
      .set({ Origin: FOREIGN, "Access-Control-Request-Method": "GET" })
      .expect(204);
    expect(plain.headers["access-control-allow-headers"]).toBe("API-KEY, TOKEN, Content-Type, Prefer");
  });
});

describe("a foreign Origin gets 403", () => {
  it("refuses every write from a page of another origin, and reads too, changing nothing", async () => {
    const before = state();
    for (const origin of [FOREIGN, "http://localhost:5173", "null", "http://127.0.0.1:1"]) {
      for (const send of writes()) {
        const answer = await send({ Origin: origin, "content-type": "application/json" }).expect(403);
        expect(answer.headers["content-type"]).toBe("application/problem+json; charset=utf-8");
        expect(answer.body).toMatchObject({ title: "Forbidden", status: 403 });
      }
      await request(mock.app).get("/__db/accounts").set({ Origin: origin }).expect(403);
    }
    expect(state()).toBe(before);
  });

  it("lets the mock's own origin and clients without an Origin through", async () => {
    await request(mock.app)
      .patch("/__db/properties/1001")
      .set({ Host: "localhost:4010", Origin: "http://localhost:4010" })
      .send({ title: "Own page" })
      .expect(200);
    expect(mock.store.record("properties", 1001)!.title).toBe("Own page");
    await request(mock.app).patch("/__db/properties/1001").send({ title: "curl" }).expect(200);
    expect(mock.store.record("properties", 1001)!.title).toBe("curl");
  });
});

describe("admin writes take application/json only", () => {
  it("refuses form, text and multipart bodies, and a body with no content-type, with 415: no change", async () => {
    const before = state();
    const property = JSON.stringify({ ...(await rawProperty()), title: "Sneaked in" });
    for (const type of [
      "application/x-www-form-urlencoded",
      "text/plain",
      "multipart/form-data; boundary=x",
      "text/plain;charset=UTF-8",
    ]) {
      await request(mock.app).post("/__admin/reset").set("content-type", type).send("a=b").expect(415);
      await request(mock.app).put("/__db/properties/1001").set("content-type", type).send(property).expect(415);
      await request(mock.app).post("/__db/documents").set("content-type", type).send(property).expect(415);
    }
    const bare = await request(mock.app)
      .post("/__admin/reset")
      .set("content-length", "3")
      .send(Buffer.from("a=b"))
      .unset("content-type");
    expect(bare.status).toBe(415);
    expect(state()).toBe(before);
  });

  it("takes application/json, with or without a charset, and a reset with no body at all", async () => {
    const property = JSON.stringify({ ...(await rawProperty()), title: "As JSON" });
    await request(mock.app)
      .put("/__db/properties/1001")
      .set("content-type", "application/json; charset=utf-8")
      .send(property)
      .expect(200);
    await request(mock.app).post("/__admin/reset").expect(200);
    await request(mock.app).post("/__admin/reset").set("content-type", "application/json").send("{}").expect(200);
  });
});

describe("DNS rebinding: the admin routes answer only to allowed hosts", () => {
  it("refuses a Host that is not the loopback, with 403 and no change, even without an Origin", async () => {
    const before = state();
    for (const host of [
      "evil.example",
      "evil.example:4010",
      "127.0.0.1.nip.io",
      "192.168.1.20:4010",
      "localhost.evil.example",
    ]) {
      for (const send of writes()) await send({ Host: host }).expect(403);
      const { body } = await request(mock.app).get("/__db/accounts").set({ Host: host }).expect(403);
      expect(body.detail).toContain("--allowed-hosts");
    }
    expect(state()).toBe(before);
    const api = await request(mock.app)
      .get("/api/v1/object/template_base")
      .set({ ...DEMO, "content-type": "application/json", Host: "evil.example" });
    expect(api.status).toBe(200); // the API is not the admin surface
  });

  it("admits localhost, *.localhost and the loopback addresses, on any port", async () => {
    for (const host of [
      "localhost",
      "localhost:4010",
      "LOCALHOST:1",
      "app.localhost:4010",
      "127.0.0.1",
      "127.0.0.1:4010",
      "[::1]:4010",
      "[::1]",
    ]) {
      await request(mock.app).get("/__db/accounts").set({ Host: host }).expect(200);
    }
  });

  it("admits the host of --base-url and the --allowed-hosts, a leading dot admitting subdomains", async () => {
    const open = createMockServer({
      fixtures: tinyFixtures(),
      contract: sharedContract(),
      baseUrl: "http://property-listing-mock:4010",
      allowedHosts: ["mock.test", ".dev.example"],
    });
    for (const host of ["property-listing-mock:4010", "mock.test", "dev.example", "a.b.dev.example:8080"]) {
      await request(open.app).get("/__db/accounts").set({ Host: host }).expect(200);
    }
    for (const host of ["other.test", "xdev.example", "mock.test.evil.example"]) {
      await request(open.app).get("/__db/accounts").set({ Host: host }).expect(403);
    }
    // A page of the base URL's origin is the mock's own, as a browser in another container would send it.
    await request(open.app)
      .get("/__db/accounts")
      .set({ Host: "property-listing-mock:4010", Origin: "http://property-listing-mock:4010" })
      .expect(200);
  });

  it("refuses a missing or malformed Host", () => {
    const check = (host: string | undefined) =>
      checkAdminRequest({ method: "GET", headers: host === undefined ? {} : { host } }, { allowedHosts: [] })?.problem;
    expect(check(undefined)).toBe("forbidden");
    for (const host of ["", "[::1", "[evil.example]", "local host", "localhost:80:80", "[::1]x"])
      expect(check(host), host).toBe("forbidden");
    expect(check("[::1]:4010")).toBeUndefined();
  });
});

describe("--admin-token", () => {
  const guarded = (options: MockServerOptions = {}) =>
    createMockServer({ fixtures: tinyFixtures(), contract: sharedContract(), adminToken: "s3cret-token", ...options });

  it("requires Authorization: Bearer <token> on every admin route, 401 otherwise, changing nothing", async () => {
    const locked = guarded();
    const before = state(locked);
    for (const authorization of [
      undefined,
      "Bearer wrong-token",
      "s3cret-token",
      "Basic czNjcmV0LXRva2Vu",
      "Bearer s3cret-token-and-more",
    ]) {
      const headers: Record<string, string> = authorization ? { Authorization: authorization } : {};
      for (const send of writes(locked)) {
        const answer = await send({ ...headers, "content-type": "application/json" }).expect(401);
        expect(answer.headers["www-authenticate"]).toMatch(/^Bearer /);
        expect(answer.body.detail).toContain("--admin-token");
      }
      await request(locked.app).get("/__db/properties").set(headers).expect(401);
    }
    expect(state(locked)).toBe(before);
    await request(locked.app).get("/__db/properties").set({ Authorization: "Bearer s3cret-token" }).expect(200);
    await request(locked.app).post("/__admin/reset").set({ Authorization: "bearer s3cret-token" }).expect(200);
  });

  it("leaves the API, /healthz and the spec open", async () => {
    const locked = guarded();
    await request(locked.app).get("/healthz").expect(200);
    await request(locked.app).get("/openapi.yaml").expect(200);
    await request(locked.app).get("/openapi.json").expect(200);
    await request(locked.app)
      .get("/api/v1/object/template_base")
      .set({ ...DEMO, "content-type": "application/json" })
      .expect(200);
  });

  it("comes after the Host and Origin checks: a foreign page gets 403 even with the token", async () => {
    const locked = guarded();
    await request(locked.app)
      .post("/__admin/reset")
      .set({ Authorization: "Bearer s3cret-token", Origin: FOREIGN })
      .expect(403);
    await request(locked.app)
      .post("/__admin/reset")
      .set({ Authorization: "Bearer s3cret-token", Host: "evil.example" })
      .expect(403);
  });
});
