/**
 * A consumer's usage, recorded in-process (createMockServer's `usage` option): test by test, requests with
 * credentials replaced by roles, answers, the bindings of ids, the start records, and what each answer rests on;
 * the document valid under the published schema, the same bytes twice, bounded, and with no credential's value.
 */
import request from "supertest";
import { describe, expect, it, onTestFinished } from "vitest";
import { setTestNameSource } from "../../src/mock/usage/running-test-name.ts";
import { createMockServer, type MockServerOptions } from "../../src/hosts/node/create-mock-server.ts";
import type { UsageDocument, UsageInteraction } from "../../src/contract/usage/usage-document.ts";
import { sharedContract } from "../support/mock-harness.ts";
import { tinyFixtures } from "../support/tiny-fixtures.ts";
import { expectValidUsage, OTHER_SECRET, SECRET } from "./usage-check.ts";

const API = "/api/v1/object";
const ADDRESS = { street: "1 Main St", city: "Austin", state: "TX", zip: "78701" };

function recordingMock(options: MockServerOptions = {}) {
  return createMockServer({
    fixtures: tinyFixtures(),
    validateResponses: true,
    contract: sharedContract(),
    log: () => {},
    baseUrl: "http://mock.test",
    autologinSecret: "fixed",
    now: () => 1_700_000_000_000,
    usage: { consumer: "web-app" },
    ...options,
  });
}

type Mock = ReturnType<typeof recordingMock>;
const call = (
  mock: Mock,
  method: "get" | "post" | "put" | "delete",
  path: string,
  credentials: Record<string, string> = SECRET,
) =>
  request(mock.app)
    [method](`${API}${path}`)
    .set({ ...credentials, "content-type": "application/json", "x-client": "web 1.0" });

/** A small suite, as a client's tests would run it. */
async function suite(mock: Mock): Promise<void> {
  mock.usage!.beginTest("properties > create, read, list");
  const created = await call(mock, "post", "/property").send(ADDRESS);
  await call(mock, "get", `/property/${created.body.nid}`);
  const account = mock.store.accountByKey(SECRET["API-KEY"])!;
  await call(mock, "get", `/properties/${account.id}`);
  await call(mock, "put", `/property/${created.body.nid}`).send({ city: "Dallas" });

  mock.usage!.beginTest("documents > floorplan of a fixture property");
  await call(mock, "get", "/property/1001", { "API-KEY": "demo-key", TOKEN: "demo-token" });
  await call(mock, "post", "/document/", { "API-KEY": "demo-key", TOKEN: "demo-token" }).send({
    title: "Plan",
    property_reference: 1001,
    file_url: "https://files.example/plan.pdf",
  });

  mock.usage!.beginTest("agents > seats full");
  mock.useState("seats-full");
  await call(mock, "post", "/agent_card/", { "API-KEY": "demo-key", TOKEN: "demo-token" }).send({
    agent_first_name: "Ann",
    agent_last_name: "Lee",
    email: "ann@example.com",
  });
  await request(mock.app).get(`${API}/agent_cards`).set({ "content-type": "application/json" });
  await call(mock, "get", "/agent_cards", { "API-KEY": "demo-key", TOKEN: OTHER_SECRET.TOKEN });
  await call(mock, "get", "/agent_cards", OTHER_SECRET);
}

