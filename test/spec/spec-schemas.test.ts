/**
 * The spec's schemas compile under AJV's strict mode, its own examples satisfy them, and documents that break
 * a documented rule do not.
 */
import { describe, expect, it } from "vitest";
import { createAjv, SPEC_ID } from "../../src/contract/create-ajv.ts";
import { createContract } from "../../src/contract/create-contract.ts";
import { formatViolation } from "../../src/contract/contract-violation.ts";
import { loadSpec } from "../../src/spec/load-spec.ts";
import { resolvePointer } from "../../src/spec/json-pointer.ts";
import type {
  MediaTypeObject,
  OperationObject,
  RequestBodyObject,
  ResponseObject,
} from "../../src/spec/openapi-document.ts";

const spec = loadSpec();
const open = createContract({ document: spec });
const closed = createContract({ document: spec, closed: true });
const credentials = { "API-KEY": "demo-key", TOKEN: "demo-token" };
const deref = <T>(value: unknown): T =>
  (value !== null && typeof value === "object" && "$ref" in value
    ? resolvePointer(spec, (value as { $ref: string }).$ref)
    : value) as T;
const concrete = (template: string) =>
  template.replace("{nid}", "1024").replace("{uid}", "1").replace("{external-id}", "crm-000123");

interface ExampleCase {
  label: string;
  kind: "request" | "response";
  method: string;
  path: string;
  status: number;
  media: string;
  value: unknown;
}

const examples: ExampleCase[] = [];
for (const [template, item] of Object.entries(spec.paths)) {
  for (const method of ["get", "put", "post", "delete"] as const) {
    const op: OperationObject | undefined = item[method];
    if (!op) continue;
    const add = (kind: ExampleCase["kind"], status: number, content: Record<string, MediaTypeObject> | undefined) => {
      for (const [media, mediaObject] of Object.entries(content ?? {})) {
        for (const [name, example] of Object.entries(mediaObject.examples ?? {})) {
          const value = deref<{ value: unknown }>(example).value;
          examples.push({
            label: `${op.operationId} ${kind} ${status} ${name}`,
            kind,
            method,
            path: concrete(template),
            status,
            media,
            value,
          });
        }
      }
    };
    if (op.requestBody) add("request", 0, deref<RequestBodyObject>(op.requestBody).content);
    for (const [status, response] of Object.entries(op.responses))
      add("response", Number(status), deref<ResponseObject>(response).content);
  }
}

const check = (contract: typeof open, example: ExampleCase) =>
  example.kind === "request"
    ? contract.validateRequest({
        method: example.method,
        path: example.path,
        headers: { ...credentials, "content-type": example.media },
        body: example.value,
      })
    : contract.validateResponse({
        method: example.method,
        path: example.path,
        status: example.status,
        headers: { "content-type": example.media },
        body: example.value,
      });

describe("strict compilation", () => {
  it.each(Object.keys(spec.components!.schemas!))("compiles components/schemas/%s under strict mode", (name) => {
    const ajv = createAjv(spec);
    expect(ajv.getSchema(`${SPEC_ID}#/components/schemas/${name}`)).toBeTypeOf("function");
  });
});

describe("the spec's own examples", () => {
  it("has an example for every operation's request body and every response", () => {
    const withRequestExamples = new Set(
      examples.filter((example) => example.kind === "request").map((example) => example.label.split(" ")[0]),
    );
    expect([...withRequestExamples].sort()).toEqual([
      "createAgentCard",
      "createDocument",
      "createProperty",
      "editProperty",
      "updateAgentCard",
      "updateDocument",
    ]);
    expect(new Set(examples.map((example) => example.label.split(" ")[0])).size).toBe(15);
  });

  it.each(examples.map((example) => [example.label, example] as const))(
    "%s satisfies the contract, open and closed",
    (_label, example) => {
      for (const contract of [open, closed]) {
        const result = check(contract, example);
        expect(result.errors.map(formatViolation)).toEqual([]);
        expect(result.valid).toBe(true);
      }
    },
  );
});

