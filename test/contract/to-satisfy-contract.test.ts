/** The vitest matcher a client's own tests use: `expect(response).toSatisfyContract()`. */
import request from "supertest";
import { describe, expect, it } from "vitest";
import "../../src/vitest.ts";
import { checkAgainstContract } from "../../src/contract/to-satisfy-contract.ts";
import { createMockServer } from "../../src/hosts/node/create-mock-server.ts";
import { sharedContract } from "../support/mock-harness.ts";
import { DEMO, tinyFixtures } from "../support/tiny-fixtures.ts";

const mock = createMockServer({ fixtures: tinyFixtures(), contract: sharedContract() });
const headers = { ...DEMO, "content-type": "application/json" };

describe("responses", () => {
  it("passes a supertest response of the mock", async () => {
    const response = await request(mock.app).get("/api/v1/object/property/1001").set(headers);
    expect(response).toSatisfyContract();
  });

  it("passes a recorded exchange given with a full url, and fails a broken one with every place named", () => {
    const recorded = {
      method: "POST",
      url: "http://localhost:4010/api/v1/object/document/",
      status: 200,
      headers: { "content-type": "application/json" },
      body: { nid: 4001 },
    };
    expect(recorded).toSatisfyContract();
    const broken = { ...recorded, body: { nid: "4001" } };
    expect(broken).not.toSatisfyContract();
    expect(() => expect(broken).toSatisfyContract()).toThrow(
      "expected POST /api/v1/object/document/ → 200 to satisfy the contract, but it breaks it in 1 place:\n  " +
        'createDocument response.body/nid: must be integer, got string "4001" [type]',
    );
  });

  it("counts the contract's assumptions unless told to look at documented facts only", () => {
    const otherErrorShape = {
      method: "POST",
      path: "/api/v1/object/property",
      status: 400,
      headers: { "content-type": "application/json" },
      body: { error: "bad" },
    };
    expect(otherErrorShape).not.toSatisfyContract();
    expect(otherErrorShape).toSatisfyContract({ tier: "fact" });
    const wrongSuccess = {
      method: "GET",
      path: "/api/v1/object/template_base",
      status: 200,
      headers: { "content-type": "application/json" },
      body: { templates: [{ title: "Icon", machine_name: "icon", access_level: "standard" }] },
    };
    expect(wrongSuccess).not.toSatisfyContract({ tier: "fact" });
  });
});

describe("requests", () => {
  it("passes what a client may send and fails what it may not", () => {
    const body = { street: "1 Main St", city: "Austin", state: "TX", zip: "78701" };
    expect({ method: "POST", path: "/api/v1/object/property", headers, body }).toSatisfyContract();
    expect(() =>
      expect({
        method: "POST",
        path: "/api/v1/object/property",
        headers,
        body: { ...body, garage: "attached" },
      }).toSatisfyContract(),
    ).toThrow(
      'createProperty request.body/garage: must be one of "Attached", "Detached", "None", got string "attached" [enum]',
    );
    expect({ method: "POST", path: "/api/v1/object/agent_card", headers, body: {} }).not.toSatisfyContract();
  });

  it("checks a request and its answer together", () => {
    const exchange = {
      request: { method: "PUT", path: "/api/v1/object/document/4001", headers, body: { visible: false } },
      response: { status: 200, headers: { "content-type": "application/json" }, body: { nid: 4001 } },
    };
    expect(() => expect(exchange).toSatisfyContract()).toThrow(
      "updateDocument response.body/nid: must be string, got integer 4001",
    );
  });

  it("says what it needs when given something else", () => {
    expect(() => expect("GET /").toSatisfyContract()).toThrow(
      "toSatisfyContract expects a request or a response object",
    );
    expect(() => expect({ path: "/x" }).toSatisfyContract()).toThrow("toSatisfyContract needs the request's method");
  });
});

describe("request journal entries", () => {
  it("judges an entry as the request it records, not as an answer: a GET without a body passes", async () => {
    mock.reset();
    await request(mock.app).get("/api/v1/object/properties/1").set(headers);
    const [entry] = mock.requests();
    expect(entry!.body).toBeNull();
    expect(entry!.status).toBe(200);
    expect(entry).toSatisfyContract();
  });

  it("fails an entry whose request broke the contract, naming its places; judges a carried answer too", async () => {
    mock.reset();
    await request(mock.app).post("/api/v1/object/property").set(headers).send({ street: 12 });
    const [entry] = mock.requests();
    expect(entry!.status).toBe(400);
    expect(() => expect(entry).toSatisfyContract()).toThrow(/createProperty request\.body\/street: must be string/);
    const withAnswer = {
      ...entry!,
      body: { street: "1 Main St", city: "Austin", state: "TX", zip: "78701" },
      response: { status: 200, headers: { "content-type": "application/json" }, body: { nid: 1 } },
    };
    expect(() => expect(withAnswer).toSatisfyContract()).toThrow(/createProperty response\.body\/nid/);
    expect(() => expect(withAnswer).toSatisfyContract()).not.toThrow(/request\.body/);
  });

  it("judges the query an entry records", async () => {
    mock.reset();
    await request(mock.app).get("/api/v1/object/properties/1?page=x").set(headers);
    const [entry] = mock.requests();
    expect(entry!.query).toEqual({ page: "x" });
    const checked = checkAgainstContract(entry);
    expect(checked.label).toBe("GET /api/v1/object/properties/1?page=x");
  });
});
