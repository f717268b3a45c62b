/** Bad input gets a clear problem+json answer and changes nothing; the mock checks its own answers. */
import request from "supertest";
import { describe, expect, it } from "vitest";
import { createMockServer } from "../../src/hosts/node/create-mock-server.ts";
import { createHarness, sharedContract } from "../support/mock-harness.ts";
import { DEMO, tinyFixtures } from "../support/tiny-fixtures.ts";

const { mock, api } = createHarness({ bodyLimit: 4096 });
const address = { street: "1 Main St", city: "Austin", state: "TX", zip: "78701" };
const snapshot = () => JSON.stringify(mock.store.state);

describe("invalid bodies", () => {
  it("lists every offending field with a JSON pointer and a readable detail", async () => {
    const before = snapshot();
    const { body, headers } = await api("post", "/property")
      .send({
        city: 7,
        state: "Texas",
        zip: "78701",
        garage: "attached",
        property_type: "Castle",
        template: "intra",
        "square feet": "1200",
        sqft: 1,
      })
      .expect(400);
    expect(headers["content-type"]).toBe("application/problem+json; charset=utf-8");
    expect(body).toMatchObject({
      type: "https://property-listing.example/problems/validation-error",
      title: "Invalid Request",
      status: 400,
      instance: "/api/v1/object/property",
    });
    expect(body.detail).toBe("The request breaks the contract in 8 places.");
    expect(
      Object.fromEntries(
        body.errors.map((error: { pointer: string; detail: string }) => [error.pointer, error.detail]),
      ),
    ).toEqual({
      "/street": "is required",
      "/sqft": "is not a field the contract allows here",
      "/city": "must be string, got integer 7",
      "/state": 'must NOT have more than 2 characters, got string "Texas"',
      "/square feet": 'must be integer, got string "1200"',
      "/garage": 'must be one of "Attached", "Detached", "None", got string "attached"',
      "/property_type": expect.stringContaining('got string "Castle"'),
      "/template": expect.stringContaining('got string "intra"'),
    });
    expect(body.errors.every((error: { in: string }) => error.in === "body")).toBe(true);
    expect(snapshot()).toBe(before);
  });

  it("points into nested fields", async () => {
    const { body } = await api("post", "/agent_card/")
      .send({
        agent_first_name: "A",
        agent_last_name: "B",
        email: "a@b.example",
        social_media_links: [
          { service: "x", url: "https://x.example", weight: "1" },
          { service: "y", url: "nope", weight: 2 },
        ],
      })
      .expect(400);
    expect(body.errors).toEqual([
      { in: "body", pointer: "/social_media_links/1/url", detail: 'must be a valid uri, got string "nope"' },
      { in: "body", pointer: "/social_media_links/1/weight", detail: "must be string, got integer 2" },
    ]);
  });

  it("refuses a body that is not an object", async () => {
    for (const body of ["[]", "42", '"street"', "null"]) {
      const { body: problem } = await api("post", "/property").send(body).expect(400);
      expect(problem.errors[0]).toMatchObject({
        in: "body",
        pointer: "",
        detail: expect.stringMatching(/^must be object/),
      });
    }
  });

  it("answers 400 for a missing body", async () => {
    const { body } = await request(mock.app)
      .post("/api/v1/object/property")
      .set({ ...DEMO, "content-type": "application/json" })
      .expect(400);
    expect(body.errors).toEqual([{ in: "body", pointer: "", detail: "a JSON body is required" }]);
  });
});