describe("a recorded suite", () => {
  it("holds each test's interactions in order, with roles, bindings, start records and bases", async () => {
    const mock = recordingMock();
    await suite(mock);
    const usage = mock.usage!.toJSON();
    expectValidUsage(usage);
    expect(usage.consumer).toBe("web-app");
    expect(usage.tests.map((test) => test.name)).toEqual([
      "properties > create, read, list",
      "documents > floorplan of a fixture property",
      "agents > seats full",
    ]);

    const [first, second, third] = usage.tests as [
      UsageDocument["tests"][0],
      UsageDocument["tests"][0],
      UsageDocument["tests"][0],
    ];
    expect(first.start).toEqual({ kind: "named", name: "fixtures" });
    expect(first.interactions.map((interaction) => interaction.operation)).toEqual([
      "createProperty",
      "retrieveProperty",
      "listUserProperties",
      "editProperty",
    ]);
    const [create, read, list] = first.interactions as [UsageInteraction, UsageInteraction, UsageInteraction];
    expect(create.request.account).toBe("primary");
    expect(create.request.headers).toEqual({ "content-type": "application/json", "x-client": "web 1.0" });
    expect(create.request.body).toEqual(ADDRESS);
    expect(create.response).toMatchObject({ status: 200, mediaType: "application/json" });
    expect((create.response.body as { uri: string }).uri).toBe("http://mock.test/autologin/<ACCESS_TOKEN>");
    expect(read.bindings).toEqual([{ at: "/params/nid", from: "answer", interaction: 0, pointer: "/nid" }]);
    expect(read.basis.status).toEqual({ tier: "fact" });
    expect(read.basis.fields["/street"]).toEqual({ tier: "fact" });
    expect(read.basis.fields["/open_houses"]).toMatchObject({ tier: "assumption", ids: ["open-houses-shape"] });
    expect(list.bindings).toEqual([{ at: "/params/uid", from: "account-uid", account: "primary" }]);
    expect(list.basis.fields["/0/published"]).toMatchObject({ tier: "assumption", ids: ["published-flag-values"] });

    // A fixture property the test read by id: kept as the mock held it when the test began.
    const [readFixture, createDocument] = second.interactions as [UsageInteraction, UsageInteraction];
    expect(readFixture.request.account).toBe("other");
    expect(readFixture.bindings).toEqual([
      { at: "/params/nid", from: "start-record", collection: "properties", id: "1001" },
    ]);
    // The reference came from the answer the client had just read.
    expect(createDocument.bindings).toEqual([
      { at: "/body/property_reference", from: "answer", interaction: 0, pointer: "/nid" },
    ]);
    expect(second.records.properties?.["1001"]).toMatchObject({ id: 1001, uid: 1, title: "Craftsman bungalow" });
    expect(Object.keys(second.records)).toEqual(["properties"]);

    // The seats-full test: the state set before its first call is where it starts; its account is "fresh"; the
    // refusal rests on the seat assumption; missing and wrong credentials are said so, without values.
    expect(third.start).toEqual({ kind: "named", name: "seats-full" });
    const [seats, missing, wrong, other] = third.interactions as [
      UsageInteraction,
      UsageInteraction,
      UsageInteraction,
      UsageInteraction,
    ];
    expect(seats.request.account).toBe("fresh");
    expect(seats.response.status).toBe(402);
    expect(seats.basis.status).toMatchObject({ tier: "assumption", ids: ["seat-limit-status"] });
    expect(seats.basis.mediaType).toMatchObject({ tier: "assumption", ids: ["seat-limit-status", "error-body-shape"] });
    expect(seats.basis.fields["/title"]).toMatchObject({ tier: "assumption" });
    expect(missing.request).toMatchObject({ account: null, credentials: "missing" });
    expect(missing.basis.status).toMatchObject({
      tier: "assumption",
      ids: expect.arrayContaining(["unauthorized-status", "agent-document-auth"]),
    });
    expect(wrong.request).toMatchObject({ account: null, credentials: "wrong" });
    expect(other.request.account).toBe("account-3");
    expect(usage.accounts.map((account) => account.role)).toEqual(["primary", "other", "account-3", "fresh"]);
    expect(usage.accounts.find((account) => account.role === "other")).toEqual({
      role: "other",
      uid: "1",
      source: "demo",
    });
    expect(usage.accounts.find((account) => account.role === "primary")?.source).toBe("opened-on-first-use");
  });

  it("never holds a credential's value, in the document or anywhere in its text", async () => {
    const mock = recordingMock();
    await suite(mock);
    // A client that echoes its key in a header and a body field of its own.
    mock.usage!.beginTest("leaky client");
    await call(mock, "post", "/property")
      .set({
        "x-debug": `key=${SECRET["API-KEY"]}`,
        "x-api-key": SECRET["API-KEY"],
        authorization: `Bearer ${SECRET.TOKEN}`,
      })
      .send({ ...ADDRESS, description: `token ${SECRET.TOKEN}` });
    const text = mock.usage!.text();
    for (const value of [...Object.values(SECRET), ...Object.values(OTHER_SECRET), "demo-token", "demo-key"])
      expect(text).not.toContain(value);
    expect(text).not.toMatch(/"(api-key|token|authorization|x-api-key)":/i);
    expectValidUsage(JSON.parse(text));
  });

  it("gives the same bytes for the same suite run twice", async () => {
    const first = recordingMock();
    const second = recordingMock();
    await suite(first);
    await suite(second);
    expect(second.usage!.text()).toBe(first.usage!.text());
  });

  it("records the state a test gave itself as its own, and calls before any test under an unnamed one", async () => {
    // No runner names the tests here (property-listing-kit/vitest, loaded by another file of this worker, would).
    const runner = setTestNameSource(undefined);
    onTestFinished(() => void setTestNameSource(runner));
    const mock = recordingMock();
    await call(mock, "get", "/agent_cards");
    mock.usage!.beginTest("own records");
    mock.useState({
      accounts: [{ id: 5, apiKey: "own-key-123", token: "own-token-123", agentSeats: 1, name: "Own" }],
      properties: [],
      agents: [],
      documents: [],
    });
    await call(mock, "get", "/agent_cards", { "API-KEY": "own-key-123", TOKEN: "own-token-123" });
    const usage = mock.usage!.toJSON();
    expect(usage.tests.map((test) => [test.name, test.start])).toEqual([
      ["(no test named)", { kind: "named", name: "fixtures" }],
      ["own records", { kind: "own" }],
    ]);
    expect(usage.accounts.find((account) => account.role === "other")).toEqual({
      role: "other",
      uid: "5",
      source: "demo",
    });
  });

  it("keeps a start-state record the client reached through a list's answer, bound to it; none it made", async () => {
    const mock = recordingMock();
    const demo = { "API-KEY": "demo-key", TOKEN: "demo-token" };
    mock.usage!.beginTest("opens the first listed");
    const listed = await call(mock, "get", "/properties/1", demo);
    const first = String((listed.body as Array<{ nid: string }>)[0]!.nid);
    await call(mock, "get", `/property/${first}`, demo);
    const created = await call(mock, "post", "/property", demo).send(ADDRESS);
    await call(mock, "get", "/properties/1", demo);
    await call(mock, "get", `/property/${created.body.nid}`, demo);
    const [test] = mock.usage!.toJSON().tests;
    expect(test!.interactions[1]!.bindings).toEqual([
      { at: "/params/nid", from: "answer", interaction: 0, pointer: "/0/nid" },
    ]);
    expect(test!.records.properties?.[first]).toMatchObject({ id: Number(first), uid: 1 });
    expect(Object.keys(test!.records.properties!)).toEqual([first]);
    expect(test!.interactions[4]!.bindings).toEqual([
      { at: "/params/nid", from: "answer", interaction: 2, pointer: "/nid" },
    ]);
  });

  it("leaves out what a test asked the mock to inject, and what matched no operation", async () => {
    const mock = recordingMock();
    mock.usage!.beginTest("faults");
    await call(mock, "get", "/agent_cards").set("Prefer", "code=503");
    await call(mock, "get", "/no-such-thing");
    await call(mock, "get", "/agent_cards");
    expect(mock.usage!.toJSON().tests[0]!.interactions.map((interaction) => interaction.response.status)).toEqual([
      200,
    ]);
  });
});

