/**
 * What a 404 says, over HTTP against the mock with its shipped fixtures (the accounts the README lists): a path
 * the contract does not have points at the one most likely meant (a trailing slash left out or added, an
 * identifier left out), and another account's uid or record is answered as a record this account does not have,
 * saying so without claiming it does not exist and revealing nothing a 404 for a record that never existed does not.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMockServer } from "../../src/hosts/node/create-mock-server.ts";
import { sharedContract } from "../support/mock-harness.ts";

const DEMO = { "API-KEY": "demo-key", TOKEN: "demo-token", "content-type": "application/json" };
const BROKER = { "API-KEY": "broker-key", TOKEN: "broker-token", "content-type": "application/json" };
const API = "/api/v1/object";

const mock = createMockServer({ validateResponses: true, contract: sharedContract(), log: () => {} });
let url = "";
beforeAll(async () => {
  ({ url } = await mock.listen(0, "127.0.0.1"));
});
afterAll(async () => {
  expect(mock.violations).toEqual([]);
  await mock.close();
});

async function call(method: string, path: string, headers: Record<string, string> = DEMO, body?: unknown) {
  const answer = await fetch(url + path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await answer.text();
  return {
    status: answer.status,
    contentType: answer.headers.get("content-type"),
    text,
    body: JSON.parse(text) as Record<string, unknown>,
  };
}

describe("a path the contract does not have", () => {
  it.each([
    ["POST", `${API}/agent_card`, `Did you mean POST ${API}/agent_card/? The trailing slash is part of the path.`],
    ["POST", `${API}/document`, `Did you mean POST ${API}/document/? The trailing slash is part of the path.`],
    ["GET", `${API}/properties/1/`, `Did you mean GET ${API}/properties/1? This path takes no trailing slash.`],
    ["GET", `${API}/property/1001/`, `Did you mean GET ${API}/property/1001? This path takes no trailing slash.`],
    ["GET", `${API}/agent_cards/`, `Did you mean GET ${API}/agent_cards? This path takes no trailing slash.`],
    ["GET", `${API}/properties`, `Did you mean GET ${API}/properties/{uid}? The uid is part of the path.`],
    ["GET", `${API}/properties/`, `Did you mean GET ${API}/properties/{uid}? The uid is part of the path.`],
    ["GET", `${API}/property/`, `Did you mean GET ${API}/property/{nid}? The nid is part of the path.`],
    [
      "GET",
      `${API}/external-property/`,
      `Did you mean GET ${API}/external-property/{external-id}? The external-id is part of the path.`,
    ],
  ])("%s %s: 404 pointing at the path meant", async (method, path, hint) => {
    const answer = await call(method, path, DEMO, method === "POST" ? { title: "x" } : undefined);
    expect(answer.status).toBe(404);
    expect(answer.body.detail).toBe(`No operation of the Property Listing Service at ${method} ${path}. ${hint}`);
  });

  it.each([
    ["GET", `${API}/property`, "POST", `Did you mean GET ${API}/property/{nid}? The nid is part of the path.`],
    ["PUT", `${API}/agent_card/`, "POST", `Did you mean PUT ${API}/agent_card/{nid}? The nid is part of the path.`],
  ])("%s %s: 405 with Allow, pointing at the path meant", async (method, path, allow, hint) => {
    const answer = await call(method, path, DEMO, method === "PUT" ? { phone: "1" } : undefined);
    expect(answer.status).toBe(405);
    expect(answer.body.detail).toBe(`${method} is not an operation of ${path}; it allows ${allow}. ${hint}`);
  });

  it("a path near nothing gets no hint", async () => {
    const answer = await call("GET", `${API}/nowhere/1`);
    expect(answer.status).toBe(404);
    expect(answer.body.detail).toBe(`No operation of the Property Listing Service at GET ${API}/nowhere/1.`);
  });
});

describe("another account's uid or record, asked for with the demo key (uid 1)", () => {
  /** An answer with the identifier it names replaced, to compare with the answer for one that never existed. */
  const masked = (text: string, id: string | number) => text.replace(new RegExp(`\\b${id}\\b`, "g"), "<id>");

  it("GET /properties/2 (the broker's uid): 404 saying it is not this account's, not \"no such user\"", async () => {
    expect((await call("GET", `${API}/properties/2`, BROKER)).status).toBe(200); // the broker's list exists
    const foreign = await call("GET", `${API}/properties/2`);
    expect(foreign.status).toBe(404);
    expect(foreign.contentType).toMatch(/^application\/problem\+json/);
    expect(Object.keys(foreign.body).sort()).toEqual(["detail", "instance", "status", "title", "type"]);
    expect(foreign.body.detail).toBe(
      "No properties of uid 2 for this account: an account lists only its own, and this account is uid 1.",
    );
    expect(foreign.body.detail).not.toMatch(/no user|does not exist/i);
    const never = await call("GET", `${API}/properties/987654`);
    expect(never.contentType).toBe(foreign.contentType);
    expect(masked(never.text, 987654)).toBe(masked(foreign.text, 2));
  });

  it("the broker's property, agent card and document: the 404 of a record never made, and no data", async () => {
    const [property] = (await call("GET", `${API}/properties/2`, BROKER)).body as unknown as Array<{ nid: string }>;
    const agent = Object.keys((await call("GET", `${API}/agent_cards`, BROKER)).body)[0]!;
    const created = await call("POST", `${API}/document/`, BROKER, {
      title: "Plan",
      property_reference: Number(property!.nid),
      file_url: "https://files.example/plan.pdf",
    });
    expect(created.status).toBe(200);
    const document = String(created.body.nid);
    const never = 987654;
    for (const [method, path, body] of [
      ["GET", `${API}/property/{id}`, undefined],
      ["PUT", `${API}/property/{id}`, { city: "Dallas" }],
      ["POST", `${API}/agent_card/{id}`, undefined],
      ["PUT", `${API}/agent_card/{id}`, { phone: "1" }],
      ["DELETE", `${API}/agent_card/{id}`, undefined],
      ["GET", `${API}/document/{id}`, undefined],
      ["PUT", `${API}/document/{id}`, { visible: false }],
      ["DELETE", `${API}/document/{id}`, undefined],
    ] as const) {
      const id = path.includes("property") ? property!.nid : path.includes("agent") ? agent : document;
      const foreign = await call(method, path.replace("{id}", id), DEMO, body);
      const absent = await call(method, path.replace("{id}", String(never)), DEMO, body);
      expect(foreign.status, `${method} ${path}`).toBe(404);
      expect(foreign.body.detail, `${method} ${path}`).toMatch(
        /^No (property|agent card|document) with nid \d+ for this account\.$/,
      );
      expect(foreign.contentType, `${method} ${path}`).toBe(absent.contentType);
      expect(masked(foreign.text, id), `${method} ${path}`).toBe(masked(absent.text, never));
    }
    // Nothing the demo key asked for changed the broker's records.
    expect((await call("GET", `${API}/property/${property!.nid}`, BROKER)).body.city).not.toBe("Dallas");
    expect((await call("POST", `${API}/agent_card/${agent}`, BROKER)).status).toBe(200);
    expect((await call("GET", `${API}/document/${document}`, BROKER)).body.visible).toBe(true);
  });
});