describe("malformed, oversized and mistyped bodies", () => {
  it("answers 400 for malformed JSON, saying where it breaks", async () => {
    const { body } = await api("post", "/property").send('{"street": "1 Main St",').expect(400);
    expect(body).toMatchObject({
      title: "Malformed JSON",
      status: 400,
      detail: expect.stringMatching(/^The body is not valid JSON: /),
    });
  });

  it("answers 400 for a body that is not UTF-8", async () => {
    const { url } = await mock.listen(0, "127.0.0.1");
    try {
      const response = await fetch(`${url}/api/v1/object/property`, {
        method: "POST",
        headers: { ...DEMO, "content-type": "application/json" },
        body: new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]),
      });
      expect(response.status).toBe(400);
      expect(((await response.json()) as { detail: string }).detail).toBe("The body is not valid UTF-8.");
    } finally {
      await mock.close();
    }
  });

  it("answers 413 for a body over the limit, declared or streamed, and writes nothing", async () => {
    const before = snapshot();
    const { body } = await api("post", "/property")
      .send({ ...address, description: "x".repeat(5000) })
      .expect(413);
    expect(body).toMatchObject({
      title: "Payload Too Large",
      status: 413,
      detail: "The request body exceeds 4096 bytes.",
    });
    expect(snapshot()).toBe(before);
  });

  it("answers 415 for a body in another media type", async () => {
    const { body } = await request(mock.app)
      .post("/api/v1/object/property")
      .set(DEMO)
      .type("form")
      .send("street=1")
      .expect(415);
    expect(body).toMatchObject({
      title: "Unsupported Media Type",
      detail: "The body must be sent as application/json, not application/x-www-form-urlencoded.",
    });
  });

  it("accepts a charset parameter on the content type", async () => {
    await request(mock.app)
      .post("/api/v1/object/property")
      .set({ ...DEMO, "content-type": "application/json; charset=utf-8" })
      .send(JSON.stringify(address))
      .expect(200);
  });

  it("ignores, without reading into memory, a large body sent to an operation that takes none", async () => {
    await request(mock.app)
      .delete("/api/v1/object/document/1004")
      .set({ ...DEMO, "content-type": "application/json" })
      .send("x".repeat(100_000))
      .expect(200);
  });
});

describe("prototype safety", () => {
  it("refuses __proto__ and constructor keys and leaves every prototype alone", async () => {
    const payloads = [
      '{"street":"1","city":"a","state":"TX","zip":"1","__proto__":{"polluted":true}}',
      '{"street":"1","city":"a","state":"TX","zip":"1","constructor":{"prototype":{"polluted":true}}}',
    ];
    for (const payload of payloads) {
      const { body } = await api("post", "/property").send(payload).expect(400);
      expect(body.errors[0].detail).toBe("is not a field the contract allows here");
    }
    await api("put", "/property/1001").send('{"__proto__":{"polluted":true}}').expect(400);
    await api("put", "/agent_card/1003")
      .send(
        '{"social_media_links":[{"service":"x","url":"https://x.example","weight":"1","__proto__":{"polluted":true}}]}',
      )
      .expect(400);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(mock.store.record("properties", 1001))).toBe(Object.prototype);
  });
});

describe("routes", () => {
  it("answers 404 problem+json for an unknown path, and points at a missing trailing slash", async () => {
    const { body } = await api("post", "/agent_card").send({}).expect(404);
    expect(body.detail).toBe(
      "No operation of the Property Listing Service at POST /api/v1/object/agent_card. Did you mean POST " +
        "/api/v1/object/agent_card/? The trailing slash is part of the path.",
    );
    const other = await request(mock.app).get("/nowhere").expect(404);
    expect(other.headers["content-type"]).toBe("application/problem+json; charset=utf-8");
  });

  it("answers 405 with Allow for a method the path does not have", async () => {
    const { body, headers } = await api("delete", "/property/1001").expect(405);
    expect(headers.allow).toBe("GET, PUT");
    expect(body).toMatchObject({ title: "Method Not Allowed", status: 405 });
  });
});

