/**
 * Issue 12 through HTTP: the request journal, Prefer: code/delay, --latency and fault rules, as a client's test
 * uses them. Delays are tens of milliseconds; the tests measure lower bounds only, never sleep.
 */
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMockServer } from "../../src/hosts/node/create-mock-server.ts";
import { MAX_FAULT_RULES } from "../../src/mock/services/fault-rules.ts";
import { MAX_JOURNAL_BODY_BYTES } from "../../src/mock/services/request-journal.ts";
import { createHarness, sharedContract } from "../support/mock-harness.ts";
import { operationRequests } from "../support/operation-requests.ts";
import { DEMO, tinyFixtures } from "../support/tiny-fixtures.ts";
import { HANG_MS } from "../support/deadlines.ts";

const { mock, api } = createHarness();
const address = { street: "1 Main St", city: "Austin", state: "TX", zip: "78701" };
const PROPERTY = "/api/v1/object/property";
const admin = () => request(mock.app);
const addFault = (rule: unknown) =>
  admin()
    .post("/__admin/faults")
    .send(rule as object);

let url = "";
beforeAll(async () => {
  ({ url } = await mock.listen(0));
});
afterAll(() => mock.close());

/** A request over a real socket, for what supertest cannot show: timing, dropped connections, timeouts. */
function call(
  method: string,
  path: string,
  init: { body?: unknown; headers?: Record<string, string>; signal?: AbortSignal } = {},
) {
  return fetch(`${url}${path}`, {
    method,
    headers: { ...DEMO, "content-type": "application/json", ...init.headers },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
    ...(init.signal ? { signal: init.signal } : {}),
  });
}

async function timed<T>(run: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await run();
  return { value, ms: performance.now() - started };
}