describe("bounds", () => {
  it("stops a test at its interaction bound and says where", async () => {
    const mock = recordingMock({ usage: { consumer: "web-app", limits: { maxInteractionsPerTest: 3 } } });
    mock.usage!.beginTest("chatty");
    for (let i = 0; i < 5; i += 1) await call(mock, "get", "/agent_cards");
    mock.usage!.beginTest("next");
    await call(mock, "get", "/agent_cards");
    const usage = mock.usage!.toJSON();
    expectValidUsage(usage);
    expect(usage.tests[0]!.interactions).toHaveLength(3);
    expect(usage.tests[0]!.truncated).toBe(true);
    expect(usage.tests[1]!.interactions).toHaveLength(1);
    expect(usage.truncated).toEqual({
      reason: "max-interactions-per-test",
      limit: 3,
      at: { test: "chatty", interaction: 3 },
    });
  });

  it("stops recording at the test bound and at the byte bound", async () => {
    const tests = recordingMock({ usage: { consumer: "web-app", limits: { maxTests: 2 } } });
    for (const name of ["a", "b", "c", "d"]) {
      tests.usage!.beginTest(name);
      await call(tests, "get", "/agent_cards");
    }
    const byTests = tests.usage!.toJSON();
    expectValidUsage(byTests);
    expect(byTests.tests.map((test) => test.name)).toEqual(["a", "b"]);
    expect(byTests.truncated).toEqual({ reason: "max-tests", limit: 2, at: { test: "c" } });

    const bytes = recordingMock({ usage: { consumer: "web-app", limits: { maxBytes: 20_000 } } });
    bytes.usage!.beginTest("big");
    for (let i = 0; i < 50; i += 1)
      await call(bytes, "get", "/property/1001", { "API-KEY": "demo-key", TOKEN: "demo-token" });
    const byBytes = bytes.usage!.toJSON();
    expectValidUsage(byBytes);
    expect(byBytes.truncated).toMatchObject({ reason: "max-bytes", limit: 20_000, at: { test: "big" } });
    expect(bytes.usage!.text().length).toBeLessThan(20_000);
    expect(byBytes.tests[0]!.truncated).toBe(true);
  });
});

