/**
 * One manner for mistakes in code: a call that configures the mock in-process and is refused throws, in both hosts,
 * with the words the admin route answers for the same input, and changes nothing. A test that ignored a returned
 * failure would otherwise run with no fault at all.
 */
import { setupServer } from "msw/node";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMockServer } from "../../src/hosts/node/create-mock-server.ts";
import { MockRefused } from "../../src/mock/mock-refused.ts";
import { createMockHandlers } from "../../src/msw.ts";
import { sharedContract } from "../support/mock-harness.ts";

const server = createMockServer({ contract: sharedContract() });
const BASE = "http://refusals.mock.test";
const handlers = createMockHandlers({ baseUrl: BASE });
const msw = setupServer(...handlers.handlers);
// supertest's requests to the Node server pass by MSW.
beforeAll(() => msw.listen({ onUnhandledRequest: "bypass" }));
afterAll(() => msw.close());

/** What `POST /__admin/faults` answers for a rule, on the Node server and through the handlers. */
async function routeAnswers(rule: unknown) {
  const node = await request(server.app)
    .post("/__admin/faults")
    .set("content-type", "application/json")
    .send(JSON.stringify(rule));
  const page = await fetch(`${BASE}/__admin/faults`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(rule),
  });
  return {
    node: { status: node.status, body: node.body },
    msw: {
      status: page.status,
      body: (await page.json()) as { detail: string; errors?: Array<{ pointer: string; detail: string }> },
    },
  };
}

const REFUSED = [
  { path: "/api/v1/object/nothing-here", status: 503 },
  { method: "DELETE", path: "/api/v1/object/property", status: 503 },
  { path: "/api/v1/object/property", status: 200 },
  { path: "/api/v1/object/property", status: 503, extra: true },
];

describe("faults.add refused", () => {
  it.each(REFUSED)("throws the route's message for %j, in both hosts, and adds nothing", async (rule) => {
    const answered = await routeAnswers(rule);
    expect(answered.node.status).toBe(400);
    expect(answered.msw.body).toEqual(answered.node.body);
    for (const mock of [server, handlers]) {
      mock.faults.clear();
      let thrown: unknown;
      try {
        mock.faults.add(rule);
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(MockRefused);
      const refused = thrown as MockRefused;
      expect(refused.message).toContain(answered.node.body.detail);
      for (const error of answered.node.body.errors ?? [])
        expect(refused.message).toContain(`${error.pointer} ${error.detail}`);
      expect(refused.problem).toEqual({ ...answered.node.body, instance: "/__admin/faults" });
      expect(mock.faults.list()).toEqual([]);
    }
  });

  it("gives the rule with its id when it is accepted", () => {
    for (const mock of [server, handlers]) {
      mock.faults.clear();
      expect(mock.faults.add({ path: "/api/v1/object/property", method: "post", status: 503, times: 1 })).toEqual({
        id: 1,
        method: "POST",
        path: "/api/v1/object/property",
        status: 503,
        times: 1,
      });
      mock.faults.clear();
    }
  });
});

describe("useState refused", () => {
  it("throws, in both hosts, the detail POST /__admin/state answers for an unknown name; changes nothing", async () => {
    const node = await request(server.app)
      .post("/__admin/state")
      .set("content-type", "application/json")
      .send(JSON.stringify({ state: "no-such-state" }));
    expect(node.status).toBe(400);
    const detail = (node.body as { detail: string }).detail;
    for (const mock of [server, handlers]) {
      mock.faults.clear();
      mock.faults.add({ path: "/api/v1/object/property", status: 503 });
      expect(() => mock.useState("no-such-state")).toThrow(detail);
      expect(mock.faults.list()).toHaveLength(1);
      mock.faults.clear();
    }
  });
});
