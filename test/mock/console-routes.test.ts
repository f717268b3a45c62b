/**
 * The console's admin routes through HTTP (port-less): the journal's summaries and one call opened (request and
 * answer, credentials hidden, a curl with placeholders), the answer kept within the journal's cap, coverage by
 * operation and documented status with the assumptions behind them, latency set and removed, and the admin
 * guard in front of all of them.
 */
import request from "supertest";
import { describe, expect, it } from "vitest";
import { createContract } from "../../src/contract/create-contract.ts";
import { createMockServer } from "../../src/hosts/node/create-mock-server.ts";
import {
  JOURNAL_BYTE_BUDGET,
  MAX_JOURNAL_BODY_BYTES,
  RequestJournal,
} from "../../src/mock/services/request-journal.ts";
import { loadSpec } from "../../src/spec/load-spec.ts";
import { listAssumptions } from "../../src/spec/list-assumptions.ts";
import { createHarness, sharedContract } from "../support/mock-harness.ts";
import { DEMO, tinyFixtures } from "../support/tiny-fixtures.ts";

const { mock, api } = createHarness();
const admin = () => request(mock.app);
const PROPERTY = "/api/v1/object/property";

describe("GET /__admin/journal and /__admin/journal/<id>", () => {
  it("sums up each call: operation, status, duration, uid, a bad request's fields, never a credential", async () => {
    await api("get", "/property/1001").expect(200);
    await api("post", "/property").send({ street: "1 Main St", state: "TXX" }).expect(400);
    await request(mock.app).get("/api/v1/object/template_base").set({ "content-type": "application/json" }).expect(401);

    const listed = await admin().get("/__admin/journal").expect(200);
    const [retrieved, invalid, anonymous] = listed.body.calls;
    expect(retrieved).toMatchObject({
      method: "GET",
      url: "/api/v1/object/property/1001",
      operationId: "retrieveProperty",
      status: 200,
      uid: 1,
      fault: null,
    });
    expect(retrieved.durationMs).toBeGreaterThanOrEqual(0);
    expect(invalid).toMatchObject({ operationId: "createProperty", status: 400, uid: 1, problem: "Invalid Request" });
    expect(invalid.errors.map((error: { pointer: string }) => error.pointer).sort()).toEqual([
      "/city",
      "/state",
      "/zip",
    ]);
    expect(anonymous).toMatchObject({ operationId: "retrieveTemplateCatalogue", status: 401, uid: null });
    expect(JSON.stringify(listed.body)).not.toMatch(/demo-key|demo-token/);
  });

  it("opens a call: request and answer headers, bodies formatted, credentials hidden, a curl of $TOKEN…", async () => {
    await api("post", "/property").send({ street: "1 Main St", city: "Austin", state: "TX", zip: "78701" }).expect(200);
    const [{ id }] = (await admin().get("/__admin/journal").expect(200)).body.calls;
    const opened = await admin().get(`/__admin/journal/${id}`).expect(200);
    const call = opened.body;
    expect(call.request.headers["api-key"]).toBe("(hidden: 8 characters)");
    expect(call.request.headers.token).toBe("(hidden: 10 characters)");
    expect(call.request.body).toBe(
      JSON.stringify({ street: "1 Main St", city: "Austin", state: "TX", zip: "78701" }, null, 2),
    );
    expect(call.answer.headers["content-type"]).toMatch(/^application\/json/);
    expect(JSON.parse(call.answer.body)).toMatchObject({ nid: expect.any(String), uri: expect.any(String) });
    expect(call.answer.body).toContain('\n  "nid"');
    expect(call.curl).toContain(`-H "API-KEY: $API_KEY" -H "TOKEN: $TOKEN"`);
    expect(call.curl).toMatch(/^curl -X POST 'http:\/\/127\.0\.0\.1(:\d+)?\/api\/v1\/object\/property' /);
    expect(call.curl).toContain(`--data-raw '{"street":"1 Main St","city":"Austin","state":"TX","zip":"78701"}'`);
    expect(JSON.stringify(call)).not.toMatch(/demo-key|demo-token/);
  });

  it("answers 404 for a call it does not hold, and for an id that is not one", async () => {
    for (const id of ["999999", "0", "abc", "1.5", "9".repeat(40)])
      await admin().get(`/__admin/journal/${id}`).expect(404);
    await admin().post("/__admin/journal").set("content-type", "application/json").send({}).expect(405);
  });

  it("keeps the start of a long answer only, within the journal's cap, saying how long it was", async () => {
    mock.useState("many-properties");
    await api("get", "/properties/1").expect(200);
    const [{ id }] = (await admin().get("/__admin/journal").expect(200)).body.calls;
    const { answer } = (await admin().get(`/__admin/journal/${id}`).expect(200)).body;
    expect(answer.bodyTruncated).toBe(true);
    expect(answer.bodySize).toBeGreaterThan(MAX_JOURNAL_BODY_BYTES);
    expect(answer.body.length).toBeLessThanOrEqual(MAX_JOURNAL_BODY_BYTES);
  });

  it("marks an answer that failed --validate-responses", async () => {
    // A contract whose catalogue answer the mock cannot meet: its answer is a violation, answered 500.
    const document = structuredClone(loadSpec());
    document.paths["/api/v1/object/template_base"]!.get!.responses["200"] = {
      description: "never met",
      content: {
        "application/json": { schema: { type: "object", properties: { templates: { type: "array", maxItems: 0 } } } },
      },
    };
    const broken = createMockServer({
      fixtures: tinyFixtures(),
      contract: createContract({ closed: true, document }),
      validateResponses: true,
      log: () => {},
      quiet: true,
    });
    await request(broken.app)
      .get("/api/v1/object/template_base")
      .set({ ...DEMO, "content-type": "application/json" })
      .expect(500);
    const [call] = (await request(broken.app).get("/__admin/journal").expect(200)).body.calls;
    expect(call).toMatchObject({ status: 500, responseInvalid: true, problem: "Mock Response Breaks The Contract" });
    broken.violations.length = 0;
  });
});

