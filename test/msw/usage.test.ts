/**
 * A consumer's usage recorded by the MSW handlers in Node (`usage: { consumer }`), with each test begun by
 * `property-listing-kit/vitest` under vitest's name for it (`suite > test`), before the test's own hooks.
 */
import { setupServer } from "msw/node";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import "../../src/vitest.ts";
import { createMockHandlers } from "../../src/msw.ts";
import { expectValidUsage, SECRET } from "../usage/usage-check.ts";

const BASE = "http://usage.mock.test";
const mock = createMockHandlers({ baseUrl: BASE, autologinSecret: "s", usage: { consumer: "spa" } });
const plain = createMockHandlers({ baseUrl: "http://plain.mock.test" });
const server = setupServer(...mock.handlers, ...plain.handlers);
const headers = { ...SECRET, "content-type": "application/json" };

beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterAll(() => server.close());

describe("recorded through MSW", () => {
  describe("seats", () => {
    // The test's own hook runs after the kit's: the state it sets is where the test starts.
    beforeEach(() => mock.useState("seats-full"));
    it("a full account is refused a new agent", async () => {
      const answer = await fetch(`${BASE}/api/v1/object/agent_card/`, {
        method: "POST",
        headers: { "API-KEY": "demo-key", TOKEN: "demo-token", "content-type": "application/json" },
        body: JSON.stringify({ agent_first_name: "A", agent_last_name: "B", email: "a@b.example" }),
      });
      expect(answer.status).toBe(402);
    });
  });

  it("creates and reads a property", async () => {
    mock.reset();
    const created = (await (
      await fetch(`${BASE}/api/v1/object/property`, {
        method: "POST",
        headers,
        body: JSON.stringify({ street: "1 Main St", city: "Austin", state: "TX", zip: "78701" }),
      })
    ).json()) as { nid: string };
    expect((await fetch(`${BASE}/api/v1/object/property/${created.nid}`, { headers })).status).toBe(200);
  });

  it("holds every test so far under vitest's names, valid and without credentials", async () => {
    const usage = mock.usage!.toJSON();
    expectValidUsage(usage);
    // This test has sent nothing yet: it is there when the kit's hook began it, and not when the mocks name a test
    // on its first call (the kit's module loaded by an earlier file of this worker, whose hooks ran there).
    expect(usage.tests.map((test) => test.name).filter((name) => name !== expect.getState().currentTestName)).toEqual([
      "recorded through MSW > seats > a full account is refused a new agent",
      "recorded through MSW > creates and reads a property",
    ]);
    const [seats, property] = usage.tests;
    expect(seats!.start).toEqual({ kind: "named", name: "seats-full" });
    expect(seats!.interactions[0]!.request.account).toBe("fresh");
    expect(seats!.interactions[0]!.basis.status).toMatchObject({ tier: "assumption", ids: ["seat-limit-status"] });
    expect(property!.start).toEqual({ kind: "named", name: "fixtures" });
    expect(property!.interactions.map((interaction) => interaction.operation)).toEqual([
      "createProperty",
      "retrieveProperty",
    ]);
    expect(property!.interactions[1]!.bindings).toEqual([
      { at: "/params/nid", from: "answer", interaction: 0, pointer: "/nid" },
    ]);
    const text = mock.usage!.text();
    for (const value of Object.values(SECRET)) expect(text).not.toContain(value);
    expect(plain.usage).toBeUndefined();
  });

  it("begins a test over POST /__admin/usage/tests too", async () => {
    const answer = await fetch(`${BASE}/__admin/usage/tests`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: "named by the client" }),
    });
    expect(answer.status).toBe(200);
    expect(mock.usage!.toJSON().tests.at(-1)!.name).toBe("named by the client");
    expect(
      (
        await fetch("http://plain.mock.test/__admin/usage/tests", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: "{}",
        })
      ).status,
    ).toBe(409);
  });

  it("refuses a file in MSW's usage option", () => {
    expect(() => createMockHandlers({ usage: { consumer: "spa", file: "x.json" } as never })).toThrow(/usage.file/);
  });
});
