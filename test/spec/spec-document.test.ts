import { describe, expect, it } from "vitest";
import { loadSpec } from "../../src/spec/load-spec.ts";
import { resolvePointer } from "../../src/spec/json-pointer.ts";
import type { OperationObject, ResponseObject, SchemaObject } from "../../src/spec/openapi-document.ts";
import { AGENT_FIELDS, DOCUMENT_FIELDS, PROPERTY_FIELDS } from "../support/documented-fields.ts";

const spec = loadSpec();
const schemas = spec.components!.schemas!;
const schema = (name: string) =>
  schemas[name] as SchemaObject & { properties: Record<string, SchemaObject>; required?: string[] };
const deref = <T>(value: unknown): T =>
  (value !== null && typeof value === "object" && "$ref" in value
    ? resolvePointer(spec, (value as { $ref: string }).$ref)
    : value) as T;
const operation = (method: string, path: string): OperationObject => {
  const found = spec.paths[path]?.[method as "get"];
  if (!found) throw new Error(`${method} ${path} is not in the spec`);
  return found;
};

// Section 4, endpoint table: number, method, path, and the operation each is.
const endpoints = [
  [1, "get", "/api/v1/object/property/{nid}", "retrieveProperty", "properties"],
  [2, "get", "/api/v1/object/external-property/{external-id}", "retrievePropertyByExternalId", "properties"],
  [3, "post", "/api/v1/object/property", "createProperty", "properties"],
  [4, "put", "/api/v1/object/property/{nid}", "editProperty", "properties"],
  [5, "get", "/api/v1/object/properties/{uid}", "listUserProperties", "properties"],
  [6, "post", "/api/v1/object/agent_card/{nid}", "retrieveAgentCard", "agents"],
  [7, "post", "/api/v1/object/agent_card/", "createAgentCard", "agents"],
  [8, "put", "/api/v1/object/agent_card/{nid}", "updateAgentCard", "agents"],
  [9, "delete", "/api/v1/object/agent_card/{nid}", "deleteAgentCard", "agents"],
  [10, "get", "/api/v1/object/agent_cards", "listAgentCards", "agents"],
  [11, "post", "/api/v1/object/document/", "createDocument", "documents"],
  [12, "put", "/api/v1/object/document/{nid}", "updateDocument", "documents"],
  [13, "get", "/api/v1/object/document/{nid}", "retrieveDocument", "documents"],
  [14, "delete", "/api/v1/object/document/{nid}", "deleteDocument", "documents"],
  [15, "get", "/api/v1/object/template_base", "retrieveTemplateCatalogue", "templates"],
] as const;