describe("POST /__admin/usage/tests", () => {
  it("begins a test by name", async () => {
    const mock = recordingMock();
    const begun = await request(mock.app).post("/__admin/usage/tests").send({ name: "suite > over http" });
    expect(begun.status).toBe(200);
    await call(mock, "get", "/agent_cards");
    expect(mock.usage!.toJSON().tests.map((test) => test.name)).toEqual(["suite > over http"]);
  });

  it.each([
    ["no body", undefined, 400],
    ["broken JSON", "{", 400],
    ["an array", [], 400],
    ["no name", {}, 400],
    ["a name that is not a string", { name: 7 }, 400],
    ["an empty name", { name: "" }, 400],
    ["a name too long", { name: "x".repeat(1001) }, 400],
    ["another field", { name: "a", extra: 1 }, 400],
    ["a body too large", { name: "x".repeat(20_000) }, 413],
  ])("refuses %s with a problem, changing nothing", async (_, body, status) => {
    const mock = recordingMock();
    mock.usage!.beginTest("kept");
    const sent = request(mock.app).post("/__admin/usage/tests").set("content-type", "application/json");
    const answer = await (body === undefined
      ? sent
      : sent.send(typeof body === "string" ? body : JSON.stringify(body)));
    expect(answer.status).toBe(status);
    expect(answer.headers["content-type"]).toMatch(/^application\/problem\+json/);
    expect(mock.usage!.toJSON().tests.map((test) => test.name)).toEqual(["kept"]);
  });

  it("answers 405 to another method, and 409 where usage is not recorded", async () => {
    const mock = recordingMock();
    expect((await request(mock.app).get("/__admin/usage/tests")).status).toBe(405);
    const plain = createMockServer({ fixtures: tinyFixtures(), contract: sharedContract(), log: () => {} });
    const refused = await request(plain.app).post("/__admin/usage/tests").send({ name: "a" });
    expect(refused.status).toBe(409);
    expect(refused.body.detail).toMatch(/--record-usage/);
    expect(plain.usage).toBeUndefined();
  });

  it("stays behind the admin guard", async () => {
    const mock = recordingMock({ adminToken: "admin-secret-1" });
    expect((await request(mock.app).post("/__admin/usage/tests").send({ name: "a" })).status).toBe(401);
    expect(
      (
        await request(mock.app)
          .post("/__admin/usage/tests")
          .set("authorization", "Bearer admin-secret-1")
          .send({ name: "a" })
      ).status,
    ).toBe(200);
  });
});

describe("the usage option", () => {
  it.each([
    [{}],
    [{ consumer: "" }],
    [{ consumer: "a\nb" }],
    [{ consumer: "a", other: 1 }],
    [{ consumer: "a", limits: { maxTests: -1 } }],
  ])("refuses %j with a TypeError", (usage) => {
    expect(() => createMockServer({ contract: sharedContract(), usage: usage as never })).toThrow(TypeError);
  });
  it("refuses a test name that cannot be recorded", () => {
    expect(() => recordingMock().usage!.beginTest("")).toThrow(TypeError);
  });
});

