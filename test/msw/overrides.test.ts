/**
 * Overrides the MSW way, still observed: `mock.handlerFor(operationId)` is one handler for one operation answering
 * as the mock does, and a request a test's own handler answers (`server.use(http.get(...))`, which MSW runs before
 * the mock's) stays in the journal, `GET /__admin/requests` and `toHaveReceived`, marked `overridden` with the status
 * it answered, once the handler set observes the server (`mock.observe(server)`).
 */
import { http, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import "../../src/vitest.ts";
import { SETTLE_LIMIT_MS } from "../../src/hosts/msw/override-observer.ts";
import { createMockHandlers } from "../../src/msw.ts";

const BASE = "http://overrides.mock.test";
const OTHER = "http://only-one.mock.test";
const HEADERS = { "API-KEY": "demo-key", TOKEN: "demo-token", "content-type": "application/json" };
const LIST = `${BASE}/api/v1/object/properties/1`;

const mock = createMockHandlers({ baseUrl: BASE });
const single = createMockHandlers({ baseUrl: OTHER });
const server = setupServer(
  ...mock.handlers,
  single.handlerFor("retrieveTemplateCatalogue"),
  // Whatever no handler before it took: so a test sees what the single handler left alone.
  http.all("*", () => HttpResponse.text("left alone", { status: 299 })),
);
let stop: () => void;
beforeAll(() => {
  server.listen({ onUnhandledRequest: "error" });
  stop = mock.observe(server);
});
afterEach(() => {
  server.resetHandlers();
  mock.reset();
  single.reset();
});
afterAll(() => {
  stop();
  server.close();
});

describe("handlerFor", () => {
  it("answers its one operation as the mock does, and leaves every other path and method to the next one", async () => {
    const catalogue = await fetch(`${OTHER}/api/v1/object/template_base`, { headers: HEADERS });
    expect(catalogue.status).toBe(200);
    expect(await catalogue.json()).toHaveProperty("templates");
    expect(
      (await fetch(`${OTHER}/api/v1/object/template_base`, { headers: { "content-type": "application/json" } })).status,
    ).toBe(401);
    expect((await fetch(`${OTHER}/api/v1/object/properties/1`, { headers: HEADERS })).status).toBe(299);
    expect(
      (await fetch(`${OTHER}/api/v1/object/template_base`, { method: "POST", headers: HEADERS, body: "{}" })).status,
    ).toBe(299);
    expect(single).toHaveReceived({ method: "GET", path: "/api/v1/object/template_base", status: 200 });
    expect(single.requests()).toHaveLength(2);
  });

  it("matches each {parameter} as one whole segment, with a query, under the base URL's prefix", async () => {
    const handlers = createMockHandlers({ baseUrl: "http://segments.mock.test/prefix" });
    server.use(handlers.handlerFor("retrieveProperty"));
    expect(
      (await fetch("http://segments.mock.test/prefix/api/v1/object/property/1001?x=1", { headers: HEADERS })).status,
    ).toBe(200);
    expect(
      (await fetch("http://segments.mock.test/prefix/api/v1/object/property/1001/more", { headers: HEADERS })).status,
    ).toBe(299);
    expect((await fetch("http://segments.mock.test/api/v1/object/property/1001", { headers: HEADERS })).status).toBe(
      299,
    );
    expect(handlers.requests()).toHaveLength(1);
  });

  it("puts the mock's answer back over an earlier override", async () => {
    server.use(
      http.get(`${BASE}/api/v1/object/properties/:uid`, () => HttpResponse.json({ error: "down" }, { status: 500 })),
    );
    expect((await fetch(LIST, { headers: HEADERS })).status).toBe(500);
    server.use(mock.handlerFor("listUserProperties"));
    expect((await fetch(LIST, { headers: HEADERS })).status).toBe(200);
    expect(mock.requests().map((entry) => [entry.status, entry.overridden ?? false])).toEqual([
      [500, true],
      [200, false],
    ]);
  });

  it("refuses an operation the contract does not have, naming those it has", () => {
    expect(() => mock.handlerFor("getProperty")).toThrow(
      /no operation is called "getProperty"\. The operations are retrieveProperty, /,
    );
  });
});

describe("a request a test's own handler answers", () => {
  it("stays in the journal once, marked overridden, with the status the override answered", async () => {
    server.use(http.get(`${BASE}/api/v1/object/properties/:uid`, () => HttpResponse.json([], { status: 200 })));
    const answered = await fetch(`${LIST}?page=2`, { headers: HEADERS });
    expect(await answered.json()).toEqual([]);
    const [entry, ...more] = mock.requests();
    expect(more).toEqual([]);
    expect(entry).toMatchObject({
      method: "GET",
      path: "/api/v1/object/properties/1",
      query: { page: "2" },
      status: 200,
      overridden: true,
      body: null,
      fault: null,
    });
    expect(entry!.headers).toMatchObject({ "api-key": "demo-key", token: "demo-token" });
    expect(mock).toHaveReceived({ path: "/api/v1/object/properties/1", overridden: true, status: 200 });
    expect(entry).toSatisfyContract();
  });

  it("keeps an override's body and the error status it answered; GET /__admin/requests shows both", async () => {
    server.use(
      http.post(`${BASE}/api/v1/object/property`, () => HttpResponse.json({ title: "Busy" }, { status: 503 })),
    );
    const body = { street: "1 Override Way", city: "Austin", state: "TX", zip: "78701" };
    expect(
      (
        await fetch(`${BASE}/api/v1/object/property`, {
          method: "POST",
          headers: HEADERS,
          body: JSON.stringify(body),
        })
      ).status,
    ).toBe(503);
    expect(mock).toHaveReceived(
      { method: "POST", path: "/api/v1/object/property", body, status: 503, overridden: true },
      { times: 1 },
    );
    const journal = (await (await fetch(`${BASE}/__admin/requests`)).json()) as {
      requests: Array<Record<string, unknown>>;
    };
    expect(journal.requests).toEqual([
      expect.objectContaining({ method: "POST", status: 503, overridden: true, body }),
    ]);
  });

  it("is not marked when the mock answers it; toHaveReceived's failure says which were overridden", async () => {
    server.use(http.get(`${BASE}/api/v1/object/agent_cards`, () => HttpResponse.json({}, { status: 200 })));
    await fetch(`${BASE}/api/v1/object/agent_cards`, { headers: HEADERS });
    await fetch(LIST, { headers: HEADERS });
    expect(mock.requests().map((entry) => `${entry.path} ${entry.status} ${entry.overridden ?? "-"}`)).toEqual([
      "/api/v1/object/agent_cards 200 true",
      "/api/v1/object/properties/1 200 -",
    ]);
    expect(() => expect(mock).toHaveReceived({ path: "/nowhere" })).toThrow(
      "#1 GET /api/v1/object/agent_cards → 200 (overridden)",
    );
  });

  it("is left alone when it is not the mock's: another origin, or a path outside the API", async () => {
    server.use(
      http.get(`${OTHER}/api/v1/object/agent_cards`, () => HttpResponse.json({})),
      http.get(`${BASE}/elsewhere`, () => HttpResponse.json({})),
    );
    await fetch(`${OTHER}/api/v1/object/agent_cards`, { headers: HEADERS });
    await fetch(`${BASE}/elsewhere`);
    expect(mock.requests()).toEqual([]);
  });

  it("is no longer recorded once the observer is stopped, and observing again resumes", async () => {
    server.use(http.get(`${BASE}/api/v1/object/agent_cards`, () => HttpResponse.json({})));
    stop();
    await fetch(`${BASE}/api/v1/object/agent_cards`, { headers: HEADERS });
    expect(mock.requests()).toEqual([]);
    stop = mock.observe(server);
    expect(mock.observe(server)()).toBeUndefined(); // observing twice listens once
    await fetch(`${BASE}/api/v1/object/agent_cards`, { headers: HEADERS });
    expect(mock.requests()).toHaveLength(1);
  });

  it("keeps nothing in a journal that keeps nothing (journalSize: 0), and the override still answers", async () => {
    const silent = createMockHandlers({ baseUrl: "http://silent.mock.test", journalSize: 0 });
    const stopSilent = silent.observe(server);
    try {
      server.use(
        http.post("http://silent.mock.test/api/v1/object/property", () =>
          HttpResponse.json({ nid: 1 }, { status: 200 }),
        ),
      );
      expect(
        (
          await fetch("http://silent.mock.test/api/v1/object/property", {
            method: "POST",
            headers: HEADERS,
            body: "{}",
          })
        ).status,
      ).toBe(200);
      expect(silent.requests()).toEqual([]);
    } finally {
      stopSilent();
    }
  });

  it("holds a bounded number of requests between start and answer: a network that never answers cannot grow it", () => {
    const { network, emit, listeners } = fakeNetwork();
    const bounded = createMockHandlers({ baseUrl: "http://bounded.mock.test" });
    const stopBounded = bounded.observe(network);
    for (let index = 0; index < 5000; index++)
      emit("request:start", {
        requestId: `r${index}`,
        request: new Request(`http://bounded.mock.test/api/v1/object/properties/${index}`),
      });
    emit("request:match", { requestId: "r0" }); // long forgotten: not recorded
    emit("request:match", { requestId: "r4999" });
    emit("response:mocked", { requestId: "r4999", response: new Response(null, { status: 204 }) });
    expect(bounded.requests().map((entry) => [entry.path, entry.status, entry.overridden])).toEqual([
      ["/api/v1/object/properties/4999", 204, true],
    ]);
    stopBounded();
    expect(listeners.size).toBe(0);
  });

  it("waits, when asked, for an answer MSW reports after the fetch resolved, as a page's worker does", async () => {
    const { network, emit } = fakeNetwork();
    const late = createMockHandlers({ baseUrl: "http://late.mock.test" });
    const stopLate = late.observe(network);
    try {
      const request = new Request("http://late.mock.test/api/v1/object/property", {
        method: "POST",
        headers: HEADERS,
        body: '{"street":"1 Late Lane"}',
      });
      emit("request:start", { requestId: "p1", request });
      emit("request:match", { requestId: "p1" });
      let settled = false;
      const settling = late.settled().then(() => {
        settled = true;
      });
      await turn();
      expect(settled).toBe(false);
      expect(late.requests()[0]).toMatchObject({ status: null, overridden: true });
      expect(() => expect(late).toHaveReceived({ status: 201 })).toThrow(
        "1 overridden request has no status yet: in a page, MSW reports your handler's answer after the fetch " +
          "resolves. `await mock.settled()` before this expect.",
      );

      // GET /__admin/requests waits by itself: the report comes once the admin request is on its way.
      server.use(...late.handlers);
      const listed = fetch("http://late.mock.test/__admin/requests").then(
        (response) => response.json() as Promise<{ requests: unknown[] }>,
      );
      await turn();
      emit("response:mocked", { requestId: "p1", response: new Response(null, { status: 201 }) });
      await settling;
      expect(late).toHaveReceived({ status: 201, overridden: true, body: { street: "1 Late Lane" } });
      expect((await listed).requests).toMatchObject([{ status: 201, overridden: true }]);
      await expect(late.settled()).resolves.toBeUndefined(); // nothing open: at once

      // The answer reported at once, the body still being read from the request's clone: settled() waits for it.
      emit("request:start", {
        requestId: "p2",
        request: new Request(request.url, { method: "POST", headers: HEADERS, body: '{"street":"2"}' }),
      });
      emit("request:match", { requestId: "p2" });
      emit("response:mocked", { requestId: "p2", response: new Response(null, { status: 400 }) });
      await late.settled();
      expect(late.requests().at(-1)).toMatchObject({ status: 400, body: { street: "2" } });
    } finally {
      stopLate();
    }
  });

  it("does not wait for an answer that will not be reported: once observing stops, or past its limit", async () => {
    const { network, emit } = fakeNetwork();
    const late = createMockHandlers({ baseUrl: "http://late.mock.test" });
    let stopLate = late.observe(network);
    const open = (requestId: string) => {
      emit("request:start", { requestId, request: new Request("http://late.mock.test/api/v1/object/agent_cards") });
      emit("request:match", { requestId });
    };
    open("a1");
    let released = false;
    void late.settled().then(() => {
      released = true;
    });
    stopLate();
    await turn();
    expect(released).toBe(true);
    expect(late.requests()).toMatchObject([{ status: null, overridden: true }]);

    stopLate = late.observe(network);
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    try {
      open("a2");
      let settled = false;
      const limited = late.settled().then(() => {
        settled = true;
      });
      vi.advanceTimersByTime(SETTLE_LIMIT_MS - 1);
      await Promise.resolve();
      expect(settled).toBe(false);
      vi.advanceTimersByTime(1);
      await Promise.resolve();
      expect(settled).toBe(true);
      await limited;
      expect(late.requests().map((entry) => entry.status)).toEqual([null, null]);
    } finally {
      vi.useRealTimers();
      stopLate();
    }
  });

  it("says what observe needs when given something else", () => {
    expect(() => mock.observe({} as never)).toThrow("observe takes what setupServer() or setupWorker() returned");
  });
});

/** A network whose life-cycle events the test emits itself, in the order and at the time it chooses. */
function fakeNetwork() {
  const listeners = new Map<string, (event: any) => void>();
  const network = {
    events: {
      on: (type: string, listener: (event: any) => void) => listeners.set(type, listener),
      removeListener: (type: string) => listeners.delete(type),
    },
  };
  const emit = (type: string, event: object) => listeners.get(type)!(event);
  return { network, emit, listeners };
}

/** One turn of the event loop: every promise that can settle without a new event has settled. */
function turn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
