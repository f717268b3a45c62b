import { join } from "node:path";
import request from "supertest";
import { afterEach, describe, expect, it } from "vitest";
import { createMockServer, StateRefused, type MockServer } from "../../src/hosts/node/create-mock-server.ts";
import { MANY_PROPERTIES } from "../../src/mock/store/named-states.ts";
import { sharedContract } from "../support/mock-harness.ts";
import { scratchFolder } from "../support/scratch-folder.ts";

const DEMO = { "API-KEY": "demo-key", TOKEN: "demo-token", "content-type": "application/json" };
const BROKER = { "API-KEY": "broker-key", TOKEN: "broker-token", "content-type": "application/json" };
const agent = (email: string) => ({ agent_first_name: "Luis", agent_last_name: "Ortega", email });

const mocks: MockServer[] = [];
function newMock(options: Parameters<typeof createMockServer>[0] = {}): MockServer {
  const mock = createMockServer({ contract: sharedContract(), validateResponses: true, ...options });
  mocks.push(mock);
  return mock;
}
afterEach(async () => {
  for (const mock of mocks.splice(0)) {
    expect(mock.violations, "the mock answered something the contract does not allow").toEqual([]);
    await mock.close();
  }
});

const api = (mock: MockServer, method: "get" | "post", path: string, headers = DEMO) =>
  request(mock.app)[method](`/api/v1/object${path}`).set(headers);
const useState = (mock: MockServer, state: unknown) => request(mock.app).post("/__admin/state").send({ state });

describe("the shipped states", () => {
  it("seats-full: the demo account's next agent card answers 402, until a reset brings the fixtures back", async () => {
    const mock = newMock();
    const before = (await api(mock, "get", "/agent_cards").expect(200)).body;
    const { body } = await useState(mock, "seats-full").expect(200);
    expect(body).toMatchObject({ status: "state", state: "seats-full" });
    const cards = Object.keys((await api(mock, "get", "/agent_cards").expect(200)).body);
    expect(cards).toHaveLength(10); // the demo account's seats
    expect((await api(mock, "post", "/agent_card/").send(agent("new@harbor.example")).expect(402)).body.title).toBe(
      "Not Enough Agent Seats",
    );
    // another account has seats
    await api(mock, "post", "/agent_card/", BROKER).send(agent("new@harbor.example")).expect(200);
    for (const nid of cards) await api(mock, "post", `/agent_card/${nid}`).expect(200); // endpoint 6 retrieves by POST
    await request(mock.app).post("/__admin/reset").expect(200);
    expect((await api(mock, "get", "/agent_cards").expect(200)).body).toEqual(before);
    await api(mock, "post", "/agent_card/").send(agent("new@harbor.example")).expect(200);
  });

  it("empty-account: the demo account holds nothing, its neighbour keeps its records", async () => {
    const mock = newMock();
    await useState(mock, "empty-account").expect(200);
    expect((await api(mock, "get", "/properties/1").expect(200)).body).toEqual([]);
    expect((await api(mock, "get", "/agent_cards").expect(200)).body).toEqual({});
    expect((await api(mock, "get", "/properties/2", BROKER).expect(200)).body).toHaveLength(6);
    const created = (
      await api(mock, "post", "/property")
        .send({ street: "1 Main St", city: "Austin", state: "TX", zip: "78701" })
        .expect(200)
    ).body;
    expect((await api(mock, "get", "/properties/1").expect(200)).body).toEqual([
      expect.objectContaining({ nid: created.nid }),
    ]);
  });

  it(`many-properties: the demo account has ${MANY_PROPERTIES} properties, retrievable and distinct`, async () => {
    const mock = newMock();
    await useState(mock, "many-properties").expect(200);
    const list = (await api(mock, "get", "/properties/1").expect(200)).body as Array<{ nid: string }>;
    expect(list).toHaveLength(MANY_PROPERTIES);
    const properties = mock.store.state.properties.filter((property) => property.uid === 1);
    expect(new Set(properties.map((property) => property.subdomain)).size).toBe(MANY_PROPERTIES);
    const external = properties.map((property) => property.external_id).filter((id) => id);
    expect(new Set(external).size).toBe(external.length);
    for (const { nid } of [list[0]!, list[500]!, list.at(-1)!]) await api(mock, "get", `/property/${nid}`).expect(200);
    // The nid sequence goes on after the state's highest nid.
    const created = (
      await api(mock, "post", "/property")
        .send({ street: "1 Main St", city: "Austin", state: "TX", zip: "78701" })
        .expect(200)
    ).body;
    expect(Number(created.nid)).toBeGreaterThan(
      Math.max(
        ...mock.store.state.properties
          .filter((property) => String(property.id) !== created.nid)
          .map((property) => property.id),
      ),
    );
  });

  it("are listed by GET /__admin/state, with the one in use", async () => {
    const mock = newMock();
    const { body } = await request(mock.app).get("/__admin/state").expect(200);
    expect(body.current).toBe("fixtures");
    expect(body.states.map((state: { name: string }) => state.name)).toEqual([
      "fixtures",
      "empty-account",
      "seats-full",
      "many-properties",
    ]);
    await useState(mock, "seats-full").expect(200);
    expect((await request(mock.app).get("/__admin/state")).body.current).toBe("seats-full");
  });
});