describe("the journal's subscription", () => {
  it("tells a listener of a call as it arrives and once it is over, and of a clear; stops when told", () => {
    const journal = new RequestJournal(10);
    const seen: string[] = [];
    const stop = journal.subscribe((event, call) =>
      seen.push(`${event} ${call?.id ?? ""} ${call?.status ?? ""}`.trim()),
    );
    const record = journal.begin({ method: "GET", url: "/api/x", headers: {} });
    record.about("retrieveProperty", 1);
    record.answer({ contentType: "application/json", headers: undefined, body: "[]" });
    record.finish(200);
    journal.clear();
    stop();
    journal.begin({ method: "GET", url: "/api/y", headers: {} }).finish(404);
    expect(seen).toEqual(["arrived 1", "answered 1 200", "cleared"]);
    expect(journal.call(2)?.status).toBe(404);
    expect(journal.call(1)).toBeUndefined();
  });

  it("counts a kept answer against the byte budget, cut at the body cap", () => {
    const journal = new RequestJournal(10);
    const record = journal.begin({ method: "GET", url: "/api/x", headers: {} });
    record.answer({
      contentType: "application/json",
      headers: { Allow: "GET" },
      body: "x".repeat(MAX_JOURNAL_BODY_BYTES * 4),
    });
    record.finish(200);
    const call = journal.call(1)!;
    expect(call.answerSize).toBe(MAX_JOURNAL_BODY_BYTES * 4);
    expect((call.answered!.body as Uint8Array).byteLength).toBe(MAX_JOURNAL_BODY_BYTES);
  });

  it("lets the oldest calls go once the answers kept reach the journal's byte budget", () => {
    const journal = new RequestJournal(100_000);
    const answer = "y".repeat(MAX_JOURNAL_BODY_BYTES);
    const fit = Math.floor(JOURNAL_BYTE_BUDGET / MAX_JOURNAL_BODY_BYTES);
    for (let index = 0; index < fit + 500; index++) {
      const record = journal.begin({ method: "GET", url: "/api/x", headers: {} });
      record.answer({ contentType: "application/json", headers: undefined, body: answer });
      record.finish(200);
    }
    expect(journal.calls().length).toBeLessThanOrEqual(fit);
    expect(journal.calls().length).toBeGreaterThan(fit - 100);
    expect(journal.calls().at(-1)!.id).toBe(fit + 500);
  });
});