describe("operations (section 4)", () => {
  it("has exactly the fifteen documented operations", () => {
    const all = Object.entries(spec.paths).flatMap(([path, item]) =>
      Object.keys(item)
        .filter((key) => key !== "parameters")
        .map((method) => `${method} ${path}`),
    );
    expect(all.sort()).toEqual(endpoints.map(([, method, path]) => `${method} ${path}`).sort());
  });

  it.each(endpoints)("endpoint %i is %s %s (%s)", (_number, method, path, operationId, tag) => {
    const op = operation(method, path);
    expect(op.operationId).toBe(operationId);
    expect(op.tags).toEqual([tag]);
    expect(op.summary?.length).toBeGreaterThan(10);
    expect(op.description?.length).toBeGreaterThan(10);
    const ok = deref<ResponseObject>(op.responses["200"]);
    const media = ok.content?.["application/json"];
    expect(media?.schema).toBeDefined();
    expect(Object.keys(media?.examples ?? {}).length).toBeGreaterThan(0);
    expect(Object.keys(op.responses).filter((status) => status.startsWith("2"))).toEqual(["200"]);
    if (op.requestBody) {
      const body = deref<{ content: Record<string, { examples?: object }> }>(op.requestBody);
      expect(Object.keys(body.content)).toEqual(["application/json"]);
      expect(Object.keys(body.content["application/json"]!.examples ?? {}).length).toBeGreaterThan(0);
    }
    for (const parameter of [...(spec.paths[path]!.parameters ?? []), ...(op.parameters ?? [])].map((p) =>
      deref<{ in: string; name: string; schema: SchemaObject }>(p),
    )) {
      expect(path).toContain(`{${parameter.name}}`);
      expect(parameter.schema.type).toBeDefined();
    }
  });

  it("keeps the trailing slash of agent create and document create, and retrieves an agent with POST", () => {
    expect(Object.keys(spec.paths)).toContain("/api/v1/object/agent_card/");
    expect(Object.keys(spec.paths)).toContain("/api/v1/object/document/");
    expect(Object.keys(spec.paths)).not.toContain("/api/v1/object/agent_card");
    expect(Object.keys(spec.paths)).not.toContain("/api/v1/object/document");
    expect(operation("post", "/api/v1/object/agent_card/{nid}").operationId).toBe("retrieveAgentCard");
  });

  it("types the documented path parameters as integers (nid, uid) and the external id as a string", () => {
    const param = (name: string) => deref<{ schema: SchemaObject }>(spec.components!.parameters![name]).schema.type;
    expect(param("PropertyNid")).toBe("integer");
    const uid = deref<{ schema: SchemaObject }>(operation("get", "/api/v1/object/properties/{uid}").parameters![0]);
    expect(uid.schema.type).toBe("integer");
    const externalId = deref<{ schema: SchemaObject }>(
      operation("get", "/api/v1/object/external-property/{external-id}").parameters![0],
    );
    expect(externalId.schema.type).toBe("string");
  });
});

describe("security (section 5)", () => {
  it("defines API-KEY and TOKEN as header API keys, required together", () => {
    expect(spec.components!.securitySchemes).toEqual({
      apiKey: expect.objectContaining({ type: "apiKey", in: "header", name: "API-KEY" }),
      token: expect.objectContaining({ type: "apiKey", in: "header", name: "TOKEN" }),
    });
    expect(spec.security).toEqual([{ apiKey: [], token: [] }]);
  });

  it("documents the headers of endpoints 1 to 5 and 15, and marks those of 6 to 14 as our assumption", () => {
    for (const [number, method, path] of endpoints) {
      const op = operation(method, path);
      expect(op.security).toBeUndefined(); // the global requirement applies
      if (number <= 5 || number === 15) {
        expect(op["x-security-assumption"]).toBeUndefined();
        expect(op["x-required-content-type"]).toBe("application/json");
      } else {
        expect(op["x-security-assumption"]).toMatch(/not shown/);
        expect(op["x-required-content-type"]).toBeUndefined();
      }
    }
  });
});

describe("resources (section 2)", () => {
  it("lists every field of a retrieved property (2.1) and requires each one", () => {
    const fields = PROPERTY_FIELDS;
    expect(Object.keys(schema("Property").properties).sort()).toEqual([...fields].sort());
    expect([...schema("Property").required!].sort()).toEqual([...fields].sort());
  });

  it("spells the square footage 'square feet' in the create body and 'square_feet' in the retrieved property", () => {
    expect(schema("PropertyCreate").properties).toHaveProperty(["square feet"]);
    expect(schema("PropertyCreate").properties).not.toHaveProperty("square_feet");
    expect(schema("Property").properties).toHaveProperty("square_feet");
  });

  it("gives the document fields of 2.3 with their types, Show_on_unbranded with its capital letter", () => {
    const props = schema("Document").properties;
    expect(props.created!.type).toBe("integer");
    expect(props.changed!.type).toBe("integer");
    expect(props.property_reference!.type).toBe("integer");
    for (const flag of ["visible", "is_floorplan", "Show_on_unbranded"]) expect(props[flag]!.type).toBe("boolean");
    expect(props).not.toHaveProperty("show_on_unbranded");
    expect(Object.keys(props).sort()).toEqual([...DOCUMENT_FIELDS].sort());
  });

  it("lists the agent fields of 2.2", () => {
    expect(Object.keys(schema("AgentCard").properties).sort()).toEqual([...AGENT_FIELDS].sort());
    expect(Object.keys(schema("SocialMediaLink").properties).sort()).toEqual(["service", "url", "weight"]);
  });

  it("lists the property list item fields of endpoint 5", () => {
    expect(Object.keys(schema("PropertyListItem").properties).sort()).toEqual([
      "external_id",
      "nid",
      "published",
      "title",
    ]);
  });
});