describe("GET /__admin/requests: the request journal", () => {
  it("records each API request, oldest first, and not the admin, health or spec routes", async () => {
    await request(mock.app).get("/healthz").expect(200);
    await api("post", "/property?draft=1").send(address).expect(200);
    await api("get", "/agent_cards").expect(200);
    await request(mock.app).get("/openapi.json").expect(200);
    await admin().get("/__db/properties").expect(200);
    const { body } = await admin().get("/__admin/requests").expect(200);
    expect(body.requests).toEqual([
      {
        method: "POST",
        path: PROPERTY,
        query: { draft: "1" },
        headers: expect.objectContaining({
          "api-key": "demo-key",
          token: "demo-token",
          "content-type": "application/json",
        }),
        body: address,
        status: 200,
        time: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        durationMs: expect.any(Number),
        fault: null,
      },
      expect.objectContaining({
        method: "GET",
        path: "/api/v1/object/agent_cards",
        query: {},
        body: null,
        status: 200,
      }),
    ]);
    expect(Date.now() - Date.parse(body.requests[0].time)).toBeLessThan(60_000);
  });

  it("keeps what the client sent even when the mock refused it", async () => {
    await api("post", "/property").set("content-type", "text/plain").send("street=1").expect(415);
    await api("post", "/property").send("{oops").expect(400);
    await api("get", "/nowhere").expect(404);
    await request(mock.app).get("/api/v1/object/agent_cards").expect(401);
    const { body } = await admin().get("/__admin/requests").expect(200);
    expect(body.requests.map((entry: { status: number; body: unknown }) => [entry.status, entry.body])).toEqual([
      [415, "street=1"],
      [400, "{oops"],
      [404, null],
      [401, null],
    ]);
  });

  it("filters by method and by exact path, combined", async () => {
    await api("post", "/property").send(address).expect(200);
    await api("get", "/property/1001").expect(200);
    await api("post", "/agent_card/")
      .send({ agent_first_name: "A", agent_last_name: "B", email: "a@b.example" })
      .expect(200);
    const summary = async (query: string) =>
      (await admin().get(`/__admin/requests${query}`).expect(200)).body.requests.map(
        (entry: { method: string; path: string }) => `${entry.method} ${entry.path}`,
      );
    expect(await summary("?method=POST")).toEqual([`POST ${PROPERTY}`, "POST /api/v1/object/agent_card/"]);
    expect(await summary(`?path=${encodeURIComponent(PROPERTY)}`)).toEqual([`POST ${PROPERTY}`]);
    expect(await summary(`?method=get&path=${PROPERTY}/1001`)).toEqual([`GET ${PROPERTY}/1001`]);
    expect(await summary(`?method=DELETE&path=${PROPERTY}`)).toEqual([]);
  });

  it("refuses an unknown or repeated filter with a 400 problem", async () => {
    const { body } = await admin().get("/__admin/requests?status=200&method=GET&method=POST").expect(400);
    expect(body).toMatchObject({
      title: "Invalid Request Journal Filter",
      errors: [
        { in: "query", pointer: "/status" },
        { in: "query", pointer: "/method" },
      ],
    });
  });

  it("is emptied by DELETE /__admin/requests and by POST /__admin/reset", async () => {
    await api("get", "/agent_cards").expect(200);
    await admin().delete("/__admin/requests").expect(200, { requests: [] });
    expect((await admin().get("/__admin/requests")).body.requests).toEqual([]);
    await api("get", "/agent_cards").expect(200);
    await admin().post("/__admin/reset").expect(200);
    expect((await admin().get("/__admin/requests")).body.requests).toEqual([]);
  });

  it("gives the same entries to mock.requests(), with the same filters", async () => {
    await api("post", "/property").send(address).expect(200);
    await api("get", "/agent_cards").expect(200);
    const { body } = await admin().get("/__admin/requests?method=POST").expect(200);
    expect(mock.requests({ method: "POST" })).toEqual(body.requests);
    expect(mock.requests()).toHaveLength(2);
  });

  it("keeps the start of a long body, says it was cut and how long it was", async () => {
    const description = "x".repeat(MAX_JOURNAL_BODY_BYTES * 2);
    await api("post", "/property")
      .send({ ...address, description })
      .expect(200);
    const [entry] = mock.requests();
    expect(entry).toMatchObject({ bodyTruncated: true, bodySize: JSON.stringify({ ...address, description }).length });
    expect((entry!.body as string).length).toBe(MAX_JOURNAL_BODY_BYTES);
  });

  it("is a ring of --journal-size entries, newest kept", async () => {
    const small = createMockServer({ fixtures: tinyFixtures(), contract: sharedContract(), journalSize: 2 });
    for (const path of ["/agent_cards", "/property/1001", "/properties/1"]) {
      await request(small.app)
        .get(`/api/v1/object${path}`)
        .set({ ...DEMO, "content-type": "application/json" })
        .expect(200);
    }
    expect(small.requests().map((entry) => entry.path)).toEqual([
      "/api/v1/object/property/1001",
      "/api/v1/object/properties/1",
    ]);
    const none = createMockServer({ fixtures: tinyFixtures(), contract: sharedContract(), journalSize: 0 });
    await request(none.app)
      .get("/api/v1/object/agent_cards")
      .set({ ...DEMO, "content-type": "application/json" })
      .expect(200);
    expect(none.requests()).toEqual([]);
  });
});

describe("Prefer: code=<status>", () => {
  it.each(
    operationRequests().flatMap((operation) =>
      [...sharedContract().operation(operation.operationId)!.responses.keys()].map((status) => ({
        ...operation,
        status: Number(status),
      })),
    ),
  )("answers $operationId with the body the spec documents for $status", async ({ method, path, body, status }) => {
    const before = JSON.stringify(mock.store.state);
    const response = await api(method, path)
      .set("Prefer", `code=${status}`)
      .send(body as object)
      .expect(status);
    expect(response.headers["preference-applied"]).toBe(`code=${status}`);
    const check = sharedContract().validateResponse({
      method,
      path: `/api/v1/object${path}`,
      status,
      headers: response.headers,
      body: response.body,
    });
    expect(check.errors).toEqual([]);
    expect(JSON.stringify(mock.store.state)).toBe(before);
  });

  it("answers a status the operation does not document with an injected problem, changing nothing", async () => {
    const response = await api("post", "/property").set("Prefer", "code=503").send(address).expect(503);
    expect(response.headers["content-type"]).toBe("application/problem+json; charset=utf-8");
    expect(response.body).toEqual({
      type: "https://property-listing.example/problems/injected-fault",
      title: "Injected Fault",
      status: 503,
      detail: "Answered 503 as asked by the Prefer header; nothing was changed.",
      instance: PROPERTY,
    });
    expect(mock.store.counts().properties).toBe(2);
    expect(mock.requests()[0]).toMatchObject({ status: 503, body: address, fault: { prefer: { code: 503 } } });
  });

  it("refuses a Prefer it cannot honour with a 400 problem, and ignores preferences it does not know", async () => {
    const { body } = await api("get", "/agent_cards").set("Prefer", "code=5o3").expect(400);
    expect(body).toMatchObject({ title: "Invalid Prefer Header", errors: [{ in: "header", pointer: "/prefer" }] });
    await api("get", "/agent_cards").set("Prefer", "return=minimal").expect(200);
  });
});

