/**
 * Issue 30, item 2: `createMockHandlers` under MSW's `setupServer` (msw/node), driven by plain `fetch` the way a
 * frontend's tests drive it. Each handler set has its own state, seeded from the shipped fixtures; `reset()` brings
 * it back; the request journal and `toHaveReceived` read it; the server's options that make sense in a browser
 * work as the server's do; and it answers the mock's paths only, leaving everything else to the next handler.
 */
import { http, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import "../../src/vitest.ts";
import { createMockHandlers, loadRecordChecker } from "../../src/msw.ts";
import { DEMO, tinyFixtures } from "../support/tiny-fixtures.ts";

const A = "http://a.mock.test";
const B = "http://b.mock.test";
const JSON_HEADERS = { ...DEMO, "content-type": "application/json" };
const NEW_PROPERTY = { street: "1 Main St", city: "Springfield", state: "IL", zip: "62701" };

const first = createMockHandlers({ baseUrl: A, autologinSecret: "s" });
const second = createMockHandlers({ baseUrl: `${B}/mock/`, fixtures: tinyFixtures(), validateResponses: true });
const configured = createMockHandlers({
  baseUrl: "http://accounts.mock.test",
  accounts: [{ apiKey: "k", token: "t", uid: 7, agentSeats: 0 }],
});
const server = setupServer(
  ...first.handlers,
  ...second.handlers,
  ...configured.handlers,
  // What the mock leaves alone reaches the handlers after it (here, this one).
  http.all("*", ({ request }) => HttpResponse.text(`not the mock: ${new URL(request.url).pathname}`, { status: 299 })),
);

beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => {
  first.reset();
  second.reset();
  configured.reset();
});
afterAll(() => server.close());

async function json(response: Response): Promise<{ status: number; body: any }> {
  return { status: response.status, body: await response.json() };
}