describe("documents that break the contract", () => {
  const property = deref<{ value: Record<string, unknown> }>(spec.components!.examples!.Property).value;
  const document = deref<{ value: Record<string, unknown> }>(spec.components!.examples!.Document).value;
  const json = { "content-type": "application/json" };
  const refused = [
    {
      name: "a catalogue entry whose access level does not match its machine name",
      exchange: {
        method: "GET",
        path: "/api/v1/object/template_base",
        status: 200,
        headers: json,
        body: { templates: [{ title: "Icon", machine_name: "icon", access_level: "standard" }] },
      },
      at: "response.body/templates/0/access_level",
    },
    {
      name: "a numeric nid in the create-property answer",
      exchange: {
        method: "POST",
        path: "/api/v1/object/property",
        status: 200,
        headers: json,
        body: { nid: 1024, uri: "http://127.0.0.1:4010/autologin/abc" },
      },
      at: "response.body/nid",
    },
    {
      name: "a string nid in the create-document answer",
      exchange: { method: "POST", path: "/api/v1/object/document/", status: 200, headers: json, body: { nid: "4001" } },
      at: "response.body/nid",
    },
    {
      name: "an integer nid in the update-document answer",
      exchange: {
        method: "PUT",
        path: "/api/v1/object/document/4001",
        status: 200,
        headers: json,
        body: { nid: 4001 },
      },
      at: "response.body/nid",
    },
    {
      name: "a delete answer other than [true]",
      exchange: { method: "DELETE", path: "/api/v1/object/agent_card/3001", status: 200, headers: json, body: [false] },
      at: "response.body",
    },
    {
      name: "a number where the property answers a numeric string",
      exchange: {
        method: "GET",
        path: "/api/v1/object/property/1024",
        status: 200,
        headers: json,
        body: { ...property, list_price: 1250000 },
      },
      at: "response.body/list_price",
    },
    {
      name: "a property type with spaces in a retrieved property",
      exchange: {
        method: "GET",
        path: "/api/v1/object/property/1024",
        status: 200,
        headers: json,
        body: { ...property, property_type: "Single Family" },
      },
      at: "response.body/property_type",
    },
    {
      name: "a floorplan whose nid is an integer",
      exchange: {
        method: "GET",
        path: "/api/v1/object/property/1024",
        status: 200,
        headers: json,
        body: {
          ...property,
          floorplans: { "4001": { nid: 4001, title: "Ground", floorplan_url: "https://files.example/1.pdf" } },
        },
      },
      at: "response.body/floorplans/4001/nid",
    },
    {
      name: "a document whose Show_on_unbranded is spelt in lower case",
      exchange: {
        method: "GET",
        path: "/api/v1/object/document/4001",
        status: 200,
        headers: json,
        body: {
          ...Object.fromEntries(Object.entries(document).filter(([key]) => key !== "Show_on_unbranded")),
          show_on_unbranded: false,
        },
      },
      at: "response.body/Show_on_unbranded",
    },
  ] as const;

  it.each(refused)("refuses $name", ({ exchange, at }) => {
    const result = open.validateResponse(exchange);
    expect(result.valid).toBe(false);
    expect(result.errors.filter((error) => error.tier === "fact").map((error) => error.location)).toContain(at);
  });

  const badRequests = [
    { name: "garage in lower case", body: { garage: "attached" }, at: "request.body/garage" },
    { name: "an unknown property type", body: { property_type: "Castle" }, at: "request.body/property_type" },
    {
      name: "the intra template, which cannot be chosen on create",
      body: { template: "intra" },
      at: "request.body/template",
    },
    { name: "the syd template", body: { template: "syd" }, at: "request.body/template" },
    { name: "a three-letter state", body: { state: "CAL" }, at: "request.body/state" },
    { name: "square feet as a string", body: { "square feet": "2150" }, at: "request.body/square feet" },
    {
      name: "square_feet spelt as in the retrieved property",
      body: { square_feet: 2150 },
      at: "request.body/square_feet",
    },
  ];
  const base = { street: "1 Main St", city: "Springfield", state: "IL", zip: "62701" };

  it.each(badRequests)("refuses a create body with $name", ({ body, at }) => {
    const result = open.validateRequest({
      method: "POST",
      path: "/api/v1/object/property",
      headers: { ...credentials, ...json },
      body: { ...base, ...body },
    });
    expect(result.errors.map((error) => error.location)).toEqual([at]);
  });

  it("refuses a create body without a street", () => {
    const { street: _street, ...rest } = base;
    const result = open.validateRequest({
      method: "POST",
      path: "/api/v1/object/property",
      headers: { ...credentials, ...json },
      body: rest,
    });
    expect(result.errors.map((error) => [error.location, error.rule])).toEqual([["request.body/street", "required"]]);
  });
});

describe("the access level is tied to the machine name (section 2.4)", () => {
  const pro = ["icon", "eko", "lux", "north", "stak"];
  const names = spec.components!.schemas!.TemplateMachineName!.enum as string[];
  const expected = (name: string) => (pro.includes(name) ? "pro" : name === "intra" ? "exclusive" : "standard");

  it.each(names)("accepts exactly one access level for %s", (name) => {
    const accepted = ["standard", "pro", "exclusive"].filter(
      (level) =>
        open.validateResponse({
          method: "GET",
          path: "/api/v1/object/template_base",
          status: 200,
          headers: { "content-type": "application/json" },
          body: { templates: [{ title: name, machine_name: name, access_level: level }] },
        }).valid,
    );
    expect(accepted).toEqual([expected(name)]);
  });
});