describe("constraints (section 4.1 and 2.4)", () => {
  it("requires street, city, state and zip on create, and state has two characters", () => {
    expect(schema("PropertyCreate").required).toEqual(["street", "city", "state", "zip"]);
    expect(schema("PropertyCreate").properties.state).toMatchObject({ minLength: 2, maxLength: 2 });
  });

  it("has the three garage values and the twelve property types, case sensitive", () => {
    expect(schema("GarageType").enum).toEqual(["Attached", "Detached", "None"]);
    expect(schema("PropertyType").enum).toEqual([
      "Single Family",
      "Duplex",
      "Triplex",
      "Quad-Plex",
      "Condo",
      "Co-op",
      "Mobile Home",
      "Multi Family",
      "Timeshare",
      "Town House",
      "Miscellaneous",
      "Residential Land",
    ]);
  });

  it("accepts the twenty-one documented templates on create, leaving out syd and intra", () => {
    const creatable = schema("CreatableTemplate").enum as string[];
    const catalogue = schema("TemplateMachineName").enum as string[];
    expect(creatable).toHaveLength(21);
    expect(catalogue).toHaveLength(23);
    expect(catalogue.filter((name) => !creatable.includes(name)).sort()).toEqual(["intra", "syd"]);
    expect(schema("AccessLevel").enum).toEqual(["standard", "pro", "exclusive"]);
  });
});

describe("errors (section 7)", () => {
  it("names the two agent errors as problem titles on agent creation", () => {
    const create = operation("post", "/api/v1/object/agent_card/");
    const titleOf = (status: string) => {
      const response = deref<ResponseObject>(create.responses[status]);
      const media = response.content!["application/problem+json"]!;
      return resolvePointer(media.schema, "/allOf/1/properties/title/const");
    };
    expect(titleOf("409")).toBe("Agent Already Exists");
    expect(titleOf("402")).toBe("Not Enough Agent Seats");
  });

  it("answers every error with problem details and marks each error response as our assumption", () => {
    for (const [, method, path] of endpoints) {
      const op = operation(method, path);
      expect(op.responses).toHaveProperty("401");
      for (const [status, raw] of Object.entries(op.responses)) {
        if (status === "200") continue;
        const response = deref<ResponseObject>(raw);
        expect(response["x-assumption"], `${op.operationId} ${status}`).toMatch(/\S/);
        expect(Object.keys(response.content ?? {})).toEqual(["application/problem+json"]);
      }
    }
    expect(schema("Problem").required).toEqual(["type", "title", "status", "detail"]);
    expect(schema("Problem")["x-assumption"]).toMatch(/not shown/);
  });

  it("marks the request bodies of agents and documents, whose fields are not shown, as assumptions", () => {
    for (const [number, method, path] of endpoints) {
      const body = operation(method, path).requestBody as { "x-assumption"?: string } | undefined;
      if (!body) continue;
      if (number >= 6) expect(body["x-assumption"]).toMatch(/not shown/);
      else expect(body["x-assumption"]).toBeUndefined();
    }
  });
});

describe("list by user (section 2.1, endpoint 5)", () => {
  it("types the list item's external_id as a string or null, a fact of section 2.1 (absent values: null)", () => {
    const externalId = schema("PropertyListItem").properties.external_id!;
    expect(externalId.type).toEqual(["string", "null"]);
    expect(externalId["x-assumption"]).toBeUndefined();
    expect(schema("PropertyListItem")["x-section"]).toBe("2.1");
  });
});