describe("GET and DELETE /__admin/coverage", () => {
  it("counts each operation and documented status the session got, and the assumptions they rest on", async () => {
    await admin().delete("/__admin/coverage").expect(200);
    await api("get", "/property/1001").expect(200);
    await api("get", "/property/1001").expect(200);
    await api("get", "/property/999999").expect(404);
    await api("get", "/nothing-here").expect(404);
    const report = (await admin().get("/__admin/coverage").expect(200)).body;
    expect(report.operations).toHaveLength(15);
    expect(report.totals).toMatchObject({ operations: 15, exercised: 1, responsesExercised: 2 });
    const retrieve = report.operations.find(
      (operation: { operationId: string }) => operation.operationId === "retrieveProperty",
    );
    expect(retrieve.count).toBe(3);
    const byStatus = Object.fromEntries(
      retrieve.responses.map((response: { status: string; count: number }) => [response.status, response.count]),
    );
    expect(byStatus).toMatchObject({ "200": 2, "404": 1, "401": 0 });
    // The 404 rests on the contract's choice of status for errors (components/responses/NotFound).
    const named = listAssumptions(sharedContract().document);
    const notFound = named.find(({ pointer }) => pointer === "/components/responses/NotFound");
    expect(notFound?.id).toBe("not-found-status");
    expect(report.assumptions.map((assumption: { id: string }) => assumption.id)).toContain("not-found-status");
    expect(report.totals.responses).toBe(
      sharedContract().operations.reduce((sum, operation) => sum + operation.responses.size, 0),
    );
  });

  it("outlives a reset, and is emptied by DELETE", async () => {
    await api("get", "/property/1001").expect(200);
    await admin().post("/__admin/reset").expect(200);
    expect((await admin().get("/__admin/coverage").expect(200)).body.totals.exercised).toBeGreaterThan(0);
    expect((await admin().delete("/__admin/coverage").expect(200)).body.totals).toMatchObject({
      exercised: 0,
      responsesExercised: 0,
    });
    expect(mock.requests()).toEqual([]);
  });
});

describe("/__admin/latency", () => {
  it("is none unless set; PUT sets it for the next call, DELETE removes it, a reset brings the start one", async () => {
    expect((await admin().get("/__admin/latency").expect(200)).body).toEqual({ latency: null });
    expect((await admin().put("/__admin/latency").send({ min: 0, max: 3 }).expect(200)).body).toEqual({
      latency: { min: 0, max: 3 },
    });
    await api("get", "/property/1001").expect(200);
    const [call] = (await admin().get("/__admin/journal").expect(200)).body.calls;
    expect(call.fault.latency).toBeGreaterThanOrEqual(0);
    expect(call.fault.latency).toBeLessThanOrEqual(3);
    expect((await admin().put("/__admin/latency").send({ min: 2 }).expect(200)).body).toEqual({
      latency: { min: 2, max: 2 },
    });
    expect((await admin().delete("/__admin/latency").expect(200)).body).toEqual({ latency: null });
    await admin().put("/__admin/latency").send({ min: 1 }).expect(200);
    await admin().post("/__admin/reset").expect(200);
    expect((await admin().get("/__admin/latency").expect(200)).body).toEqual({ latency: null });
  });

  it("refuses a latency it cannot apply, naming each field, and changes nothing", async () => {
    await admin().put("/__admin/latency").send({ min: 5 }).expect(200);
    const cases: Array<[unknown, string[]]> = [
      [{}, ["/min"]],
      [{ min: -1 }, ["/min"]],
      [{ min: 1.5 }, ["/min"]],
      [{ min: "200" }, ["/min"]],
      [{ min: 70_000 }, ["/min"]],
      [{ min: 10, max: 5 }, ["/max"]],
      [{ min: 1, extra: true }, ["/extra"]],
      [[1, 2], []],
    ];
    for (const [body, pointers] of cases) {
      const refused = await admin()
        .put("/__admin/latency")
        .send(body as object)
        .expect(400);
      expect(refused.body.type).toMatch(/invalid-latency$/);
      expect((refused.body.errors ?? []).map((error: { pointer: string }) => error.pointer)).toEqual(pointers);
    }
    await admin().put("/__admin/latency").set("content-type", "application/json").send("{").expect(400);
    await admin().put("/__admin/latency").set("content-type", "text/plain").send('{"min":1}').expect(415);
    await admin()
      .put("/__admin/latency")
      .set("content-type", "application/json")
      .send(JSON.stringify({ min: 1, pad: "x".repeat(5000) }))
      .expect(413);
    await admin().post("/__admin/latency").set("content-type", "application/json").send({ min: 1 }).expect(405);
    expect((await admin().get("/__admin/latency").expect(200)).body).toEqual({ latency: { min: 5, max: 5 } });
    await admin().delete("/__admin/latency").expect(200);
  });
});

