/**
 * The page of test/browser/msw-worker.test.ts, bundled by esbuild with no framework: it starts MSW's worker
 * with the kit's handlers, then calls the API with its own fetch as a frontend would, and puts what it got on
 * `window.results` for the test to read.
 */
import { http, HttpResponse } from "msw";
import { setupWorker } from "msw/browser";
import { createListingClient } from "../../../src/client.ts";
import { createMockHandlers } from "../../../src/msw.ts";

/** The page's window (the project's TypeScript has no DOM library). */
const page = globalThis as unknown as {
  navigator: { serviceWorker: { controller: object | null } };
  location: { search: string; origin: string };
  sessionStorage: { getItem(key: string): string | null; setItem(key: string, value: string): void };
  results?: unknown;
};
// `?persist`: the state is kept in sessionStorage across reloads (runKept below).
const kept = page.location.search.includes("persist");
// `?client`: the typed client, made before and after the worker starts, and an override the journal still sees.
const typed = page.location.search.includes("client");
const mock = createMockHandlers({ validateResponses: true, ...(kept ? { persist: "sessionStorage" as const } : {}) });
const worker = setupWorker(...mock.handlers);
const headers = { "API-KEY": "demo-key", TOKEN: "demo-token", "content-type": "application/json" };
const agent = { agent_first_name: "Page", agent_last_name: "Agent", email: "page.agent@harbor.example" };

async function call(method: string, path: string, body?: unknown, sent: Record<string, string> = headers) {
  const response = await fetch(path, {
    method,
    headers: sent,
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return {
    status: response.status,
    type: response.headers.get("content-type"),
    body: (await response.json()) as Record<string, unknown> & unknown[],
  };
}

async function run() {
  await worker.start({ serviceWorker: { url: "/mockServiceWorker.js" }, onUnhandledRequest: "bypass", quiet: true });
  const listed = await call("GET", "/api/v1/object/properties/1");
  const created = await call("POST", "/api/v1/object/property", {
    street: "1 Worker Way",
    city: "Austin",
    state: "TX",
    zip: "78701",
  });
  const retrieved = await call("GET", `/api/v1/object/property/${created.body.nid}`);
  const listedAfter = await call("GET", "/api/v1/object/properties/1");
  const firstAgent = await call("POST", "/api/v1/object/agent_card/", agent);
  const duplicate = await call("POST", "/api/v1/object/agent_card/", agent);
  const badBody = await call("POST", "/api/v1/object/property", { street: 12 });
  const anonymous = await call("GET", "/api/v1/object/properties/1", undefined, { "content-type": "application/json" });
  const journal = mock.requests().length;
  mock.reset();
  const listedAfterReset = await call("GET", "/api/v1/object/properties/1");
  const retrievedAfterReset = await call("GET", `/api/v1/object/property/${created.body.nid}`);
  return {
    listed: [listed.status, listed.body.length],
    created: [created.status, typeof created.body.nid],
    retrieved: [retrieved.status, retrieved.body.street],
    listedAfter: [listedAfter.status, listedAfter.body.length],
    firstAgent: firstAgent.status,
    duplicate: [duplicate.status, duplicate.body.title, duplicate.type],
    badBody: [badBody.status, badBody.type],
    anonymous: [anonymous.status, anonymous.body.title],
    journal,
    listedAfterReset: [listedAfterReset.status, listedAfterReset.body.length],
    retrievedAfterReset: retrievedAfterReset.status,
    violations: mock.violations.length,
    controlled: page.navigator.serviceWorker.controller !== null,
  };
}

/** Across reloads: the first load creates a property, the second finds it and resets, the third finds the seed. */
async function runKept() {
  await worker.start({ serviceWorker: { url: "/mockServiceWorker.js" }, onUnhandledRequest: "bypass", quiet: true });
  const load = Number(page.sessionStorage.getItem("test-load") ?? "0") + 1;
  page.sessionStorage.setItem("test-load", String(load));
  if (load === 1) {
    const created = await call("POST", "/api/v1/object/property", {
      street: "2 Kept Lane",
      city: "Austin",
      state: "TX",
      zip: "78701",
    });
    page.sessionStorage.setItem("test-nid", String(created.body.nid));
    return { load, created: created.status };
  }
  const retrieved = await call("GET", `/api/v1/object/property/${page.sessionStorage.getItem("test-nid")}`);
  if (load === 2) mock.reset();
  return { load, retrieved: [retrieved.status, retrieved.body.street ?? null] };
}

/** The typed client made before `worker.start()` and after it, both answered by the worker; then an override. */
async function runClient() {
  const early = createListingClient({ baseUrl: page.location.origin, apiKey: "demo-key", token: "demo-token" });
  await worker.start({ serviceWorker: { url: "/mockServiceWorker.js" }, onUnhandledRequest: "bypass", quiet: true });
  const stop = mock.observe(worker);
  const late = createListingClient({ baseUrl: page.location.origin, apiKey: "demo-key", token: "demo-token" });
  const fromEarly = await early.GET("/api/v1/object/properties/{uid}", { params: { path: { uid: 1 } } });
  const fromLate = await late.GET("/api/v1/object/properties/{uid}", { params: { path: { uid: 1 } } });
  worker.use(http.get("/api/v1/object/agent_cards", () => HttpResponse.json({}, { status: 200 })));
  const overridden = await late.GET("/api/v1/object/agent_cards");
  // The worker reports the override's answer by a message that may come after the fetch resolved: the admin route
  // waits for it by itself, a read of the journal in the page after settled().
  const listed = (await (await fetch("/__admin/requests")).json()) as { requests: Array<{ status: number | null }> };
  await mock.settled();
  const journal = mock
    .requests()
    .map((entry) => [
      entry.method,
      entry.path,
      entry.status,
      entry.overridden ?? false,
      entry.headers["api-key"],
      entry.headers["content-type"],
    ]);
  stop();
  return {
    early: [fromEarly.response.status, Array.isArray(fromEarly.data)],
    late: [fromLate.response.status, Array.isArray(fromLate.data)],
    overridden: [overridden.response.status, overridden.data],
    journal,
    listed: listed.requests.map((entry) => entry.status),
  };
}

(kept ? runKept() : typed ? runClient() : run()).then(
  (results) => Object.assign(page, { results }),
  (error: unknown) => Object.assign(page, { results: { error: String((error as Error).stack ?? error) } }),
);