describe("a state of one's own", () => {
  it("is what GET /__db/db answers: set up through the API, saved, and loaded again in another mock", async () => {
    const first = newMock();
    await useState(first, "empty-account").expect(200);
    await api(first, "post", "/property")
      .send({ street: "9 Elm St", city: "Austin", state: "TX", zip: "78701" })
      .expect(200);
    await api(first, "post", "/agent_card/").send(agent("only@harbor.example")).expect(200);
    const saved = (await request(first.app).get("/__db/db").expect(200)).body;

    const second = newMock();
    await useState(second, saved).expect(200);
    expect((await request(second.app).get("/__db/db")).body).toEqual(saved);
    expect((await api(second, "get", "/properties/1").expect(200)).body).toEqual(
      (await api(first, "get", "/properties/1").expect(200)).body,
    );
  });

  it.each([
    ["an unknown name", "seats-ful", undefined, "No state is named"],
    ["not an object", [1, 2], "/state", "must be an object"],
    ["an unknown collection", { accounts: [], users: [] }, "/state/users", "is not a collection"],
    ["a collection that is not an array", { properties: {} }, "/state/properties", "must be an array"],
    [
      "a record of the wrong shape",
      { accounts: [{ id: 1, apiKey: "k", token: "t", agentSeats: "ten", name: "A" }] },
      "/state/accounts/0/agentSeats",
      "",
    ],
    [
      "two accounts with one id",
      {
        accounts: [
          { id: 1, apiKey: "a", token: "t", agentSeats: 1, name: "A" },
          { id: 1, apiKey: "b", token: "t", agentSeats: 1, name: "B" },
        ],
      },
      "/state/accounts/1/id",
      "is taken",
    ],
    [
      "two accounts with one API key",
      {
        accounts: [
          { id: 1, apiKey: "a", token: "t", agentSeats: 1, name: "A" },
          { id: 2, apiKey: "a", token: "t", agentSeats: 1, name: "B" },
        ],
      },
      "/state/accounts/1/apiKey",
      "is taken",
    ],
  ])(
    "is refused with a 400 naming the place when it is %s, and nothing changes",
    async (_name, state, pointer, detail) => {
      const mock = newMock();
      const before = (await request(mock.app).get("/__db/db")).body;
      await request(mock.app)
        .post("/__admin/faults")
        .send({ path: "/api/v1/object/property", status: 503 })
        .expect(201);
      const { body } = await useState(mock, state).expect(400);
      expect(body).toMatchObject({ title: "Invalid State", status: 400 });
      if (pointer) expect(body.errors).toContainEqual({ in: "body", pointer, detail: expect.stringContaining(detail) });
      else expect(body.detail).toContain(detail);
      expect((await request(mock.app).get("/__db/db")).body).toEqual(before);
      expect(mock.faults.list()).toHaveLength(1);
    },
  );

  it("is refused when a property and an agent card share a nid (one sequence of nids), naming the second", async () => {
    const mock = newMock();
    const records = (await request(mock.app).get("/__db/db")).body;
    const [property] = records.properties;
    const [agent] = records.agents;
    const state = { accounts: records.accounts, properties: [property], agents: [{ ...agent, id: property.id }] };
    const { body } = await useState(mock, state).expect(400);
    expect(body.errors).toEqual([
      { in: "body", pointer: "/state/agents/0/id", detail: expect.stringContaining("nids are one sequence") },
    ]);
  });

  it('refuses a body that is not {"state": ...}, and a form, without changing anything', async () => {
    const mock = newMock();
    await request(mock.app).post("/__admin/state").send({ name: "seats-full" }).expect(400);
    await request(mock.app).post("/__admin/state").send({ state: "seats-full", also: 1 }).expect(400);
    await request(mock.app).post("/__admin/state").set("content-type", "application/json").send("{").expect(400);
    await request(mock.app).post("/__admin/state").type("form").send({ state: "seats-full" }).expect(415);
    await request(mock.app).delete("/__admin/state").expect(405);
    expect((await request(mock.app).get("/__admin/state")).body.current).toBe("fixtures");
  });
});

