/**
 * AgentService without HTTP (section 4.2, and the rules of section 7): the seat limit, an email held by one agent
 * of the account whatever its case, and each account seeing and changing only its own agents.
 */
import { expectNotFoundForOthers } from "../../support/not-found-for-others.ts";
import { describe, expect, it } from "vitest";
import { AgentService, agentDefaults } from "../../../src/mock/services/agent-service.ts";
import { accountsOf, inMemoryStore } from "../../support/in-memory-store.ts";

/** The demo account has 3 seats and one agent (1003, dana@harbor.example); the other account 10 seats and none. */
function setUp(options: ConstructorParameters<typeof AgentService>[1] = {}) {
  const store = inMemoryStore();
  return { store, agents: new AgentService(store, options), ...accountsOf(store) };
}
const card = (email: string) => ({ agent_first_name: "Ada", agent_last_name: "Byron", email });
const nidOf = (outcome: { ok: boolean; value?: { nid: string } }) => Number(outcome.value!.nid);

describe("AgentService.create", () => {
  it("fills the seats an account has, refuses one more with what to do, and frees a seat on removal", () => {
    const { store, agents, demo } = setUp();
    const made = ["a@x.example", "b@x.example"].map((email) => agents.create(demo, card(email)));
    expect(made.map((outcome) => outcome.ok)).toEqual([true, true]);
    const before = store.counts().agents;
    expect(agents.create(demo, card("c@x.example"))).toEqual({
      ok: false,
      failure: {
        problem: "notEnoughAgentSeats",
        detail: "All 3 agent seats of this account are taken; purchase more seats before adding an agent.",
      },
    });
    expect(store.counts().agents).toBe(before);
    expect(agents.remove(demo, nidOf(made[0]!))).toEqual({ ok: true, value: [true] });
    expect(agents.create(demo, card("c@x.example")).ok).toBe(true);
  });

  it.each([
    { case: "the same email", email: "dana@harbor.example" },
    { case: "the email in another case", email: "DANA@Harbor.Example" },
  ])("refuses $case as an agent of the account already has it, before a full account", ({ email }) => {
    const { agents, demo } = setUp();
    agents.create(demo, card("a@x.example"));
    agents.create(demo, card("b@x.example")); // every seat taken: the duplicate is still what is said
    expect(agents.create(demo, card(email))).toEqual({
      ok: false,
      failure: { problem: "agentAlreadyExists", detail: `An agent with the email ${email} already exists.` },
    });
  });

  it("lets another account have an agent with the same email, and frees an email on removal", () => {
    const { agents, demo, other } = setUp();
    expect(agents.create(other, card("dana@harbor.example")).ok).toBe(true);
    expect(agents.remove(demo, 1003).ok).toBe(true);
    expect(agents.create(demo, card("dana@harbor.example")).ok).toBe(true);
  });

  it("stores the defaults for fields the body does not set, and the name from the two names", () => {
    const { store, agents, other } = setUp();
    const nid = nidOf(agents.create(other, card("a@x.example")));
    expect(store.record("agents", nid)).toEqual({
      id: nid,
      uid: other.id,
      name: "Ada Byron",
      ...card("a@x.example"),
      ...agentDefaults(nid),
    });
  });

  it("stores what a service profile says for fields never set, instead of the defaults", () => {
    const { store, agents, other } = setUp({ neverSet: { phone: null, website: "", social_media_links: [] } });
    const nid = nidOf(agents.create(other, card("a@x.example")));
    expect(store.record("agents", nid)).toEqual(
      expect.objectContaining({ phone: null, website: "", social_media_links: [], company: "" }),
    );
  });
});

describe("AgentService.update", () => {
  it("refuses an email another agent of the account holds, in any case; an agent may keep its own", () => {
    const { agents, demo } = setUp();
    const nid = nidOf(agents.create(demo, card("a@x.example")));
    expect(agents.update(demo, nid, { email: "Dana@harbor.example" })).toEqual({
      ok: false,
      failure: { problem: "agentAlreadyExists", detail: "An agent with the email Dana@harbor.example already exists." },
    });
    expect(agents.update(demo, nid, { email: "A@x.example" })).toEqual({ ok: true, value: { nid: String(nid) } });
  });

  it.each([
    { body: { agent_first_name: "Grace" }, name: "Grace Whitfield" },
    { body: { agent_last_name: "Hopper" }, name: "Dana Hopper" },
    { body: { agent_first_name: "Grace", name: "Card name" }, name: "Card name" },
    { body: { phone: "1" }, name: "Dana Whitfield" },
  ])("renames the card when a name changes without a name given: $body", ({ body, name }) => {
    const { store, agents, demo } = setUp();
    expect(agents.update(demo, 1003, body).ok).toBe(true);
    expect(store.record("agents", 1003)!.name).toBe(name);
  });
});

describe("an agent of another account, or of none", () => {
  const calls = {
    retrieve: (agents: AgentService, account: Parameters<AgentService["retrieve"]>[0], nid: number) =>
      agents.retrieve(account, nid),
    update: (agents: AgentService, account: Parameters<AgentService["retrieve"]>[0], nid: number) =>
      agents.update(account, nid, { phone: "0" }),
    remove: (agents: AgentService, account: Parameters<AgentService["retrieve"]>[0], nid: number) =>
      agents.remove(account, nid),
  };

  it.each(Object.keys(calls) as Array<keyof typeof calls>)(
    "%s: not found, told apart as foreign when it exists, and left as it was",
    (name) => {
      const { store, agents, other } = setUp();
      expectNotFoundForOthers({
        store,
        collection: "agents",
        noun: "agent card",
        call: (nid) => calls[name](agents, other, nid),
        foreign: 1003,
        otherKind: 1001,
      });
    },
  );

  it("list: each account lists its own agents only, keyed by nid", () => {
    const { agents, demo, other } = setUp();
    const nid = nidOf(agents.create(other, card("a@x.example")));
    expect(agents.list(demo)).toEqual({ ok: true, value: { "1003": { email: "dana@harbor.example", nid: "1003" } } });
    expect(agents.list(other)).toEqual({
      ok: true,
      value: { [String(nid)]: { email: "a@x.example", nid: String(nid) } },
    });
  });
});
