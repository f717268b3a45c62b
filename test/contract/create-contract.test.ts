/** The compiled contract's public surface: matching concrete paths, and the shapes of what it validates. */
import { describe, expect, it } from "vitest";
import { createContract, headerValue, normalizeHeaders } from "../../src/contract/create-contract.ts";
import { createMockServer } from "../../src/hosts/node/create-mock-server.ts";

const contract = createContract();
/** What the contract finds wrong in a 200 JSON answer to a GET of this path with this body. */
const errorsOfJsonAnswer = (path: string, body: unknown) =>
  contract.validateResponse({
    method: "GET",
    path,
    status: 200,
    headers: { "content-type": "application/json" },
    body,
  }).errors;

describe("match", () => {
  it.each([
    ["GET", "/api/v1/object/property/42", "retrieveProperty", { nid: "42" }],
    ["PUT", "/api/v1/object/property/42?draft=1", "editProperty", { nid: "42" }],
    ["POST", "/api/v1/object/property", "createProperty", {}],
    ["POST", "/api/v1/object/agent_card/", "createAgentCard", {}],
    ["POST", "/api/v1/object/agent_card/3001", "retrieveAgentCard", { nid: "3001" }],
    ["post", "/api/v1/object/document/", "createDocument", {}],
    [
      "GET",
      "/api/v1/object/external-property/crm%2F7%20a",
      "retrievePropertyByExternalId",
      { "external-id": "crm/7 a" },
    ],
    ["GET", "/api/v1/object/external-property/%E0%A4%A", "retrievePropertyByExternalId", { "external-id": "%E0%A4%A" }],
    ["GET", "/api/v1/object/template_base", "retrieveTemplateCatalogue", {}],
  ])("%s %s is %s", (method, path, operationId, params) => {
    const found = contract.match(method, path);
    expect(found.kind === "operation" && found.operation.id).toBe(operationId);
    expect(found.kind === "operation" && found.pathParams).toEqual(params);
  });

  it.each([
    ["POST", "/api/v1/object/agent_card"],
    ["POST", "/api/v1/object/document"],
    ["GET", "/api/v1/object/property/42/"],
    ["GET", "/api/v1/object/property/"],
    ["GET", "/api/v2/object/property/42"],
  ])("%s %s is no operation (the trailing slash is part of the path)", (method, path) => {
    expect(contract.match(method, path)).toEqual({ kind: "no-route" });
  });

  it("tells the methods a path has when the method is not one", () => {
    expect(contract.match("PATCH", "/api/v1/object/agent_card/3001")).toEqual({
      kind: "method-not-allowed",
      allowed: ["PUT", "POST", "DELETE"],
    });
  });
});