describe("in the library", () => {
  it("useState resets to a state: records, fault rules and the journal; reset() goes back to the start", async () => {
    const mock = newMock({ state: "empty-account" });
    expect(mock.store.counts()).toMatchObject({ agents: 3 }); // the second account's
    mock.faults.add({ path: "/api/v1/object/agent_card/", status: 503 });
    await api(mock, "get", "/agent_cards").expect(200);
    mock.useState("seats-full");
    expect(mock.faults.list()).toEqual([]);
    expect(mock.requests()).toEqual([]);
    await api(mock, "post", "/agent_card/").send(agent("x@harbor.example")).expect(402);
    mock.reset();
    expect(mock.store.counts()).toMatchObject({ agents: 3 });
    expect(() => mock.useState({ properties: "none" })).toThrow(StateRefused);
    expect(() => mock.useState("nope")).toThrow(
      /No state is named "nope"; the shipped states are fixtures, empty-account, seats-full, many-properties/,
    );
    expect(mock.store.counts()).toMatchObject({ agents: 3 });
  });

  it("with configured accounts, a shipped state is made for the first (seats-full fills its own seats)", async () => {
    const mock = newMock({ accounts: [{ apiKey: "ci-key", token: "ci-token", agentSeats: 3 }], state: "seats-full" });
    const ci = { ...DEMO, "API-KEY": "ci-key", TOKEN: "ci-token" };
    expect(Object.keys((await api(mock, "get", "/agent_cards", ci).expect(200)).body)).toHaveLength(3);
    await api(mock, "post", "/agent_card/", ci).send(agent("x@harbor.example")).expect(402);
    mock.useState("seats-full");
    await api(mock, "post", "/agent_card/", ci).send(agent("x@harbor.example")).expect(402);
  });

  it("refuses a start state that is not right, before anything starts", () => {
    expect(() => createMockServer({ contract: sharedContract(), state: { accounts: [{ id: 0 }] } })).toThrow(
      StateRefused,
    );
  });

  it("with --db, a state loaded during a run is what a restart reads back", async () => {
    const db = join(scratchFolder("plk-state-"), "db.json");
    const first = newMock({ db });
    const answer = await useState(first, "seats-full").expect(200);
    expect(answer.body.counts.agents).toBe(13);
    const records = structuredClone(first.store.state);
    await first.close();
    const second = newMock({ db });
    expect(second.store.state).toEqual(records);
  });
});
