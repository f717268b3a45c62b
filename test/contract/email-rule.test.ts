/**
 * An agent's email (spec `AgentEmail`): the rule the spec states as a `pattern` is the one the contract checks and
 * the mock holds, on addresses at the edges of the rule. An outside tool reads the pattern, the contract compiles
 * it with AJV, the mock refuses what the contract refuses: the three must give the same verdict, or a generator
 * that starts from the spec meets refusals of input the spec admits.
 */
import { createRequire } from "node:module";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createHarness, sharedContract } from "../support/mock-harness.ts";

const { api } = createHarness();
const contract = sharedContract();
const schema = contract.document.components!.schemas!.AgentEmail as { pattern: string; format?: string };
/** The pattern as an outside tool compiles it: ECMA-262 with the `u` flag, as JSON Schema asks. */
const specPattern = new RegExp(schema.pattern, "u");
const { fullFormats } = createRequire(import.meta.url)(
  "ajv-formats/dist/formats.js",
) as typeof import("ajv-formats/dist/formats.js");
const ajvEmail = fullFormats.email as RegExp;

/** Addresses at the edges of the rule, and whether the rule admits each. */
const EDGES: Array<[string, boolean]> = [
  ["dana.whitfield@harborrealty.example", true],
  ["a@b.co", true],
  ["A.B@EXAMPLE.COM", true],
  ["0@0.0", true],
  ["a+tag@x-y.example", true],
  ["!#$%&'*+/=?^_`{|}~-@example.com", true],
  ["a@b.c.d.e.f", true],
  ["0@com", false],
  ["a@localhost", false],
  [".a@b.co", false],
  ["a.@b.co", false],
  ["a..b@c.co", false],
  ["a@-b.co", false],
  ["a@b-.co", false],
  ["a@b.co.", false],
  ["a@b..co", false],
  ["a@b_c.co", false],
  ['"quoted"@b.co', false],
  ["a b@c.co", false],
  ["a@[127.0.0.1]", false],
  ["ü@b.co", false],
  ["a@bü.co", false],
  ["@b.co", false],
  ["a@", false],
  ["a@@b.co", false],
  ["", false],
];

const AGENT_CREATE = { method: "POST", path: "/api/v1/object/agent_card/" } as const;
const AGENT_UPDATE = { method: "PUT", path: "/api/v1/object/agent_card/1003" } as const;
const HEADERS = { "api-key": "demo-key", token: "demo-token", "content-type": "application/json" };

describe("an agent's email", () => {
  it("is stated by the spec as a pattern, without `format: email`, on create and update alike", () => {
    // `format: email` reads as an RFC 5321 mailbox in some tools (`0@com`), and beside the pattern doubles each error.
    expect(schema.format).toBeUndefined();
    const bodies = ["AgentCardCreate", "AgentCardUpdate"].map(
      (name) => (contract.document.components!.schemas![name] as { properties: { email: unknown } }).properties.email,
    );
    expect(bodies).toEqual([{ $ref: "#/components/schemas/AgentEmail" }, { $ref: "#/components/schemas/AgentEmail" }]);
  });

  it("pattern admits exactly what ajv-formats' full `email` format admits, on generated near-addresses", () => {
    const near = fc
      .tuple(
        fc.string({ unit: fc.constantFrom(..."aZ0.-_+'\"!~ @é".split("")), maxLength: 8 }),
        fc.constantFrom("@", "@@", ""),
        fc.string({ unit: fc.constantFrom(..."aZ09.-_[]:ü".split("")), maxLength: 10 }),
      )
      .map(([local, at, domain]) => local + at + domain);
    fc.assert(
      fc.property(fc.oneof(near, fc.emailAddress()), (value) => specPattern.test(value) === ajvEmail.test(value)),
      { numRuns: 20_000, seed: 50 },
    );
  });

  it.each(EDGES)(
    "%j: the spec's pattern, the contract and the mock all answer admitted = %s",
    async (email, admitted) => {
      expect(specPattern.test(email), "the spec's pattern").toBe(admitted);

      const create = { agent_first_name: "Edge", agent_last_name: "Case", email };
      for (const [{ method, path }, body] of [
        [AGENT_CREATE, create],
        [AGENT_UPDATE, { email }],
      ] as const) {
        const verdict = contract.validateRequest({ method, path, headers: HEADERS, body });
        expect(verdict.valid, `contract, ${method} ${path}: ${JSON.stringify(verdict.errors)}`).toBe(admitted);
      }

      const created = await api("post", "/agent_card/").send(create);
      expect(created.status, `mock, create: ${created.text}`).toBe(admitted ? 200 : 400);
      // The update gives the created agent its own email again, which the uniqueness rule allows.
      const updated = await api("put", `/agent_card/${admitted ? created.body.nid : 1003}`).send({ email });
      expect(updated.status, `mock, update: ${updated.text}`).toBe(admitted ? 200 : 400);
      for (const answer of admitted ? [] : [created, updated])
        expect(answer.headers["content-type"]).toMatch(/^application\/problem\+json/);
    },
  );

  it("is refused by the mock once, at the email, without a change to the agents", async () => {
    const before = (await api("get", "/agent_cards").expect(200)).body;
    const refused = await api("post", "/agent_card/")
      .send({ agent_first_name: "Edge", agent_last_name: "Case", email: "0@com" })
      .expect(400);
    expect(refused.body.errors.map((error: { pointer: string }) => error.pointer)).toEqual(["/email"]);
    await api("put", "/agent_card/1003").send({ email: "0@com" }).expect(400);
    expect((await api("get", "/agent_cards").expect(200)).body).toEqual(before);
    expect((await api("post", "/agent_card/1003").expect(200)).body.email).toBe(before["1003"].email);
  });
});
