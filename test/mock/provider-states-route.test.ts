/**
 * `POST /__admin/provider-states`: Pact's state change call, as its verifier sends it (`{ state, params, action }`),
 * behind the admin guard. A set-up makes the records through the services and answers their ids by key; a
 * teardown puts the seeded state back; anything hostile is a 4xx problem and changes nothing. In the Node host
 * (port-less) and in MSW's handlers, which share the host-neutral core.
 */
import { setupServer } from "msw/node";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PROVIDER_STATES } from "../../src/contract/usage/provider-state-names.ts";
import { createMockHandlers } from "../../src/msw.ts";
import { createHarness } from "../support/mock-harness.ts";

const PATH = "/__admin/provider-states";
const { mock, api } = createHarness();
const setUp = (state: string, params: object) =>
  request(mock.app).post(PATH).set("content-type", "application/json").send({ state, params, action: "setup" });
const tearDown = (state: string) =>
  request(mock.app).post(PATH).set("content-type", "application/json").send({ state, params: {}, action: "teardown" });

describe("POST /__admin/provider-states", () => {
  it("makes a property from its fields and answers its nid under the key; a teardown puts the seed back", async () => {
    const before = mock.store.counts();
    const made = await setUp(PROVIDER_STATES.property, {
      key: "home",
      account: "primary",
      fields: {
        street: "9 Quay Lane",
        city: "Bath",
        state: "ME",
        zip: "04530",
        title: "Quay cottage",
        square_feet: "900",
      },
    });
    expect(made.status).toBe(200);
    expect(made.body).toEqual({ home: expect.stringMatching(/^[0-9]+$/) });
    const retrieved = await api("get", `/property/${made.body.home}`);
    expect(retrieved.status).toBe(200);
    expect(retrieved.body).toMatchObject({ street: "9 Quay Lane", title: "Quay cottage", square_feet: "900" });

    expect((await tearDown(PROVIDER_STATES.property)).body).toEqual({});
    expect(mock.store.counts()).toEqual(before);
    expect((await api("get", `/property/${made.body.home}`)).status).toBe(404);
  });

  it("leaves out a field the service would refuse rather than refusing the state", async () => {
    const made = await setUp(PROVIDER_STATES.property, {
      key: "p",
      fields: { street: "1 Elm St", city: "Salem", state: "Massachusetts", zip: "01970", garage: "Carport" },
    });
    expect(made.status).toBe(200);
    expect((await api("get", `/property/${made.body.p}`)).body.street).toBe("1 Elm St");
  });

  it("gives services only what the contract takes: a required field of the wrong type gets its default", async () => {
    const made = await setUp(PROVIDER_STATES.agent, {
      key: "a",
      fields: { email: 42, agent_first_name: ["Ada"], agent_last_name: "Byron", phone: { n: 1 } },
    });
    expect(made.status).toBe(200);
    const card = await api("post", `/agent_card/${made.body.a}`);
    expect(card.status).toBe(200);
    expect(card.body).toMatchObject({
      email: expect.stringMatching(/@agents\.example\.com$/),
      agent_first_name: "Provider",
      agent_last_name: "Byron",
      phone: expect.any(String),
    });
  });

  it("answers the account's uid, a document with its property, and reuses an agent card of that email", async () => {
    expect((await setUp(PROVIDER_STATES.accountUid, { key: "uid_primary", account: "primary" })).body).toEqual({
      uid_primary: "1",
    });
    const document = await setUp(PROVIDER_STATES.document, {
      key: "plan",
      fields: { title: "Loft", file_url: "https://files.example.com/loft.pdf", is_floorplan: true },
      property: { street: "2 Mill Rd", city: "Derby", state: "CT", zip: "06418" },
    });
    expect(document.status).toBe(200);
    const retrieved = await api("get", `/document/${document.body.plan}`);
    expect(retrieved.body).toMatchObject({
      title: "Loft",
      property_reference: Number(document.body.plan_property),
      is_floorplan: true,
    });

    const agent = {
      key: "a",
      fields: { agent_first_name: "Ada", agent_last_name: "Byron", email: "ada@agents.example.com" },
    };
    const first = await setUp(PROVIDER_STATES.agent, agent);
    const again = await setUp(PROVIDER_STATES.agent, agent);
    expect(first.status).toBe(200);
    expect(again.body).toEqual(first.body);
  });

  it("fills the account's seats, so that creating an agent card is refused 402", async () => {
    expect((await setUp(PROVIDER_STATES.seatsFull, { account: "primary" })).body).toEqual({});
    const refused = await api("post", "/agent_card/").send({
      agent_first_name: "N",
      agent_last_name: "O",
      email: "no.seat@agents.example.com",
    });
    expect(refused.status).toBe(402);
  });

  it("answers an interaction without a state (an empty name) with nothing made", async () => {
    const before = mock.store.counts();
    const answered = await request(mock.app)
      .post(PATH)
      .set("content-type", "application/json")
      .send({ state: "", params: {}, action: "setup" });
    expect(answered.status).toBe(200);
    expect(answered.body).toEqual({});
    expect(mock.store.counts()).toEqual(before);
  });

  it.each([
    [
      "an unknown state",
      { state: "the moon is full", params: {}, action: "setup" },
      /"the moon is full" is not a provider state this mock sets up/,
    ],
    [
      "a key that is no identifier",
      { state: PROVIDER_STATES.property, params: { key: "a}b", fields: {} } },
      /params\/key/,
    ],
    [
      "a role that is no role",
      { state: PROVIDER_STATES.property, params: { key: "k", account: { $gt: "" } } },
      /params\/account/,
    ],
    [
      "fields that are no object",
      { state: PROVIDER_STATES.property, params: { key: "k", fields: ["street"] } },
      /params\/fields/,
    ],
    [
      "too many fields",
      {
        state: PROVIDER_STATES.property,
        params: { key: "k", fields: Object.fromEntries(Array.from({ length: 201 }, (_, n) => [`f${n}`, "x"])) },
      },
      /params\/fields/,
    ],
    [
      "another action",
      { state: PROVIDER_STATES.property, params: {}, action: "destroy" },
      /This is not a provider state/,
    ],
    [
      "fields beyond state, params, action",
      { state: PROVIDER_STATES.property, params: {}, __proto__x: 1 },
      /This is not a provider state/,
    ],
    ["params that are no object", { state: PROVIDER_STATES.property, params: "key=k" }, /This is not a provider state/],
    ["an array", [{ state: PROVIDER_STATES.property }], /must be an object/],
  ])("refuses %s with 400 invalid-provider-state, changing nothing", async (_name, body, detail) => {
    const before = mock.store.counts();
    const refused = await request(mock.app).post(PATH).set("content-type", "application/json").send(body);
    expect(refused.status).toBe(400);
    expect(refused.headers["content-type"]).toMatch(/^application\/problem\+json/);
    expect(refused.body.type).toMatch(/invalid-provider-state$/);
    expect(`${refused.body.detail} ${JSON.stringify(refused.body.errors ?? [])}`).toMatch(detail);
    expect(mock.store.counts()).toEqual(before);
  });

  it("refuses what is not JSON, a body past the limit, another method, a foreign page and a form post", async () => {
    const before = mock.store.counts();
    expect((await request(mock.app).post(PATH).set("content-type", "application/json").send("{not json")).status).toBe(
      400,
    );
    expect(
      (
        await request(mock.app)
          .post(PATH)
          .set("content-type", "application/json")
          .send(JSON.stringify({ state: "x", params: { pad: "y".repeat(70_000) } }))
      ).status,
    ).toBe(413);
    const get = await request(mock.app).get(PATH);
    expect(get.status).toBe(405);
    expect(get.headers.allow).toBe("POST");
    expect(
      (
        await request(mock.app)
          .post(PATH)
          .set({ "content-type": "application/json", origin: "http://evil.example" })
          .send({ state: PROVIDER_STATES.seatsFull })
      ).status,
    ).toBe(403);
    expect(
      (
        await request(mock.app)
          .post(PATH)
          .set("content-type", "text/plain")
          .send(JSON.stringify({ state: PROVIDER_STATES.seatsFull }))
      ).status,
    ).toBe(415);
    expect(mock.store.counts()).toEqual(before);
  });
});

describe("POST /__admin/provider-states in MSW's handlers", () => {
  const C = "http://states.mock.test";
  const handlers = createMockHandlers({ baseUrl: C });
  const server = setupServer(...handlers.handlers);
  beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
  afterAll(() => server.close());

  it("sets a state up and tears it down as the Node host does", async () => {
    const post = (body: object) =>
      fetch(`${C}${PATH}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    const made = await post({
      state: PROVIDER_STATES.property,
      params: { key: "p", fields: { street: "4 Dock St", city: "Mystic", state: "CT", zip: "06355" } },
      action: "setup",
    });
    expect(made.status).toBe(200);
    const { p } = (await made.json()) as { p: string };
    const headers = { "API-KEY": "demo-key", TOKEN: "demo-token", "content-type": "application/json" };
    expect((await fetch(`${C}/api/v1/object/property/${p}`, { headers })).status).toBe(200);
    expect((await post({ state: PROVIDER_STATES.property, params: {}, action: "teardown" })).status).toBe(200);
    expect((await fetch(`${C}/api/v1/object/property/${p}`, { headers })).status).toBe(404);
    expect((await post({ state: "no such state", params: {} })).status).toBe(400);
  });
});
