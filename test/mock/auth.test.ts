/** Authentication (section 5) and the separation of accounts. */
import request from "supertest";
import { describe, expect, it } from "vitest";
import { createMockServer } from "../../src/hosts/node/create-mock-server.ts";
import { createHarness, sharedContract } from "../support/mock-harness.ts";
import { operationRequests } from "../support/operation-requests.ts";
import { DEMO, OTHER, tinyFixtures } from "../support/tiny-fixtures.ts";

const { mock, api } = createHarness();
const operations = operationRequests();
const send = (operation: (typeof operations)[number], headers: Record<string, string>) =>
  request(mock.app)
    [operation.method](`/api/v1/object${operation.path}`)
    .set(headers)
    .send(operation.body as object);

describe("every operation requires API-KEY and TOKEN", () => {
  it("covers the fifteen operations", () => {
    expect(operations).toHaveLength(15);
  });

  it.each(operations.map((operation) => [operation.operationId, operation] as const))(
    "%s succeeds with the demo credentials",
    async (_id, operation) => {
      await send(operation, { ...DEMO, "content-type": "application/json" }).expect(200);
    },
  );

  const broken = [
    ["no headers", { "content-type": "application/json" }, "The API-KEY header is missing."],
    ["no TOKEN", { "API-KEY": "demo-key", "content-type": "application/json" }, "The TOKEN header is missing."],
    ["no API-KEY", { TOKEN: "demo-token", "content-type": "application/json" }, "The API-KEY header is missing."],
    [
      "a TOKEN of another key",
      { "API-KEY": "demo-key", TOKEN: "other-token", "content-type": "application/json" },
      "The TOKEN does not belong to this API-KEY.",
    ],
    [
      "an empty API-KEY",
      { "API-KEY": "", TOKEN: "demo-token", "content-type": "application/json" },
      "The API-KEY header is missing.",
    ],
  ] as const;

  it.each(
    operations.flatMap((operation) =>
      broken.map(([label, headers, detail]) => [operation.operationId, label, operation, headers, detail] as const),
    ),
  )("%s with %s answers 401", async (_id, _label, operation, headers, detail) => {
    const { body, headers: responseHeaders } = await send(operation, headers).expect(401);
    expect(responseHeaders["content-type"]).toBe("application/problem+json; charset=utf-8");
    expect(body).toMatchObject({
      type: "https://property-listing.example/problems/unauthorized",
      title: "Unauthorized",
      status: 401,
      detail,
    });
  });

  it("answers 401 before looking at the body or the path", async () => {
    await request(mock.app)
      .post("/api/v1/object/property")
      .set("content-type", "application/json")
      .send("{not json")
      .expect(401);
    await request(mock.app).get("/api/v1/object/property/abc").expect(401);
    await request(mock.app)
      .post("/api/v1/object/property")
      .set({ "API-KEY": "demo-key", TOKEN: "x" })
      .send({ garage: "attached" })
      .expect(401);
  });
});

