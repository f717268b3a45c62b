/** Agent cards (section 4.2) and their rules (section 7), through HTTP and at the service. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMockServer } from "../../src/hosts/node/create-mock-server.ts";
import { createHarness, sharedContract } from "../support/mock-harness.ts";
import { OTHER, tinyFixtures } from "../support/tiny-fixtures.ts";

const { api } = createHarness();
const agent = (email: string) => ({ agent_first_name: "Luis", agent_last_name: "Ortega", email });

describe("create, retrieve, update, list, delete", () => {
  it("creates an agent that can be retrieved (by POST), listed, updated and deleted", async () => {
    const created = await api("post", "/agent_card/")
      .send({ ...agent("luis@harbor.example"), phone: "(415) 555-0100" })
      .expect(200);
    expect(created.body).toEqual({ nid: expect.stringMatching(/^[0-9]+$/) });
    const { nid } = created.body;

    const retrieved = await api("post", `/agent_card/${nid}`).expect(200);
    expect(retrieved.body).toMatchObject({
      id: nid,
      name: "Luis Ortega",
      email: "luis@harbor.example",
      phone: "(415) 555-0100",
      license: null,
      notes: null,
      social_media_links: [],
    });

    const list = await api("get", "/agent_cards").expect(200);
    expect(list.body).toEqual({
      "1003": { email: "dana@harbor.example", nid: "1003" },
      [nid]: { email: "luis@harbor.example", nid },
    });

    await api("put", `/agent_card/${nid}`)
      .send({ agent_last_name: "Ortega-Ruiz", professional_title: "Broker" })
      .expect(200, { nid });
    expect((await api("post", `/agent_card/${nid}`).expect(200)).body).toMatchObject({
      name: "Luis Ortega-Ruiz",
      professional_title: "Broker",
      phone: "(415) 555-0100",
    });

    await api("delete", `/agent_card/${nid}`).expect(200, [true]);
    await api("post", `/agent_card/${nid}`).expect(404);
    await api("delete", `/agent_card/${nid}`).expect(404);
    expect(Object.keys((await api("get", "/agent_cards").expect(200)).body)).toEqual(["1003"]);
  });

  it("orders social links by their weight, negative ones first", async () => {
    const { body } = await api("post", "/agent_card/1003").expect(200);
    expect(body.social_media_links.map((link: { weight: string }) => link.weight)).toEqual(["-2", "5"]);
  });

  it("refuses an agent without the required fields or with a bad email, creating nothing", async () => {
    const { body } = await api("post", "/agent_card/")
      .send({ agent_first_name: "Luis", email: "not-an-email" })
      .expect(400);
    expect(body.errors.map((error: { pointer: string }) => error.pointer).sort()).toEqual([
      "/agent_last_name",
      "/email",
    ]);
    expect(Object.keys((await api("get", "/agent_cards").expect(200)).body)).toEqual(["1003"]);
  });

  it("answers an empty map for an account without agents", async () => {
    const fresh = { "API-KEY": "agents-empty-key", TOKEN: "t" };
    expect((await api("get", "/agent_cards", fresh).expect(200)).body).toEqual({});
  });

  it("does not show or change another account's agent", async () => {
    await api("post", "/agent_card/1003", OTHER).expect(404);
    await api("put", "/agent_card/1003", OTHER).send({ phone: "x" }).expect(404);
    await api("delete", "/agent_card/1003", OTHER).expect(404);
    expect((await api("post", "/agent_card/1003").expect(200)).body.phone).toBe("(415) 555-0142");
  });
});

describe("Agent Already Exists (section 7)", () => {
  it("refuses a second agent with an existing email, whatever its case, with 409 and the named error", async () => {
    const { body, headers } = await api("post", "/agent_card/").send(agent("DANA@Harbor.example")).expect(409);
    expect(headers["content-type"]).toBe("application/problem+json; charset=utf-8");
    expect(body).toEqual({
      type: "https://property-listing.example/problems/agent-already-exists",
      title: "Agent Already Exists",
      status: 409,
      detail: "An agent with the email DANA@Harbor.example already exists.",
      instance: "/api/v1/object/agent_card/",
    });
  });

  it("refuses an update to another agent's email, and accepts the agent's own", async () => {
    const { body } = await api("post", "/agent_card/").send(agent("luis@harbor.example")).expect(200);
    await api("put", `/agent_card/${body.nid}`).send({ email: "dana@harbor.example" }).expect(409);
    await api("put", `/agent_card/${body.nid}`).send({ email: "LUIS@harbor.example" }).expect(200);
  });

  it("frees the email when the agent is deleted", async () => {
    await api("delete", "/agent_card/1003").expect(200);
    await api("post", "/agent_card/").send(agent("dana@harbor.example")).expect(200);
  });

  it("lets another account use the same email", async () => {
    await api("post", "/agent_card/", OTHER).send(agent("dana@harbor.example")).expect(200);
  });
});

describe("Not Enough Agent Seats (section 7 and 8)", () => {
  it("refuses an agent past the account's seats with 402, and a deletion frees a seat", async () => {
    // The demo account of the tiny fixtures has 3 seats and 1 agent.
    const first = await api("post", "/agent_card/").send(agent("a1@harbor.example")).expect(200);
    await api("post", "/agent_card/").send(agent("a2@harbor.example")).expect(200);
    const full = await api("post", "/agent_card/").send(agent("a3@harbor.example")).expect(402);
    expect(full.body).toMatchObject({
      title: "Not Enough Agent Seats",
      status: 402,
      detail: expect.stringContaining("All 3 agent seats"),
    });
    await api("delete", `/agent_card/${first.body.nid}`).expect(200);
    await api("post", "/agent_card/").send(agent("a3@harbor.example")).expect(200);
  });

  it("reports a duplicate email before a full account", async () => {
    await api("post", "/agent_card/").send(agent("b1@harbor.example")).expect(200);
    await api("post", "/agent_card/").send(agent("b2@harbor.example")).expect(200);
    await api("post", "/agent_card/").send(agent("dana@harbor.example")).expect(409);
  });
});

describe("under concurrent requests over real HTTP", () => {
  const mock = createMockServer({
    fixtures: tinyFixtures(),
    validateResponses: true,
    contract: sharedContract(),
    agentSeats: 10,
  });
  let url = "";
  beforeAll(async () => {
    ({ url } = await mock.listen(0));
  });
  afterAll(() => mock.close());

  const create = (credentials: Record<string, string>, email: string) =>
    fetch(`${url}/api/v1/object/agent_card/`, {
      method: "POST",
      headers: { ...credentials, "content-type": "application/json" },
      body: JSON.stringify(agent(email)),
    }).then((response) => response.status);

  it("gives exactly 10 agents for 25 parallel creates on a 10-seat account", async () => {
    const credentials = { "API-KEY": "seats-key", TOKEN: "seats-token" };
    const statuses = await Promise.all(
      Array.from({ length: 25 }, (_, index) => create(credentials, `agent${index}@seats.example`)),
    );
    expect(statuses.filter((status) => status === 200)).toHaveLength(10);
    expect(statuses.filter((status) => status === 402)).toHaveLength(15);
    const list = await fetch(`${url}/api/v1/object/agent_cards`, { headers: credentials }).then(
      (response) => response.json() as Promise<Record<string, unknown>>,
    );
    expect(Object.keys(list)).toHaveLength(10);
  });

  it("gives exactly one agent for 10 parallel creates with one email", async () => {
    const credentials = { "API-KEY": "email-key", TOKEN: "email-token" };
    const statuses = await Promise.all(Array.from({ length: 10 }, () => create(credentials, "same@race.example")));
    expect(statuses.filter((status) => status === 200)).toHaveLength(1);
    expect(statuses.filter((status) => status === 409)).toHaveLength(9);
    expect(mock.violations).toEqual([]);
  });
});
