/**
 * Issue 30, item 3: for the same state, a handler set under MSW's setupServer answers every API request with the
 * same status, content-type and body bytes as the Node server. One sequence of samples (every operation's success
 * from the spec's examples, then each kind of error: no credentials, another account's token, a body that breaks
 * the contract, malformed JSON, the wrong media type, too large, an unknown id, a path or method the contract
 * lacks, a Prefer code, a fault rule, the admin surface) goes to both, request by request, from the same seed.
 * Then the contract runner, in-process against the handlers, passes as it passes against the server.
 */
import { setupServer } from "msw/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runContract } from "../../src/contract/runner/run-contract.ts";
import { createMockServer } from "../../src/hosts/node/create-mock-server.ts";
import { createMockHandlers, loadProfilePlayback, ProfileRefused } from "../../src/msw.ts";
import { operationRequests } from "../support/operation-requests.ts";
import { sharedContract } from "../support/mock-harness.ts";
import { DEMO, OTHER, tinyFixtures } from "../support/tiny-fixtures.ts";
import { error, PROFILE } from "../support/sample-profile.ts";

const BASE = "http://mock.test";
const SAME = {
  fixtures: tinyFixtures(),
  autologinSecret: "same-secret",
  baseUrl: BASE,
  now: () => Date.UTC(2026, 0, 2, 3, 4, 5),
};
const server = createMockServer({ ...SAME, contract: sharedContract(), validateResponses: true });
const handlers = createMockHandlers({ ...SAME, validateResponses: true });
const runnerHandlers = createMockHandlers({ baseUrl: "http://runner.mock.test", validateResponses: true });
const msw = setupServer(...handlers.handlers, ...runnerHandlers.handlers);
let serverUrl = "";

const PROFILED = "http://profiled.mock.test";
const profiledServer = createMockServer({
  ...SAME,
  baseUrl: PROFILED,
  contract: sharedContract(),
  validateResponses: true,
  profile: PROFILE,
  quiet: true,
});
let profiledUrl = "";
let profiledHandlers: ReturnType<typeof createMockHandlers>;

beforeAll(async () => {
  ({ url: serverUrl } = await server.listen(0));
  ({ url: profiledUrl } = await profiledServer.listen(0));
  profiledHandlers = createMockHandlers({
    ...SAME,
    baseUrl: PROFILED,
    validateResponses: true,
    playback: await loadProfilePlayback(PROFILE),
  });
  msw.use(...profiledHandlers.handlers);
  msw.listen({ onUnhandledRequest: "bypass" }); // the server's own port is reached through the network
});
afterAll(async () => {
  msw.close();
  await server.close();
  await profiledServer.close();
});