describe("delays: Prefer: delay=<ms>, --latency, fault rules", () => {
  it("Prefer: delay waits before answering, and combines with code", async () => {
    const { value: response, ms } = await timed(() =>
      call("GET", "/api/v1/object/agent_cards", { headers: { Prefer: "delay=60, code=404" } }),
    );
    expect(response.status).toBe(404);
    expect(response.headers.get("preference-applied")).toBe("code=404, delay=60");
    expect(ms).toBeGreaterThanOrEqual(55);
    expect(mock.requests()[0]).toMatchObject({ status: 404, fault: { prefer: { code: 404, delay: 60 } } });
    expect(mock.requests()[0]!.durationMs).toBeGreaterThanOrEqual(55);
  });

  it("--latency delays every API answer by a fixed time, or one drawn from the range", async () => {
    const slow = createMockServer({
      fixtures: tinyFixtures(),
      contract: sharedContract(),
      latency: { min: 50, max: 50 },
    });
    const { url: slowUrl } = await slow.listen(0);
    try {
      const { value: response, ms } = await timed(() =>
        fetch(`${slowUrl}/api/v1/object/agent_cards`, { headers: { ...DEMO, "content-type": "application/json" } }),
      );
      expect(response.status).toBe(200);
      expect(ms).toBeGreaterThanOrEqual(45);
      expect(slow.requests()[0]!.fault).toEqual({ latency: 50 });
      const health = await timed(() => fetch(`${slowUrl}/healthz`));
      expect(health.value.status).toBe(200);
    } finally {
      await slow.close();
    }
    const ranged = createMockServer({
      fixtures: tinyFixtures(),
      contract: sharedContract(),
      latency: { min: 10, max: 30 },
      random: () => 0.5,
    });
    await request(ranged.app)
      .get("/api/v1/object/agent_cards")
      .set({ ...DEMO, "content-type": "application/json" })
      .expect(200);
    expect(ranged.requests()[0]!.fault).toEqual({ latency: 20 });
  });

  it("takes latency as the flag writes it; refuses a bad one or journalSize as the program's mistake", async () => {
    const ranged = createMockServer({
      fixtures: tinyFixtures(),
      contract: sharedContract(),
      latency: "10-30",
      random: () => 0,
    });
    await request(ranged.app)
      .get("/api/v1/object/agent_cards")
      .set({ ...DEMO, "content-type": "application/json" })
      .expect(200);
    expect(ranged.requests()[0]!.fault).toEqual({ latency: 10 });
    expect(() => createMockServer({ latency: "slow" })).toThrow(/"latency" must be milliseconds/);
    expect(() => createMockServer({ latency: { min: 30, max: 10 } })).toThrow(
      /"latency" range must go from the smaller/,
    );
    expect(() => createMockServer({ journalSize: -1 })).toThrow(/"journalSize" must be a whole number/);
  });

  it("a client with a shorter timeout gives up, and the request it gave up on changes nothing", async () => {
    // The longest delay a rule may ask for: the test ends long before it, however busy the machine
    await addFault({ method: "POST", path: PROPERTY, delay: 60_000, times: 1 }).expect(201);
    const attempt = call("POST", PROPERTY, { body: address, signal: AbortSignal.timeout(250) });
    await expect(attempt).rejects.toThrow(/timeout|aborted/i);
    // The mock notices the client leave and stops waiting, long before the 60 s it was asked to wait.
    await expect.poll(() => mock.requests()[0]?.durationMs ?? null, { timeout: HANG_MS }).not.toBeNull();
    expect(mock.requests()[0]).toMatchObject({ status: null, fault: { rule: { id: 1, delay: 60_000 } } });
    expect(mock.requests()[0]!.durationMs).toBeLessThan(60_000);
    expect(mock.store.counts().properties).toBe(2);
    expect((await call("POST", PROPERTY, { body: address })).status).toBe(200);
  });
});