describe("the mock checks its own answers", () => {
  it("answers 500 and records the violation when a stored record breaks the contract", async () => {
    const broken = createMockServer({
      fixtures: tinyFixtures(),
      contract: sharedContract(),
      validateResponses: true,
      log: () => {},
    });
    // Raw writes cannot store such a record (the stored shapes refuse it), so the test breaks the record in place.
    Object.assign(broken.store.record("properties", 1001)!, { list_price: 485000, floorplans_extra: true });
    const { body } = await request(broken.app)
      .get("/api/v1/object/property/1001")
      .set({ ...DEMO, "content-type": "application/json" })
      .expect(500);
    expect(body).toMatchObject({ title: "Mock Response Breaks The Contract", status: 500 });
    expect(body.detail).toContain(
      "retrieveProperty response.body/list_price: must be a numeric string or null, got integer 485000",
    );
    expect(body.detail).toContain("response.body/floorplans_extra: is not a field the contract lists");
    expect(broken.violations).toHaveLength(1);
    expect(broken.violations[0]!.request).toBe("GET /api/v1/object/property/1001");
  });

  it("checks the list-by-user answer too, which it sends already encoded", async () => {
    const broken = createMockServer({
      fixtures: tinyFixtures(),
      contract: sharedContract(),
      validateResponses: true,
      log: () => {},
    });
    Object.assign(broken.store.record("properties", 1001)!, { title: 42 });
    const { body } = await request(broken.app)
      .get("/api/v1/object/properties/1")
      .set({ ...DEMO, "content-type": "application/json" })
      .expect(500);
    expect(body.detail).toContain("listUserProperties response.body/0/title");
    expect(broken.violations).toHaveLength(1);
  });

  it("checks an answer sent again unchanged only once, and anything else again, reporting every failure", async () => {
    const checked = createMockServer({
      fixtures: tinyFixtures(),
      contract: sharedContract(),
      validateResponses: true,
      log: () => {},
    });
    const get = (status: number) =>
      request(checked.app)
        .get("/api/v1/object/property/1001")
        .set({ ...DEMO, "content-type": "application/json" })
        .expect(status);
    const first = await get(200);
    const again = await get(200);
    expect(again.text).toBe(first.text);
    expect(again.headers["content-type"]).toBe("application/json; charset=utf-8");
    // Broken through the store (a change it announces, so the answer is encoded anew): the answer's bytes
    // differ, so it is checked, and refused each time it is sent
    checked.store.update("properties", checked.store.record("properties", 1001)!, {
      list_price: 485000 as unknown as string,
    });
    await get(500);
    await get(500);
    expect(checked.violations).toHaveLength(2);
    checked.store.update("properties", checked.store.record("properties", 1001)!, { list_price: "485000" });
    expect((await get(200)).text).toBe(first.text);
  });

  it("checks the list-by-user answer again once the state changed", async () => {
    const checked = createMockServer({
      fixtures: tinyFixtures(),
      contract: sharedContract(),
      validateResponses: true,
      log: () => {},
    });
    const headers = { ...DEMO, "content-type": "application/json" };
    await request(checked.app).get("/api/v1/object/properties/1").set(headers).expect(200);
    // Broken in place, then changed through the API: the list is encoded anew, checked, and refused
    Object.assign(checked.store.record("properties", 1001)!, { published: 5 });
    await request(checked.app).put("/api/v1/object/property/1001").set(headers).send({ title: "Edited" }).expect(200);
    const { body } = await request(checked.app).get("/api/v1/object/properties/1").set(headers).expect(500);
    expect(body.detail).toContain("listUserProperties response.body/0/published");
    expect(checked.violations).toHaveLength(1);
  });

  it("sends such an answer unchanged when the check is off", async () => {
    const unchecked = createMockServer({ fixtures: tinyFixtures(), contract: sharedContract() });
    Object.assign(unchecked.store.record("properties", 1001)!, { list_price: 485000 });
    const { body } = await request(unchecked.app)
      .get("/api/v1/object/property/1001")
      .set({ ...DEMO, "content-type": "application/json" })
      .expect(200);
    expect(body.list_price).toBe(485000);
  });
});