describe("createMockHandlers under setupServer", () => {
  it("keeps one state per handler set, seeded as the server seeds it, and reset() brings it back", async () => {
    const seeded = await json(await fetch(`${A}/api/v1/object/properties/1`, { headers: JSON_HEADERS }));
    expect(seeded.status).toBe(200);
    const created = await json(
      await fetch(`${A}/api/v1/object/property`, {
        method: "POST",
        headers: JSON_HEADERS,
        body: JSON.stringify(NEW_PROPERTY),
      }),
    );
    expect(created.status).toBe(200);
    expect(created.body.uri).toMatch(new RegExp(`^${A}/autologin/`));
    const after = await json(await fetch(`${A}/api/v1/object/properties/1`, { headers: JSON_HEADERS }));
    expect(after.body.length).toBe(seeded.body.length + 1);
    // The other set, under its prefix, has its own state (the tiny fixtures) and did not see the create.
    const other = await json(
      await fetch(`${B}/mock/api/v1/object/property/${created.body.nid}`, { headers: JSON_HEADERS }),
    );
    expect(other.status).toBe(404);
    expect(other.body.instance).toBe(`/api/v1/object/property/${created.body.nid}`);

    first.reset();
    expect((await json(await fetch(`${A}/api/v1/object/properties/1`, { headers: JSON_HEADERS }))).body).toEqual(
      seeded.body,
    );
    const again = await json(
      await fetch(`${A}/api/v1/object/property`, {
        method: "POST",
        headers: JSON_HEADERS,
        body: JSON.stringify(NEW_PROPERTY),
      }),
    );
    expect(again.body).toEqual(created.body); // the same nid and the same auto-login link after a reset
  });

  it("records every API request for the journal and toHaveReceived, and for GET /__admin/requests", async () => {
    await fetch(`${A}/api/v1/object/property`, {
      method: "POST",
      headers: JSON_HEADERS,
      body: JSON.stringify(NEW_PROPERTY),
    });
    await fetch(`${A}/api/v1/object/property/1`, { headers: { "content-type": "application/json" } });
    expect(first).toHaveReceived({
      method: "POST",
      path: "/api/v1/object/property",
      body: expect.objectContaining({ street: "1 Main St" }),
      status: 200,
    });
    expect(first).toHaveReceived({ method: "GET", status: 401 }, { times: 1 });
    expect(second).not.toHaveReceived({});
    const listed = await json(await fetch(`${A}/__admin/requests?method=POST`));
    expect(listed.body.requests).toHaveLength(1);
    expect(first.requests({ method: "GET" })).toHaveLength(1);
  });

  it("answers 400 to a bad body and 401 without credentials, as problem+json", async () => {
    const bad = await fetch(`${A}/api/v1/object/property`, {
      method: "POST",
      headers: JSON_HEADERS,
      body: JSON.stringify({ street: 5 }),
    });
    expect([bad.status, bad.headers.get("content-type")]).toEqual([400, "application/problem+json; charset=utf-8"]);
    expect(((await bad.json()) as { errors: unknown[] }).errors.length).toBeGreaterThan(0);
    const anonymous = await fetch(`${A}/api/v1/object/properties/1`, {
      headers: { "content-type": "application/json" },
    });
    expect(anonymous.status).toBe(401);
  });

  it("plays fault rules: a status, and a dropped connection as a network error", async () => {
    expect(first.faults.add({ path: "/api/v1/object/template_base", status: 503, times: 1 })).toMatchObject({
      id: 1,
      times: 1,
    });
    expect((await fetch(`${A}/api/v1/object/template_base`, { headers: JSON_HEADERS })).status).toBe(503);
    expect((await fetch(`${A}/api/v1/object/template_base`, { headers: JSON_HEADERS })).status).toBe(200);
    const rule = await fetch(`${A}/__admin/faults`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ path: "/api/v1/object/template_base", drop: true }),
    });
    expect(rule.status).toBe(201);
    await expect(fetch(`${A}/api/v1/object/template_base`, { headers: JSON_HEADERS })).rejects.toThrow(TypeError);
    expect(first).toHaveReceived({
      path: "/api/v1/object/template_base",
      status: null,
      fault: { rule: expect.objectContaining({ drop: true }) },
    });
  });

  it("admits only the configured accounts, with their seats", async () => {
    const headers = { "api-key": "k", token: "t", "content-type": "application/json" };
    expect(
      (await fetch("http://accounts.mock.test/api/v1/object/properties/1", { headers: JSON_HEADERS })).status,
    ).toBe(401);
    const agent = { agent_first_name: "Ann", agent_last_name: "Agent", email: "ann@example.test" };
    const noSeat = await fetch("http://accounts.mock.test/api/v1/object/agent_card/", {
      method: "POST",
      headers,
      body: JSON.stringify(agent),
    });
    expect([noSeat.status, ((await noSeat.json()) as { title: string }).title]).toEqual([
      402,
      "Not Enough Agent Seats",
    ]);
  });

  it("checks its own answers with validateResponses and keeps the violations (none)", async () => {
    for (const path of [
      "/api/v1/object/properties/1",
      "/api/v1/object/property/1001",
      "/api/v1/object/agent_cards",
      "/api/v1/object/template_base",
    ]) {
      expect((await fetch(`${B}/mock${path}`, { headers: JSON_HEADERS })).status, path).toBe(200);
    }
    expect(second.violations).toEqual([]);
  });

  it("answers the mock's paths only: the page's files and other calls go on to the next handler", async () => {
    for (const path of ["/", "/index.html", "/assets/app.js", "/apiv2/x"]) {
      const response = await fetch(`${A}${path}`);
      expect([response.status, await response.text()]).toEqual([299, `not the mock: ${path}`]);
    }
    expect((await fetch(`${A}/healthz`)).status).toBe(200);
    expect((await fetch(`${A}/openapi.json`)).status).toBe(200);
    expect((await fetch("http://elsewhere.test/api/v1/object/template_base")).status).toBe(299);
  });

  it("keeps its state in a storage if asked (persist) for the next set of the key, else starts anew", async () => {
    const saved = new Map<string, string>();
    const storage = {
      getItem: (key: string) => saved.get(key) ?? null,
      setItem: (key: string, value: string) => void saved.set(key, value),
      removeItem: (key: string) => void saved.delete(key),
    };
    const keep = createMockHandlers({ baseUrl: "http://kept.mock.test", persist: storage, persistKey: "kept" });
    server.use(...keep.handlers);
    const created = await json(
      await fetch("http://kept.mock.test/api/v1/object/property", {
        method: "POST",
        headers: JSON_HEADERS,
        body: JSON.stringify(NEW_PROPERTY),
      }),
    );
    expect(saved.has("kept")).toBe(true);

    const reloaded = createMockHandlers({ baseUrl: "http://kept.mock.test", persist: storage, persistKey: "kept" });
    server.resetHandlers(...reloaded.handlers);
    expect(
      (
        await json(
          await fetch(`http://kept.mock.test/api/v1/object/property/${created.body.nid}`, { headers: JSON_HEADERS }),
        )
      ).body.street,
    ).toBe("1 Main St");
    const next = await json(
      await fetch("http://kept.mock.test/api/v1/object/property", {
        method: "POST",
        headers: JSON_HEADERS,
        body: JSON.stringify(NEW_PROPERTY),
      }),
    );
    expect(Number(next.body.nid)).toBe(Number(created.body.nid) + 1); // the id sequence is kept too

    saved.set("kept", "{not a state");
    const fresh = createMockHandlers({ baseUrl: "http://kept.mock.test", persist: storage, persistKey: "kept" });
    server.resetHandlers(...fresh.handlers);
    expect(
      (await fetch(`http://kept.mock.test/api/v1/object/property/${created.body.nid}`, { headers: JSON_HEADERS }))
        .status,
    ).toBe(404);
    server.resetHandlers();
    expect(() => createMockHandlers({ persist: "sessionStorage" })).toThrow(/does not have/);
  });

  it("refuses fixtures with a record the mock cannot hold, naming it; starts from the seed over them", async () => {
    expect(() => createMockHandlers({ fixtures: { ...tinyFixtures(), properties: [[1]] } as never })).toThrow(
      '"fixtures" hold a record the mock cannot hold: properties[0] is an array, not an object.',
    );
    const deep = JSON.parse(`{"a":${"[".repeat(70)}${"]".repeat(70)}}`) as unknown;
    expect(() =>
      createMockHandlers({
        fixtures: { ...tinyFixtures(), documents: [{ ...tinyFixtures().documents[0]!, deep }] } as never,
      }),
    ).toThrow(`documents[0] (id ${tinyFixtures().documents[0]!.id}): nesting deeper than 64 levels`);

    const unheld = {
      $meta: { seq: 0, nextId: 5000, nextUid: 3, autologin: { secret: "s".repeat(32), issued: 0 } },
      state: { ...tinyFixtures(), properties: [...tinyFixtures().properties, [1]] },
    };
    const storage = { getItem: () => JSON.stringify(unheld), setItem: () => {}, removeItem: () => {} };
    const fresh = createMockHandlers({
      baseUrl: "http://unheld.mock.test",
      fixtures: tinyFixtures(),
      persist: storage,
    });
    server.resetHandlers(...fresh.handlers);
    const health = await json(await fetch("http://unheld.mock.test/healthz"));
    server.resetHandlers();
    expect(health.body.counts).toEqual({ accounts: 2, properties: 2, agents: 1, documents: 1 });
  });

  it("refuses unknown options and wrong values when it is made, naming them", () => {
    expect(() => createMockHandlers({ baseURL: "x" } as never)).toThrow(/unknown option "baseURL"/);
    expect(() => createMockHandlers({ baseUrl: "localhost:4010" })).toThrow(/"baseUrl" must be an .*http\(s\) URL/);
    expect(() => createMockHandlers({ latency: "fast" })).toThrow(/"latency"/);
    expect(() => createMockHandlers({ accounts: [{ apiKey: "", token: "t" }] })).toThrow(/apiKey/);
  });
});