describe("the admin guard in front of the console's routes", () => {
  const guarded = createMockServer({
    fixtures: tinyFixtures(),
    contract: sharedContract(),
    adminToken: "s3cret-admin",
    log: () => {},
  });
  const paths = ["/__admin/journal", "/__admin/journal/1", "/__admin/coverage", "/__admin/latency", "/__admin/events"];

  it("refuses a page of another origin, a host it does not answer to, and a missing token", async () => {
    for (const path of paths) {
      await request(guarded.app)
        .get(path)
        .set("authorization", "Bearer s3cret-admin")
        .set("origin", "http://evil.example")
        .expect(403);
      await request(guarded.app)
        .get(path)
        .set("authorization", "Bearer s3cret-admin")
        .set("host", "evil.example")
        .expect(403);
      await request(guarded.app).get(path).expect(401);
    }
    await request(guarded.app).put("/__admin/latency").send({ min: 1 }).expect(401);
    await request(guarded.app).get("/__admin/journal").set("authorization", "Bearer s3cret-admin").expect(200);
    expect(
      (await request(guarded.app).get("/__admin/latency").set("authorization", "Bearer s3cret-admin").expect(200)).body,
    ).toEqual({ latency: null });
  });

  it("serves the page without the token (it holds no record), under its CSP, but not to another origin", async () => {
    const page = await request(guarded.app).get("/__admin/console").expect(200);
    expect(page.headers["content-type"]).toMatch(/^text\/html/);
    expect(page.headers["content-security-policy"]).toContain("default-src 'none'");
    expect(page.headers["content-security-policy"]).toContain("connect-src 'self'");
    expect(page.text).not.toMatch(/https?:\/\//);
    await request(guarded.app)
      .get("/__admin/console/console.js")
      .expect(200)
      .expect("content-type", /javascript/);
    await request(guarded.app).get("/__admin/console").set("host", "evil.example").expect(403);
    await request(guarded.app).get("/__admin/console").set("origin", "http://evil.example").expect(403);
    await request(guarded.app).get("/__admin/console/nothing.js").expect(404);
    await request(guarded.app).get("/__admin/console/../package.json").expect(404);
    await request(guarded.app).post("/__admin/console").set("content-type", "application/json").send({}).expect(405);
  });

  it("links the console from / and /docs", async () => {
    expect((await request(guarded.app).get("/").expect(200)).body.console).toBe("/__admin/console");
    expect((await request(guarded.app).get("/docs").expect(200)).text).toContain('href="/__admin/console"');
  });
});

it("a harness request of an unknown path has no operation and counts nowhere", async () => {
  await request(mock.app)
    .get(`${PROPERTY}x`)
    .set({ ...DEMO, "content-type": "application/json" })
    .expect(404);
  const [call] = (await admin().get("/__admin/journal").expect(200)).body.calls;
  expect(call).toMatchObject({ operationId: null, status: 404 });
});