interface Sample {
  name: string;
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

const JSON_TYPE = { "content-type": "application/json" };
const API = "/api/v1/object";

/** The samples, in the order they are sent: successes first (they change the state), then every kind of error. */
function samples(): Sample[] {
  const list: Sample[] = [];
  const operations = operationRequests();
  for (const request of operations) {
    list.push({
      name: `${request.operationId} succeeds`,
      method: request.method.toUpperCase(),
      path: `${API}${request.path}`,
      headers: { ...DEMO, ...JSON_TYPE },
      ...(request.body === undefined ? {} : { body: JSON.stringify(request.body) }),
    });
  }
  // The rules of the service: a duplicate agent (409), agents past the account's seats (402), a document of a
  // property that does not exist (422).
  const agent = operations.find((request) => request.operationId === "createAgentCard")!;
  const document = operations.find((request) => request.operationId === "createDocument");
  const agentBody = (email: string) => JSON.stringify({ ...(agent.body as object), email });
  list.push({
    name: "a duplicate agent",
    method: "POST",
    path: `${API}${agent.path}`,
    headers: { ...DEMO, ...JSON_TYPE },
    body: agentBody("new.agent@harbor.example"),
  });
  for (const n of [2, 3, 4])
    list.push({
      name: `agent ${n} against three seats`,
      method: "POST",
      path: `${API}${agent.path}`,
      headers: { ...DEMO, ...JSON_TYPE },
      body: agentBody(`agent.${n}@harbor.example`),
    });
  if (document)
    list.push({
      name: "a document of an unknown property",
      method: "POST",
      path: `${API}${document.path}`,
      headers: { ...DEMO, ...JSON_TYPE },
      body: JSON.stringify({ ...(document.body as object), property_reference: 999999 }),
    });
  for (const request of operations) {
    const method = request.method.toUpperCase();
    const path = `${API}${request.path}`;
    list.push({
      name: `${request.operationId} without credentials`,
      method,
      path,
      headers: JSON_TYPE,
      ...(request.body === undefined ? {} : { body: JSON.stringify(request.body) }),
    });
    list.push({
      name: `${request.operationId} with another account's token`,
      method,
      path,
      headers: { "API-KEY": DEMO["API-KEY"], TOKEN: OTHER.TOKEN, ...JSON_TYPE },
    });
    list.push({
      name: `${request.operationId} asked for 503 by Prefer`,
      method,
      path,
      headers: { ...DEMO, ...JSON_TYPE, Prefer: "code=503" },
      ...(request.body === undefined ? {} : { body: JSON.stringify(request.body) }),
    });
    if (request.body !== undefined) {
      list.push({
        name: `${request.operationId} with a body that breaks the contract`,
        method,
        path,
        headers: { ...DEMO, ...JSON_TYPE },
        body: JSON.stringify({ street: 5, email: [], unknown: { deep: true } }),
      });
      list.push({
        name: `${request.operationId} with malformed JSON`,
        method,
        path,
        headers: { ...DEMO, ...JSON_TYPE },
        body: '{"street": ',
      });
      list.push({
        name: `${request.operationId} as text/plain`,
        method,
        path,
        headers: { ...DEMO, "content-type": "text/plain" },
        body: "street=1",
      });
      list.push({
        name: `${request.operationId} too large`,
        method,
        path,
        headers: { ...DEMO, ...JSON_TYPE },
        body: JSON.stringify({ description: "x".repeat(1024 * 1024) }),
      });
    }
    if (/\/\d+$/.test(path))
      list.push({
        name: `${request.operationId} of an unknown id`,
        method,
        path: path.replace(/\d+$/, "999999"),
        headers: { ...DEMO, ...JSON_TYPE },
      });
  }
  list.push(
    { name: "a path the contract lacks", method: "GET", path: `${API}/nothing`, headers: { ...DEMO, ...JSON_TYPE } },
    {
      name: "a trailing slash too many",
      method: "GET",
      path: `${API}/template_base/`,
      headers: { ...DEMO, ...JSON_TYPE },
    },
    {
      name: "a method the path lacks",
      method: "PATCH",
      path: `${API}/property/1001`,
      headers: { ...DEMO, ...JSON_TYPE },
    },
    { name: "a non-canonical id", method: "GET", path: `${API}/property/01001`, headers: { ...DEMO, ...JSON_TYPE } },
    {
      name: "a bad Prefer",
      method: "GET",
      path: `${API}/template_base`,
      headers: { ...DEMO, ...JSON_TYPE, Prefer: "code=200" },
    },
    {
      name: "a fault rule added",
      method: "POST",
      path: "/__admin/faults",
      headers: JSON_TYPE,
      body: JSON.stringify({ path: `${API}/template_base`, status: 418, times: 1 }),
    },
    { name: "the fault rule played", method: "GET", path: `${API}/template_base`, headers: { ...DEMO, ...JSON_TYPE } },
    {
      name: "a fault rule refused",
      method: "POST",
      path: "/__admin/faults",
      headers: JSON_TYPE,
      body: JSON.stringify({ path: "nowhere", drop: "yes" }),
    },
    { name: "the fault rules listed", method: "GET", path: "/__admin/faults" },
    {
      name: "an admin write as a form",
      method: "POST",
      path: "/__admin/reset",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "a=1",
    },
    { name: "health", method: "GET", path: "/healthz" },
    { name: "the spec as JSON", method: "GET", path: "/openapi.json" },
    {
      name: "an auto-login address never issued",
      method: "GET",
      path: "/autologin/1-1001-00000000000000000000000000000000",
    },
    { name: "reset", method: "POST", path: "/__admin/reset" },
    { name: "after the reset", method: "GET", path: `${API}/properties/1`, headers: { ...DEMO, ...JSON_TYPE } },
  );
  return list;
}

async function send(
  origin: string,
  sample: Sample,
): Promise<{ status: number; contentType: string | null; body: string }> {
  const response = await fetch(`${origin}${sample.path}`, {
    method: sample.method,
    headers: sample.headers ?? {},
    ...(sample.body === undefined ? {} : { body: sample.body }),
  });
  return {
    status: response.status,
    contentType: response.headers.get("content-type"),
    body: Buffer.from(await response.arrayBuffer()).toString("base64"),
  };
}

/** Sends every sample to both, one after the other; the statuses met. */
async function compare(serverOrigin: string, handlersOrigin: string): Promise<Set<number>> {
  const statuses = new Set<number>();
  for (const sample of samples()) {
    const fromServer = await send(serverOrigin, sample);
    const fromHandlers = await send(handlersOrigin, sample);
    expect(fromHandlers, sample.name).toEqual(fromServer);
    statuses.add(fromServer.status);
  }
  return statuses;
}

describe("the same answers from the Node server and the handlers under setupServer", () => {
  it("answers every sample, success and error, with the same status, content-type and body bytes", {
    timeout: 120_000,
  }, async () => {
    const statuses = await compare(serverUrl, BASE);
    // The samples reach every kind of answer (else comparing them proves little), the auto-login page included.
    expect([...statuses].sort()).toEqual(
      expect.arrayContaining([200, 201, 400, 401, 402, 404, 405, 409, 413, 415, 418, 422, 503]),
    );
    const created = await send(serverUrl, {
      name: "",
      method: "POST",
      path: `${API}/property`,
      headers: { ...DEMO, ...JSON_TYPE },
      body: JSON.stringify({ street: "1 Main St", city: "Springfield", state: "IL", zip: "62701" }),
    });
    const fromHandlers = await send(BASE, {
      name: "",
      method: "POST",
      path: `${API}/property`,
      headers: { ...DEMO, ...JSON_TYPE },
      body: JSON.stringify({ street: "1 Main St", city: "Springfield", state: "IL", zip: "62701" }),
    });
    expect(fromHandlers).toEqual(created);
    const page = new URL(JSON.parse(Buffer.from(created.body, "base64").toString()).uri).pathname;
    const signedIn = [
      await send(serverUrl, { name: "", method: "GET", path: page }),
      await send(BASE, { name: "", method: "GET", path: page }),
    ];
    expect(signedIn[0]!.status).toBe(200);
    expect(signedIn[1]).toEqual(signedIn[0]);
    expect([server.violations, handlers.violations]).toEqual([[], []]);
  });

  it("plays a service profile as the server plays it: the same answers to every sample", {
    timeout: 120_000,
  }, async () => {
    const statuses = await compare(profiledUrl, PROFILED);
    expect([...statuses]).toEqual(expect.arrayContaining([403, 422]));
    expect([profiledServer.violations, profiledHandlers.violations]).toEqual([[], []]);
  });

  it("refuses a profile the document contradicts, whole, naming the entry", async () => {
    const broken = {
      ...PROFILE,
      observations: { ...PROFILE.observations, "error.not_found": error(200, { message: "fine" }) },
    };
    const refused = await loadProfilePlayback(broken).catch((thrown: unknown) => thrown);
    expect(refused).toBeInstanceOf(ProfileRefused);
    expect((refused as ProfileRefused).problems).toEqual([
      expect.stringMatching(/^entry \/observations\/error\.not_found: status 200 is not a refusal/),
    ]);
    await expect(loadProfilePlayback("{not json")).rejects.toThrow(/not JSON/);
  });

  it("passes the contract runner run in-process against the handlers", { timeout: 300_000 }, async () => {
    const outcome = await runContract({
      baseUrl: "http://runner.mock.test",
      apiKey: "runner-key",
      token: "runner-token",
      other: { apiKey: "runner-other", token: "other-token" },
      fresh: { apiKey: "runner-fresh", token: "fresh-token" },
      contract: sharedContract(),
      runId: "msw",
    });
    if (outcome.kind !== "report") throw new Error(outcome.message);
    expect(outcome.report.results.filter((result) => result.status !== "passed")).toEqual([]);
    expect(outcome.report.result).toBe("passed");
    expect(
      Object.entries(outcome.report.coverage).filter(([, coverage]) => coverage.statuses.includes(200)),
    ).toHaveLength(15);
    expect(runnerHandlers.violations).toEqual([]);
  });
});
