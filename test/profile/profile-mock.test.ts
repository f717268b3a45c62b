/**
 * Issue 20, bounds: with a service profile, everything else the mock guarantees holds. Hostile input still gets
 * a 4xx (the profile's body for the situation) and changes nothing; --db keeps what a 2xx answered; the request
 * journal and injected faults work as without; --validate-responses finds nothing wrong in the profile's answers.
 * A profile given as an object is read like a file, and refused whole.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { createMockServer, ProfileRefused, type MockServer } from "../../src/hosts/node/create-mock-server.ts";
import { tinyFixtures } from "../support/tiny-fixtures.ts";
import { error, PROFILE, provenance } from "../support/sample-profile.ts";

const DEMO = { "API-KEY": "demo-key", TOKEN: "demo-token", "content-type": "application/json" };
const dir = mkdtempSync(join(tmpdir(), "profile-mock-"));
const started: MockServer[] = [];
afterEach(async () => {
  for (const mock of started.splice(0)) await mock.close();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function start(options: Parameters<typeof createMockServer>[0] = {}): Promise<{ mock: MockServer; url: string }> {
  const mock = createMockServer({
    fixtures: tinyFixtures(),
    profile: PROFILE,
    validateResponses: true,
    quiet: true,
    ...options,
  });
  started.push(mock);
  return { mock, url: (await mock.listen(0, "127.0.0.1")).url };
}

describe("the mock playing a profile", () => {
  it("refuses hostile bodies with the profile's 4xx, changing nothing; its own answer if it is silent", async () => {
    const { mock, url } = await start();
    const before = mock.store.counts();
    const bodies = [
      "{not json",
      JSON.stringify({ street: "x".repeat(10_000) }),
      "[".repeat(5_000) + "]".repeat(5_000),
      JSON.stringify({ street: 1, city: null, state: "CAL", zip: [] }),
    ];
    for (const body of bodies) {
      const answer = await fetch(`${url}/api/v1/object/property`, { method: "POST", headers: DEMO, body });
      expect(answer.status).toBe(422);
      expect(answer.headers.get("content-type")).toBe("application/json; charset=utf-8");
      expect(await answer.json()).toEqual({ error: expect.any(String), kind: "validation" });
    }
    const tooLarge = await fetch(`${url}/api/v1/object/property`, {
      method: "POST",
      headers: DEMO,
      body: "x".repeat(1024 * 1024 + 1),
    });
    expect([tooLarge.status, tooLarge.headers.get("content-type")]).toEqual([
      413,
      "application/problem+json; charset=utf-8",
    ]);
    expect(mock.store.counts()).toEqual(before);
    expect(mock.violations).toEqual([]);
  });

  it("answers a retrieved property with the profile's extra fields, by nid and external id, after edits", async () => {
    const { mock, url } = await start();
    const plain = createMockServer({ fixtures: tinyFixtures(), quiet: true });
    started.push(plain);
    const plainUrl = (await plain.listen(0, "127.0.0.1")).url;
    const text = async (base: string, path: string) => {
      const answer = await fetch(`${base}/api/v1/object/${path}`, { headers: DEMO });
      expect([answer.status, answer.headers.get("content-type")]).toEqual([
        200,
        base === url ? "application/json" : "application/json; charset=utf-8",
      ]);
      return answer.text();
    };
    // The mock's own answer, its last brace replaced by the profile's fields: the same bytes, twice (the second kept)
    for (const path of ["property/1001", "external-property/crm-1001", "property/1001"]) {
      expect(await text(url, path)).toBe(
        `${(await text(plainUrl, path)).slice(0, -1)},"listing_score":7,"flags":["a"]}`,
      );
    }
    for (const base of [url, plainUrl]) {
      const edited = await fetch(`${base}/api/v1/object/property/1001`, {
        method: "PUT",
        headers: DEMO,
        body: JSON.stringify({ title: "Oak bungalow, edited" }),
      });
      expect(edited.status).toBe(200);
    }
    const after = await text(url, "external-property/crm-1001");
    expect(JSON.parse(after)).toMatchObject({
      nid: "1001",
      title: "Oak bungalow, edited",
      listing_score: 7,
      flags: ["a"],
    });
    expect(after).toBe(
      `${(await text(plainUrl, "external-property/crm-1001")).slice(0, -1)},"listing_score":7,"flags":["a"]}`,
    );
    expect(mock.violations).toEqual([]);
  });

  it("answers as the service did, the failure's own text in the profile's body", async () => {
    const { mock, url } = await start();
    const missing = await fetch(`${url}/api/v1/object/agent_cards`, {
      headers: { "content-type": "application/json" },
    });
    expect([missing.status, await missing.json()]).toEqual([
      403,
      { error: "The API-KEY header is missing.", kind: "auth" },
    ]);
    const created = (await (
      await fetch(`${url}/api/v1/object/agent_card/`, {
        method: "POST",
        headers: DEMO,
        body: JSON.stringify({ agent_first_name: "A", agent_last_name: "B", email: "a.b@profile.example" }),
      })
    ).json()) as { nid: string };
    const duplicate = await fetch(`${url}/api/v1/object/agent_card/`, {
      method: "POST",
      headers: DEMO,
      body: JSON.stringify({ agent_first_name: "A", agent_last_name: "C", email: "A.B@profile.example" }),
    });
    expect([duplicate.status, await duplicate.json()]).toEqual([409, { error: "Agent Already Exists", kind: "agent" }]);
    const agent = await fetch(`${url}/api/v1/object/agent_card/${created.nid}`, { method: "POST", headers: DEMO });
    expect(agent.headers.get("content-type")).toBe("application/json");
    expect(await agent.json()).toMatchObject({ id: created.nid, created: 1767225600 });
    const list = await (await fetch(`${url}/api/v1/object/agent_cards`, { headers: DEMO })).text();
    const keys = [...list.matchAll(/"(\d+)":\{/g)].map((match) => Number(match[1]));
    expect(keys.length).toBeGreaterThan(1);
    expect(keys).toEqual([...keys].sort((a, b) => b - a));
    // A new key's account gets the profile's seats.
    const fresh = { ...DEMO, "API-KEY": "profile-fresh", TOKEN: "profile-fresh-token" };
    const statuses = [];
    for (let index = 0; index < 3; index++) {
      statuses.push(
        (
          await fetch(`${url}/api/v1/object/agent_card/`, {
            method: "POST",
            headers: fresh,
            body: JSON.stringify({
              agent_first_name: "S",
              agent_last_name: String(index),
              email: `s${index}@profile.example`,
            }),
          })
        ).status,
      );
    }
    expect(statuses).toEqual([200, 200, 402]);
    expect(mock.violations).toEqual([]);
  });

  it("answers an external id in use as the profile says: the service's refusal, or taken", async () => {
    const property = JSON.stringify({ street: "1 External Way", city: "Austin", state: "TX", zip: "78701" });
    const twoProperties = async (url: string) => {
      const nids: string[] = [];
      for (let index = 0; index < 2; index++)
        nids.push(
          (
            (await (
              await fetch(`${url}/api/v1/object/property`, { method: "POST", headers: DEMO, body: property })
            ).json()) as { nid: string }
          ).nid,
        );
      const label = (nid: string) =>
        fetch(`${url}/api/v1/object/property/${nid}`, {
          method: "PUT",
          headers: DEMO,
          body: JSON.stringify({ external_id: "crm-7" }),
        });
      expect((await label(nids[0]!)).status).toBe(200);
      return { nids, second: await label(nids[1]!) };
    };
    const refusing = await start({
      profile: {
        ...PROFILE,
        observations: {
          ...PROFILE.observations,
          "error.external_id_in_use": error(400, { error: "in use", code: "EXTERNAL_ID" }),
          "external_id.duplicate": { ...provenance, value: "refused" },
        },
      },
    });
    const refused = await twoProperties(refusing.url);
    expect([refused.second.status, refused.second.headers.get("content-type"), await refused.second.json()]).toEqual([
      400,
      "application/json; charset=utf-8",
      { error: expect.stringContaining('The external id "crm-7" already belongs to property'), code: "EXTERNAL_ID" },
    ]);
    const byExternal = async (url: string) =>
      (
        (await (await fetch(`${url}/api/v1/object/external-property/crm-7`, { headers: DEMO })).json()) as {
          nid: string;
        }
      ).nid;
    expect(await byExternal(refusing.url)).toBe(refused.nids[0]);
    const taking = await start({
      profile: {
        ...PROFILE,
        observations: { ...PROFILE.observations, "external_id.duplicate": { ...provenance, value: "accepted" } },
      },
    });
    const taken = await twoProperties(taking.url);
    expect(taken.second.status).toBe(200);
    // The external lookup finds the property that took the id last; once it lets the id go, the other one.
    expect(await byExternal(taking.url)).toBe(taken.nids[1]);
    await fetch(`${taking.url}/api/v1/object/property/${taken.nids[1]}`, {
      method: "PUT",
      headers: DEMO,
      body: JSON.stringify({ external_id: "" }),
    });
    expect(await byExternal(taking.url)).toBe(taken.nids[0]);
    expect([refusing.mock.violations, taking.mock.violations]).toEqual([[], []]);
  });

  it("answers a new property's unset fields as the profile says (unset.property), the rest as set", async () => {
    const unset = {
      ...PROFILE,
      observations: {
        ...PROFILE.observations,
        "unset.property": {
          ...provenance,
          fields: {
            country: "null" as const,
            half_baths: "null" as const,
            premise: "empty" as const,
            intent: "value" as const,
            bedrooms: "null" as const,
            title: "null" as const,
          },
        },
      },
    };
    const { mock, url } = await start({ profile: unset });
    const made = (await (
      await fetch(`${url}/api/v1/object/property`, {
        method: "POST",
        headers: DEMO,
        body: JSON.stringify({ street: "4 Unset Row", city: "Austin", state: "TX", zip: "78701", bedrooms: 2 }),
      })
    ).json()) as { nid: string };
    const read = async () =>
      (await (await fetch(`${url}/api/v1/object/property/${made.nid}`, { headers: DEMO })).json()) as Record<
        string,
        unknown
      >;
    expect(await read()).toMatchObject({
      country: null,
      half_baths: null,
      premise: "",
      intent: "sale",
      bedrooms: "2",
      title: null,
    });
    await fetch(`${url}/api/v1/object/property/${made.nid}`, {
      method: "PUT",
      headers: DEMO,
      body: JSON.stringify({ country: "CA" }),
    });
    expect(await read()).toMatchObject({ country: "CA", half_baths: null });
    // The list item of a property without a title, and its auto-login page, still answer.
    const listed = (await (await fetch(`${url}/api/v1/object/properties/1`, { headers: DEMO })).json()) as Array<{
      nid: string;
      title: unknown;
    }>;
    expect(listed.find((item) => item.nid === made.nid)?.title).toBeNull();
    expect(mock.violations).toEqual([]);
  });

  it("keeps the request journal and honours injected faults", async () => {
    const { mock, url } = await start();
    await fetch(`${url}/api/v1/object/property/1001`, { headers: { ...DEMO, TOKEN: "wrong" } });
    expect(mock.requests({ method: "GET", path: "/api/v1/object/property/1001" })).toEqual([
      expect.objectContaining({ status: 403 }),
    ]);
    const injected = await fetch(`${url}/api/v1/object/agent_cards`, { headers: { ...DEMO, Prefer: "code=503" } });
    expect([injected.status, injected.headers.get("content-type")]).toEqual([
      503,
      "application/problem+json; charset=utf-8",
    ]);
  });

  it("with --db, a 2xx is kept across a restart, the profile still played", async () => {
    const db = join(dir, "db.json");
    const first = await start({ db });
    const created = (await (
      await fetch(`${first.url}/api/v1/object/agent_card/`, {
        method: "POST",
        headers: DEMO,
        body: JSON.stringify({ agent_first_name: "D", agent_last_name: "B", email: "d.b@profile.example" }),
      })
    ).json()) as { nid: string };
    await first.mock.close();
    started.splice(started.indexOf(first.mock), 1);
    const second = await start({ db });
    const agent = await fetch(`${second.url}/api/v1/object/agent_card/${created.nid}`, {
      method: "POST",
      headers: DEMO,
    });
    expect([agent.status, (await agent.json()) as { email: string; created: number }]).toEqual([
      200,
      expect.objectContaining({ email: "d.b@profile.example", created: 1767225600 }),
    ]);
    expect(second.mock.profile).toEqual({
      source: "(given as an object)",
      runId: "r1",
      recordedAt: "2026-01-02T03:04:05.000Z",
    });
  });

  it("refuses a profile object contradicting the document, whole, naming each entry; and a non-profile", () => {
    const contradicting = {
      ...PROFILE,
      observations: {
        ...PROFILE.observations,
        "error.not_found": { ...PROFILE.observations["error.not_found"]!, statuses: [200] },
        "extra_fields.agent": { ...provenance, fields: { email: { types: ["string" as const], example: "" } } },
      },
    };
    let refused: unknown;
    try {
      createMockServer({ fixtures: tinyFixtures(), profile: contradicting });
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(ProfileRefused);
    expect((refused as ProfileRefused).problems).toEqual([
      "entry /observations/error.not_found: status 200 is not a refusal (section 4: 200 is the success " +
        "status of every endpoint)",
      "entry /observations/extra_fields.agent: email is a documented field of AgentCard, its type is the document's",
    ]);
    const agentFields = {
      ...PROFILE,
      observations: {
        ...PROFILE.observations,
        "unset.agent": {
          ...provenance,
          fields: {
            notes: "null" as const,
            id: "null" as const,
            email: "absent" as const,
            website: "empty" as const,
            social_media_links: "empty" as const,
            age: "null" as const,
          },
        },
      },
    };
    let agentRefused: unknown;
    try {
      createMockServer({ fixtures: tinyFixtures(), profile: agentFields });
    } catch (error) {
      agentRefused = error;
    }
    expect((agentRefused as ProfileRefused).problems).toEqual([
      "entry /observations/unset.agent: id comes back null, but section 2.2 types it without null",
      "entry /observations/unset.agent: email comes back absent, but section 2.2 lists it among the fields " +
        "of every agent card",
      "entry /observations/unset.agent: website comes back empty, but section 2.2 types it so that an empty " +
        "value is not one",
      "entry /observations/unset.agent: age is not a field of an agent card (section 2.2)",
    ]);
    expect(() => createMockServer({ fixtures: tinyFixtures(), profile: "" })).toThrow(
      'createMockServer: "profile" must be a profile file\'s path or a profile object, got "".',
    );
  });
});
