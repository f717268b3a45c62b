/** The vitest matcher of the request journal, as a client's test uses it, failures included. */
import request from "supertest";
import { describe, expect, it } from "vitest";
import "../../src/vitest.ts";
import { createHarness } from "../support/mock-harness.ts";

const { mock, api } = createHarness();
const address = { street: "1 Main St", city: "Austin", state: "TX", zip: "78701" };
const PROPERTY = "/api/v1/object/property";

/** The message of a failed assertion, stripped of colours. */
function failure(assert: () => void): string {
  try {
    assert();
  } catch (error) {
    return (error as Error).message.replace(/\u001b\[[0-9;]*m/g, "");
  }
  throw new Error("the assertion passed");
}

describe("expect(mock).toHaveReceived(pattern)", () => {
  it("passes when a request matches, with asymmetric matchers, any-case methods and header names", async () => {
    await api("post", "/property?draft=1").send(address).expect(200);
    expect(mock).toHaveReceived({
      method: "POST",
      path: PROPERTY,
      body: expect.objectContaining({ street: "1 Main St" }),
    });
    expect(mock).toHaveReceived({
      method: "post",
      headers: { "API-KEY": "demo-key" },
      query: { draft: "1" },
      status: 200,
    });
    expect(mock).not.toHaveReceived({ method: "GET" });
    expect(mock).not.toHaveReceived({ headers: { "api-key": "other-key" } });
  });

  it("fails with what was received and a diff against the closest request", async () => {
    await api("get", "/agent_cards").expect(200);
    await api("post", "/property")
      .send({ ...address, street: "2 Main St" })
      .expect(200);
    const message = failure(() =>
      expect(mock).toHaveReceived({
        method: "POST",
        path: PROPERTY,
        body: expect.objectContaining({ street: "1 Main St" }),
      }),
    );
    expect(message).toContain("expected the mock to have received a request matching");
    expect(message).toContain("but 0 of the 2 received did.");
    expect(message).toContain("#1 GET /api/v1/object/agent_cards → 200");
    expect(message).toContain(`#2 POST ${PROPERTY} → 200  {"street":"2 Main St"`);
    expect(message).toContain("Closest, #2:");
    expect(message).toMatch(/-\s+"street": "1 Main St"/);
    expect(message).toMatch(/\+\s+"street": "2 Main St"/);
  });

  it("says so when nothing was received", () => {
    expect(failure(() => expect(mock).toHaveReceived({ path: PROPERTY }))).toContain("The journal is empty");
  });

  it("counts with { times }, and names the matches when .not fails", async () => {
    for (let attempt = 0; attempt < 2; attempt++) await api("get", "/agent_cards").expect(200);
    expect(mock).toHaveReceived({ path: "/api/v1/object/agent_cards" }, { times: 2 });
    expect(failure(() => expect(mock).toHaveReceived({ path: "/api/v1/object/agent_cards" }, { times: 3 }))).toContain(
      "to have received exactly 3 requests matching",
    );
    expect(failure(() => expect(mock).not.toHaveReceived({ method: "GET" }))).toMatch(
      /not to have received a request matching[\s\S]*but 2 did/,
    );
  });

  it("reads the body of GET /__admin/requests too, for a mock in another process", async () => {
    await api("post", "/property").send(address).expect(200);
    const { body } = await request(mock.app).get("/__admin/requests").expect(200);
    expect(body).toHaveReceived({ method: "POST", body: address });
    expect(body.requests).toHaveReceived({ method: "POST", body: address });
    expect(() => expect({}).toHaveReceived({})).toThrow(TypeError);
  });

  it("runs docs/setting-up-a-test.md's example: a client retrying a create the service refused with 503", async () => {
    const { url } = await mock.listen(0);
    try {
      /** The client under test: creates a listing, retrying once on 503. */
      const createListing = async (base: string, listing: object) => {
        for (let attempt = 1; ; attempt++) {
          const response = await fetch(`${base}/api/v1/object/property`, {
            method: "POST",
            headers: { "API-KEY": "demo-key", TOKEN: "demo-token", "content-type": "application/json" },
            body: JSON.stringify(listing),
          });
          if (response.status !== 503 || attempt === 2) return response;
        }
      };
      mock.faults.add({ method: "POST", path: "/api/v1/object/property", status: 503, times: 1 });
      await createListing(url, address);
      expect(mock).toHaveReceived({ method: "POST", path: "/api/v1/object/property", status: 503 });
      expect(mock).toHaveReceived(
        { method: "POST", path: "/api/v1/object/property", body: expect.objectContaining({ street: "1 Main St" }) },
        { times: 2 },
      );
    } finally {
      await mock.close();
    }
  });
});