describe("POST /__admin/faults", () => {
  it("answers the next `times` matching requests with the status, changing nothing, then lets them pass", async () => {
    const { body: rule } = await addFault({ method: "post", path: PROPERTY, status: 503, times: 2 }).expect(201);
    expect(rule).toEqual({ id: 1, method: "POST", path: PROPERTY, status: 503, times: 2 });
    await api("get", "/property/1001").expect(200); // another path
    const { body } = await api("post", "/property").send(address).expect(503);
    expect(body).toMatchObject({
      title: "Injected Fault",
      status: 503,
      detail: "Answered 503 as asked by fault rule 1; nothing was changed.",
    });
    expect((await admin().get("/__admin/faults").expect(200)).body).toEqual({ faults: [{ ...rule, times: 1 }] });
    await api("post", "/property").send(address).expect(503);
    expect(mock.store.counts().properties).toBe(2);
    expect((await admin().get("/__admin/faults")).body).toEqual({ faults: [] });
    await api("post", "/property").send(address).expect(200);
    expect(mock.requests().map((entry) => [entry.status, entry.fault])).toEqual([
      [200, null],
      [503, { rule: { id: 1, status: 503 } }],
      [503, { rule: { id: 1, status: 503 } }],
      [200, null],
    ]);
  });

  it("applies to any method when none is given, without limit when times is left out", async () => {
    await addFault({ path: `${PROPERTY}/1001`, status: 500 }).expect(201);
    for (const method of ["get", "put"] as const) await api(method, "/property/1001").send({}).expect(500);
    expect((await admin().get("/__admin/faults")).body.faults).toEqual([
      { id: 1, path: `${PROPERTY}/1001`, status: 500 },
    ]);
  });

  it("drops the connection: the client sees it closed with no answer, and the journal says so", async () => {
    await addFault({ path: PROPERTY, drop: true, times: 1 }).expect(201);
    const error = await call("POST", PROPERTY, { body: address }).then(
      () => undefined,
      (failure: Error) => failure,
    );
    expect(error).toBeInstanceOf(TypeError); // fetch failed
    expect(String((error!.cause as Error | undefined)?.message ?? error)).toMatch(
      /other side closed|socket|ECONNRESET|terminated/i,
    );
    await expect.poll(() => mock.requests()[0]?.durationMs ?? null, { timeout: HANG_MS }).not.toBeNull();
    expect(mock.requests()[0]).toMatchObject({
      method: "POST",
      status: null,
      body: address,
      fault: { rule: { id: 1, drop: true } },
    });
    expect(mock.store.counts().properties).toBe(2);
    expect((await call("POST", PROPERTY, { body: address })).status).toBe(200);
  });

  it("delays a matching request, then answers it normally", async () => {
    await addFault({ path: "/api/v1/object/agent_cards", delay: 60 }).expect(201);
    const { value: response, ms } = await timed(() => call("GET", "/api/v1/object/agent_cards"));
    expect(response.status).toBe(200);
    expect(ms).toBeGreaterThanOrEqual(55);
  });

  it.each([
    [{ status: 503 }, "/path"],
    [{ path: PROPERTY, status: 200 }, "/status"],
    [{ path: PROPERTY, status: 503, delay: 10_000_000 }, "/delay"],
    [{ path: PROPERTY, drop: "yes" }, "/drop"],
    [{ path: PROPERTY, status: 503, times: -1 }, "/times"],
    [{ path: PROPERTY, status: 503, when: "always" }, "/when"],
    [{ path: PROPERTY }, "/status"],
  ])("refuses the rule %j with a 400 problem naming %s, adding nothing", async (rule, pointer) => {
    const { body } = await addFault(rule).expect(400);
    expect(body).toMatchObject({
      title: "Invalid Fault Rule",
      errors: [expect.objectContaining({ in: "body", pointer })],
    });
    expect((await admin().get("/__admin/faults")).body.faults).toEqual([]);
  });

  it("takes JSON only, and small: 415 for a form, 400 for broken JSON, 413 for a large body", async () => {
    await admin().post("/__admin/faults").type("form").send({ path: PROPERTY, status: "503" }).expect(415);
    await admin().post("/__admin/faults").set("content-type", "application/json").send('{"path":').expect(400);
    await admin().post("/__admin/faults").set("content-type", "application/json").send("").expect(400);
    await addFault({ path: PROPERTY, status: 503, pad: "x".repeat(20_000) }).expect(413);
    expect((await admin().get("/__admin/faults")).body.faults).toEqual([]);
  });

  it(`keeps at most ${MAX_FAULT_RULES} rules: beyond, 409`, async () => {
    for (let index = 0; index < MAX_FAULT_RULES; index++)
      expect(mock.faults.add({ path: `${PROPERTY}/${1001 + index}`, status: 500 }).id).toBe(index + 1);
    const { body } = await addFault({ path: PROPERTY, status: 503 }).expect(409);
    expect(body.title).toBe("Too Many Fault Rules");
    // In-process, the same refusal is thrown with the route's own words.
    expect(() => mock.faults.add({ path: PROPERTY, status: 503 })).toThrow(body.detail);
    await admin().delete("/__admin/faults").expect(200, { faults: [] });
    await addFault({ path: PROPERTY, status: 503 }).expect(201);
  });

  it("matches every path of a template as the spec writes it, and every path after a final *", async () => {
    const { body: template } = await addFault({ method: "GET", path: `${PROPERTY}/{nid}`, status: 503 }).expect(201);
    const { body: prefix } = await addFault({ path: "/api/v1/object/agent_card/*", status: 502 }).expect(201);
    await api("get", "/property/1001").expect(503);
    await api("get", "/property/999999").expect(503);
    await api("get", "/property").expect(405); // not a path of the template
    await api("put", "/property/1001").send({ title: "Kept" }).expect(200); // another method
    await api("get", "/agent_card/2001").expect(502);
    await api("post", "/agent_card/").send({}).expect(502);
    await api("get", "/agent_cards").expect(200); // agent_cards does not start with agent_card/
    expect(
      mock
        .requests()
        .filter((entry) => entry.fault)
        .map((entry) => [entry.path, entry.fault!.rule!.id]),
    ).toEqual([
      [`${PROPERTY}/1001`, template.id],
      [`${PROPERTY}/999999`, template.id],
      ["/api/v1/object/agent_card/2001", prefix.id],
      ["/api/v1/object/agent_card/", prefix.id],
    ]);
  });

  it.each([
    [{ path: "/api/v1/object/propertee/{nid}", status: 503 }, "/path", "matches no operation of the contract"],
    [{ path: "/healthz", status: 503 }, "/path", "matches no operation of the contract"],
    [{ path: "/api/v1/object/property/1001/more", status: 503 }, "/path", "matches no operation of the contract"],
    [{ path: "/api/v2/*", status: 503 }, "/path", "matches no operation of the contract"],
    [{ path: "/api/v1/object/property/*/edit", status: 503 }, "/path", "only at its end"],
    [{ path: "/api/v1/object/property/nid-{nid}", status: 503 }, "/path", "a {parameter} is a whole segment"],
    [
      { method: "DELETE", path: PROPERTY, status: 503 },
      "/method",
      "no operation at the paths this rule matches takes DELETE",
    ],
    [{ method: "PATCH", path: "/api/v1/object/*", status: 503 }, "/method", "takes PATCH"],
  ])("refuses %j, which could never apply, with a 400 saying why at %s", async (rule, pointer, why) => {
    const { body } = await addFault(rule).expect(400);
    expect(body).toMatchObject({
      title: "Invalid Fault Rule",
      errors: [{ in: "body", pointer, detail: expect.stringContaining(why) }],
    });
    expect((await admin().get("/__admin/faults")).body.faults).toEqual([]);
  });

  it("removes one rule by its id (DELETE /__admin/faults/{id}), leaving the others; an unknown id: 404", async () => {
    const ids: number[] = [];
    for (const status of [501, 502, 503])
      ids.push((await addFault({ path: PROPERTY, method: "POST", status }).expect(201)).body.id);
    const { body } = await admin().delete(`/__admin/faults/${ids[0]}`).expect(200);
    expect(body).toEqual({
      removed: { id: ids[0], method: "POST", path: PROPERTY, status: 501 },
      faults: [expect.objectContaining({ id: ids[1] }), expect.objectContaining({ id: ids[2] })],
    });
    await api("post", "/property").send(address).expect(502);
    for (const unknown of [String(ids[0]), "999", "0", "abc", "1e2"]) {
      const { body: problem } = await admin().delete(`/__admin/faults/${unknown}`).expect(404);
      expect(problem).toMatchObject({ title: "Not Found", detail: expect.stringContaining("GET /__admin/faults") });
    }
    expect((await admin().get("/__admin/faults")).body.faults.map((rule: { id: number }) => rule.id)).toEqual([
      ids[1],
      ids[2],
    ]);
    expect(mock.faults.remove(ids[1]!)).toMatchObject({ id: ids[1], status: 502 }); // the library, alike
    expect(mock.faults.remove(ids[1]!)).toBeUndefined();
    await api("post", "/property").send(address).expect(503);
  });

  it("is cleared by POST /__admin/reset", async () => {
    await addFault({ path: PROPERTY, status: 503 }).expect(201);
    await admin().post("/__admin/reset").expect(200);
    expect((await admin().get("/__admin/faults")).body.faults).toEqual([]);
    await api("post", "/property").send(address).expect(200);
  });
});