describe("accounts opened on first use", () => {
  const fresh = { "API-KEY": "suite-a", TOKEN: "token-a" };

  it("opens an empty account with its own uid for a new key", async () => {
    expect((await api("get", "/agent_cards", fresh).expect(200)).body).toEqual({});
    const { body } = await api("post", "/property", fresh)
      .send({ street: "1 A St", city: "Reno", state: "NV", zip: "89501" })
      .expect(200);
    const { body: property } = await api("get", `/property/${body.nid}`, fresh).expect(200);
    expect(Number(property.uid)).toBeGreaterThan(2);
    expect((await api("get", `/properties/${property.uid}`, fresh).expect(200)).body).toHaveLength(1);
  });

  it("binds the key to its first token", async () => {
    await api("get", "/agent_cards", fresh).expect(200);
    await api("get", "/agent_cards", { "API-KEY": "suite-a", TOKEN: "another" }).expect(401);
  });

  it("keeps accounts apart: no account sees or changes another's records", async () => {
    const { body } = await api("post", "/property", fresh)
      .send({ street: "1 A St", city: "Reno", state: "NV", zip: "89501" })
      .expect(200);
    await api("get", `/property/${body.nid}`).expect(404);
    await api("put", `/property/${body.nid}`).send({ city: "Elko" }).expect(404);
    await api("get", "/property/1001", fresh).expect(404);
    await api("get", "/property/1002").expect(404);
    await api("get", "/property/1002", OTHER).expect(200);
    expect((await api("get", `/property/${body.nid}`, fresh).expect(200)).body.city).toBe("Reno");
  });

  it("gives a new account the default number of seats", async () => {
    const small = createMockServer({ fixtures: tinyFixtures(), contract: sharedContract(), agentSeats: 1 });
    const headers = { "API-KEY": "seat-key", TOKEN: "t", "content-type": "application/json" };
    const create = (email: string) =>
      request(small.app)
        .post("/api/v1/object/agent_card/")
        .set(headers)
        .send({ agent_first_name: "A", agent_last_name: "B", email });
    await create("a@b.example").expect(200);
    await create("c@d.example").expect(402);
  });
});

describe("configured accounts only", () => {
  const closed = createMockServer({
    fixtures: tinyFixtures(),
    contract: sharedContract(),
    accounts: [{ apiKey: "ci-key", token: "ci-token", uid: 1, agentSeats: 2 }],
  });
  const get = (headers: Record<string, string>) =>
    request(closed.app)
      .get("/api/v1/object/properties/1")
      .set({ ...headers, "content-type": "application/json" });

  it("admits a configured account, with the data of its uid", async () => {
    expect((await get({ "API-KEY": "ci-key", TOKEN: "ci-token" }).expect(200)).body).toHaveLength(1);
  });

  it("refuses any other key, the seeded ones included, and opens no account", async () => {
    const { body } = await get({ "API-KEY": "new-key", TOKEN: "t" }).expect(401);
    expect(body.detail).toBe("The API-KEY is not known to this service.");
    await get(DEMO).expect(401);
    expect(closed.store.counts().accounts).toBe(1);
  });
});

describe("accounts opened on first use are bounded", () => {
  it("opens none past --max-accounts, answering a new key 401 saying why, while known keys keep working", async () => {
    const bounded = createMockServer({
      fixtures: tinyFixtures(),
      contract: sharedContract(),
      validateResponses: true,
      maxAccounts: 4,
    });
    const call = (key: string, token = "t") =>
      request(bounded.app)
        .get("/api/v1/object/template_base")
        .set({ "API-KEY": key, TOKEN: token, "content-type": "application/json" });
    await call("new-1").expect(200);
    await call("new-2").expect(200); // the 2 seeded accounts and these 2 make 4
    const { body } = await call("new-3").expect(401);
    expect(body.detail).toBe(
      "The API-KEY is new, and this mock already holds 4 accounts, its limit for accounts opened on first " +
        "use (--max-accounts). Use a known key, reset the mock, or start it with a higher --max-accounts.",
    );
    expect(bounded.store.counts().accounts).toBe(4);
    await call("new-1").expect(200);
    await call("demo-key", "demo-token").expect(200);
    expect(bounded.violations).toEqual([]);
  });

  it("defaults to 10,000", async () => {
    const many = tinyFixtures();
    for (let uid = 3; uid <= 10_000; uid += 1)
      many.accounts.push({ id: uid, apiKey: `key-${uid}`, token: "t", agentSeats: 0, name: "Seeded" });
    const full = createMockServer({ fixtures: many, contract: sharedContract() });
    await request(full.app)
      .get("/api/v1/object/template_base")
      .set({ "API-KEY": "one-more", TOKEN: "t", "content-type": "application/json" })
      .expect(401);
    full.store.removeRaw("accounts", full.store.record("accounts", 10_000)!);
    await request(full.app)
      .get("/api/v1/object/template_base")
      .set({ "API-KEY": "one-more", TOKEN: "t", "content-type": "application/json" })
      .expect(200);
  });
});