describe("named states (issue 29) in the MSW host", () => {
  const C = "http://states.mock.test";
  const states = createMockHandlers({ baseUrl: C, state: "empty-account" });
  const states2 = setupServer(...states.handlers);
  const agent = (email: string) => ({
    method: "POST",
    headers: JSON_HEADERS,
    body: JSON.stringify({ name: "A B", email, agent_first_name: "A", agent_last_name: "B" }),
  });
  beforeAll(() => {
    server.close();
    states2.listen({ onUnhandledRequest: "error" });
  });
  afterAll(() => {
    states2.close();
    server.listen({ onUnhandledRequest: "error" });
  });

  it("starts from the state named, comes back to it on reset, and takes another per test", async () => {
    const list = async () => json(await fetch(`${C}/api/v1/object/properties/1`, { headers: JSON_HEADERS }));
    expect(await list()).toEqual({ status: 200, body: [] });
    await fetch(`${C}/api/v1/object/property`, {
      method: "POST",
      headers: JSON_HEADERS,
      body: JSON.stringify(NEW_PROPERTY),
    });
    expect((await list()).body).toHaveLength(1);
    states.reset();
    expect(await list()).toEqual({ status: 200, body: [] });

    states.useState("seats-full");
    const refused = await fetch(`${C}/api/v1/object/agent_card/`, agent("new.agent@example.test"));
    expect(refused.status).toBe(402);
    expect(((await refused.json()) as { title: string }).title).toBe("Not Enough Agent Seats");

    const admin = await fetch(`${C}/__admin/state`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ state: "fixtures" }),
    });
    expect(admin.status).toBe(200);
    expect(((await admin.json()) as { state: string }).state).toBe("fixtures");
    expect((await fetch(`${C}/api/v1/object/agent_card/`, agent("another.agent@example.test"))).status).toBe(200);
  });

  it("refuses an unknown name, changing nothing", () => {
    expect(() => states.useState("no-such-state")).toThrow(/No state is named "no-such-state"/);
    expect(() => createMockHandlers({ state: "nope" })).toThrow(TypeError);
  });

  it("takes a state of your own records with checkRecords, checked record by record as on the Node host", async () => {
    const D = "http://records.mock.test";
    const own = createMockHandlers({ baseUrl: D, checkRecords: await loadRecordChecker() });
    const without = createMockHandlers({ baseUrl: D });
    expect(() => without.useState(tinyFixtures())).toThrow(/checkRecords/);
    states2.use(...own.handlers);
    try {
      const records = tinyFixtures();
      own.useState(records);
      const listed = await json(await fetch(`${D}/api/v1/object/properties/1`, { headers: JSON_HEADERS }));
      expect(listed.status).toBe(200);
      expect((listed.body as Array<{ nid: string }>).map((item) => item.nid).sort()).toEqual(
        records.properties
          .filter((property) => property.uid === 1)
          .map((property) => String(property.id))
          .sort(),
      );
      // A record that breaks its stored shape: refused, naming the place, and the state is as it was.
      const broken = { ...records, properties: [{ ...records.properties[0]!, state: 12 }] };
      expect(() => own.useState(broken)).toThrow(/\/properties\/0\/state/);
      const admin = await fetch(`${D}/__admin/state`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ state: broken }),
      });
      expect(admin.status).toBe(400);
      expect((await json(await fetch(`${D}/api/v1/object/properties/1`, { headers: JSON_HEADERS }))).body).toEqual(
        listed.body,
      );
    } finally {
      states2.resetHandlers(...states.handlers);
    }
  });
});