describe("CORS for steering", () => {
  it("lets a browser send Prefer and read Preference-Applied", async () => {
    const preflight = await request(mock.app)
      .options(PROPERTY)
      .set({ Origin: "http://localhost:5173", "Access-Control-Request-Method": "POST" })
      .expect(204);
    expect(preflight.headers["access-control-allow-headers"]).toMatch(/\bPrefer\b/);
    const answer = await api("get", "/agent_cards")
      .set({ Origin: "http://localhost:5173", Prefer: "delay=0" })
      .expect(200);
    expect(answer.headers["access-control-expose-headers"]).toMatch(/\bPreference-Applied\b/);
  });
});

describe("the steering routes sit behind the admin guard (hardening issue)", () => {
  it("refuse a page of another origin, an unknown Host and a missing admin token, and change nothing", async () => {
    const guarded = createMockServer({
      contract: sharedContract(),
      fixtures: tinyFixtures(),
      adminToken: "s3cret-token",
    });
    try {
      const bearer = { Authorization: "Bearer s3cret-token" };
      const rule = { path: PROPERTY, status: 503 };
      for (const [method, path] of [
        ["get", "/__admin/requests"],
        ["delete", "/__admin/requests"],
        ["get", "/__admin/faults"],
        ["delete", "/__admin/faults"],
        ["post", "/__admin/faults"],
      ] as const) {
        const send = (headers: Record<string, string>) =>
          request(guarded.app)
            [method](path)
            .set(headers)
            .send(method === "post" ? rule : undefined);
        await send({}).expect(401);
        await send({ ...bearer, Origin: "http://evil.example" }).expect(403);
        await send({ ...bearer, Host: "rebound.example:4010" }).expect(403);
      }
      expect(guarded.faults.list()).toEqual([]);
      await request(guarded.app)
        .post("/__admin/faults")
        .set("Authorization", "Bearer s3cret-token")
        .send(rule)
        .expect(201);
      expect(guarded.faults.list()).toHaveLength(1);
    } finally {
      await guarded.close();
    }
  });
});