describe("validateRequest and validateResponse", () => {
  const body = { street: "1 Main St", city: "Austin", state: "TX", zip: "78701" };

  it("reads headers in any case, from a record or a fetch Headers object", () => {
    const record = { "api-key": "k", token: "t", "Content-Type": "application/json; charset=utf-8" };
    expect(
      contract.validateRequest({ method: "POST", path: "/api/v1/object/property", headers: record, body }).valid,
    ).toBe(true);
    expect(
      contract.validateRequest({ method: "POST", path: "/api/v1/object/property", headers: new Headers(record), body })
        .valid,
    ).toBe(true);
  });

  it("reads a record's own headers only, the first of repeated values, the last of names differing in case", () => {
    const inherited = Object.assign(Object.create({ "api-key": "from the prototype" }) as Record<string, unknown>, {
      token: ["t", "t2"],
      "content-type": "text/plain",
      "Content-Type": "application/json",
    });
    const result = contract.validateRequest({
      method: "GET",
      path: "/api/v1/object/property/1",
      headers: inherited as Record<string, string>,
    });
    expect(result.errors.map((error) => error.location)).toEqual(["request.header/API-KEY"]);
    expect(normalizeHeaders({ token: ["t", "t2"], "x-count": 3 })).toEqual(
      new Map([
        ["token", "t"],
        ["x-count", "3"],
      ]),
    );
  });

  it("reads one header as the normalized map holds it, without building the map", () => {
    const bags = [
      { token: ["t", "t2"], "x-count": 3 },
      { "content-type": "text/plain", "Content-Type": "application/json", "API-KEY": null, "api-key": "k" },
      { "Api-Key": [], "API-KEY": "second", TOKEN: undefined },
      Object.assign(Object.create({ token: "inherited" }) as Record<string, unknown>, { "x-count": 0 }),
      new Headers({ "API-KEY": "k", "Content-Type": "application/json" }),
      {},
    ] as Array<Record<string, string | string[] | number | undefined> | Headers>;
    for (const bag of bags) {
      const map = normalizeHeaders(bag);
      for (const name of ["token", "api-key", "content-type", "x-count", "absent"])
        expect(headerValue(bag, name), `${name} of ${JSON.stringify(bag)}`).toBe(map.get(name));
    }
  });

  it("takes the route the caller matched instead of matching the path again", () => {
    const headers = { "API-KEY": "k", TOKEN: "t", "content-type": "application/json" };
    const route = contract.match("GET", "/api/v1/object/properties/9");
    if (route.kind !== "operation") throw new Error("no route");
    expect(contract.validateRequest({ method: "GET", path: "/api/v1/object/properties/9", headers, route })).toEqual(
      contract.validateRequest({ method: "GET", path: "/api/v1/object/properties/9", headers }),
    );
    // The given route's parameters are the ones checked, whatever the path says
    expect(
      contract.validateRequest({ method: "GET", path: "/api/v1/object/properties/7", headers, route }),
    ).toMatchObject({ valid: true, pathParams: { uid: 9 } });
  });

  it("converts integer path parameters explicitly, and reports what does not convert", () => {
    const ok = contract.validateRequest({
      method: "GET",
      path: "/api/v1/object/properties/7",
      headers: { "API-KEY": "k", TOKEN: "t", "content-type": "application/json" },
    });
    expect(ok).toMatchObject({ valid: true, operationId: "listUserProperties", pathParams: { uid: 7 } });
    const bad = contract.validateRequest({
      method: "GET",
      path: "/api/v1/object/properties/7.5",
      headers: { "API-KEY": "k", TOKEN: "t", "content-type": "application/json" },
    });
    expect(bad.errors.map((error) => [error.location, error.message])).toEqual([
      ["request.path/uid", 'must be integer, got string "7.5"'],
    ]);
  });

  it("marks the credentials of endpoints 6 to 14 as an assumption, and those of 1 to 5 and 15 as documented", () => {
    const tiers = (method: string, path: string) =>
      contract
        .validateRequest({ method, path, headers: { "content-type": "application/json" } })
        .errors.filter((error) => error.rule === "security")
        .map((error) => error.tier);
    expect(tiers("GET", "/api/v1/object/property/1")).toEqual(["fact", "fact"]);
    expect(tiers("GET", "/api/v1/object/agent_cards")).toEqual(["assumption", "assumption"]);
  });

  it("reports a response without its documented content type, and without a body", () => {
    const result = contract.validateResponse({
      method: "DELETE",
      path: "/api/v1/object/document/1",
      status: 200,
      headers: {},
      body: undefined,
    });
    expect(result.errors.map((error) => [error.location, error.rule])).toEqual([
      ["response.header/content-type", "content-type"],
      ["response.body", "required"],
    ]);
  });

  it("reports an answer failing every branch of an anyOf as a fact, even when the closest is an assumption", () => {
    const list = (body: unknown) => errorsOfJsonAnswer("/api/v1/object/agent_cards", body);
    // The agent list is a map (section 4.2); an empty array for an empty map is our assumption, a non-empty array is
    // neither.
    expect(list([])).toEqual([]);
    expect(
      list([{ email: "a@b.example", nid: "7" }]).map((error) => [error.location, error.tier, error.section]),
    ).toEqual([["response.body", "fact", "4.2"]]);
    // Inside the documented branch, our own reading of a field stays an assumption.
    expect(list({ 7: { email: "a@b.example", nid: 7 } }).map((error) => [error.location, error.tier])).toEqual([
      ["response.body/7/nid", "assumption"],
    ]);
  });

  it("reports a field breaking the document's type as a fact, where our narrower reading also fails", async () => {
    // Section 2.1 types parking_spaces "string or null"; that it is a numeric string is our assumption (an allOf
    // beside the type).
    const mock = createMockServer({ log: () => {} });
    const { url } = await mock.listen(0);
    try {
      const property = (await (
        await fetch(`${url}/api/v1/object/property/1001`, { headers: { "API-KEY": "demo-key", TOKEN: "demo-token" } })
      ).json()) as Record<string, unknown>;
      const retrieve = (body: unknown) => errorsOfJsonAnswer("/api/v1/object/property/1001", body);
      expect(retrieve(property)).toEqual([]);
      expect(
        retrieve({ ...property, parking_spaces: 2 }).map((error) => [error.location, error.rule, error.tier]),
      ).toEqual([
        ["response.body/parking_spaces", "type", "fact"],
        ["response.body/parking_spaces", "anyOf", "assumption"],
      ]);
      // Text that is no number breaks only our reading.
      expect(retrieve({ ...property, parking_spaces: "two" }).map((error) => [error.location, error.tier])).toEqual([
        ["response.body/parking_spaces", "assumption"],
      ]);
    } finally {
      await mock.close();
    }
  });

  it("names a route that is not in the contract", () => {
    const result = contract.validateResponse({ method: "GET", path: "/api/v1/object/nothing", status: 200 });
    expect(result.errors).toEqual([
      expect.objectContaining({
        operation: "GET /api/v1/object/nothing",
        location: "response.route",
        rule: "operation",
        tier: "fact",
      }),
    ]);
  });
});