describe("with a service profile played back", () => {
  it("says which answers, media types and fields the profile supplied, by its points", async () => {
    const { PROFILE } = await import("../support/sample-profile.ts");
    const mock = recordingMock({ profile: PROFILE });
    mock.usage!.beginTest("profiled");
    await call(mock, "get", "/property/1001", { "API-KEY": "demo-key", TOKEN: "demo-token" });
    await request(mock.app).get(`${API}/property/1001`).set({ "content-type": "application/json" });
    const usage = mock.usage!.toJSON();
    expectValidUsage(usage);
    expect(usage.profile).toEqual({
      source: "(given as an object)",
      runId: "r1",
      recordedAt: "2026-01-02T03:04:05.000Z",
    });
    const [read, refused] = usage.tests[0]!.interactions as [UsageInteraction, UsageInteraction];
    expect(read.basis.mediaType).toEqual({ tier: "profile", point: "media_type.success" });
    expect(read.basis.fields["/listing_score"]).toEqual({ tier: "profile", point: "extra_fields.property" });
    expect(read.basis.fields["/street"]).toEqual({ tier: "fact" });
    expect(refused.response.status).toBe(403);
    expect(refused.basis.status).toEqual({ tier: "profile", point: "error.unauthorized.missing" });
    expect(refused.basis.fields["/error"]).toEqual({ tier: "profile", point: "error.unauthorized.missing" });
  });
});

describe("tests named by the runner", () => {
  it("give the runner's name up to the name a test gives itself before its first call, and keep it after", async () => {
    let running: string | undefined = "stories > Seats Full";
    const runner = setTestNameSource(() => running);
    onTestFinished(() => void setTestNameSource(runner));
    const mock = recordingMock();
    mock.usage!.beginTest("stories > Seats Full"); // what property-listing-kit/vitest's hook does
    mock.useState("seats-full");
    mock.usage!.beginTest("listing-agentlist--seats-full"); // what a story's own hook does
    await call(mock, "get", "/agent_cards", { "API-KEY": "demo-key", TOKEN: "demo-token" });
    mock.usage!.beginTest("stories > Seats Full, again"); // after a call: a test of its own, the first kept
    await call(mock, "get", "/agent_cards");
    running = "stories > Empty";
    mock.usage!.beginTest("stories > Empty");
    running = undefined;
    mock.usage!.beginTest("named outside a runner"); // no runner: an empty test is kept as it is
    const usage = mock.usage!.toJSON();
    expectValidUsage(usage);
    expect(usage.tests.map((test) => [test.name, test.start, test.interactions.length])).toEqual([
      ["listing-agentlist--seats-full", { kind: "named", name: "seats-full" }, 1],
      ["stories > Seats Full, again", { kind: "named", name: "seats-full" }, 1],
      ["stories > Empty", { kind: "named", name: "seats-full" }, 0],
      ["named outside a runner", { kind: "named", name: "seats-full" }, 0],
    ]);
  });

  it("begin on a recorder's first call under each test the runner names, unless one was begun by name", async () => {
    let running: string | undefined = "suite > first";
    const runner = setTestNameSource(() => running);
    onTestFinished(() => void setTestNameSource(runner));
    const mock = recordingMock();
    await call(mock, "get", "/agent_cards");
    await call(mock, "get", "/agent_cards");
    running = "suite > second";
    mock.useState("seats-full");
    await call(mock, "get", "/agent_cards", { "API-KEY": "demo-key", TOKEN: "demo-token" });
    mock.usage!.beginTest("named by the test itself");
    await call(mock, "get", "/agent_cards");
    running = undefined;
    await call(mock, "get", "/agent_cards");
    const usage = mock.usage!.toJSON();
    expect(usage.tests.map((test) => [test.name, test.start, test.interactions.length])).toEqual([
      ["suite > first", { kind: "named", name: "fixtures" }, 2],
      ["suite > second", { kind: "named", name: "seats-full" }, 1],
      ["named by the test itself", { kind: "named", name: "seats-full" }, 2],
    ]);
  });
});
