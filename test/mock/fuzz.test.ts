/**
 * Property-based: whatever a client sends, the mock answers with a status the contract documents for the
 * operation, never a 5xx, and never an answer that breaks the contract (self-validation is on).
 */
import fc from "fast-check";
import request from "supertest";
import { describe, expect, it } from "vitest";
import { resolvePointer } from "../../src/spec/json-pointer.ts";
import { createHarness, sharedContract } from "../support/mock-harness.ts";
import { operationRequests } from "../support/operation-requests.ts";
import { DEMO } from "../support/tiny-fixtures.ts";

const { mock } = createHarness();
const contract = sharedContract();
const spec = contract.document;
const RUNS = 60;

type Schema = Record<string, unknown>;
const deref = (schema: Schema): Schema =>
  typeof schema.$ref === "string" ? deref(resolvePointer(spec, schema.$ref) as Schema) : schema;

/** Values a schema accepts, mostly, so that fuzzing reaches past validation into the services. */
function valuesFor(raw: Schema): fc.Arbitrary<unknown> {
  const schema = deref(raw);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...schema.enum);
  if (Array.isArray(schema.anyOf)) return fc.oneof(...(schema.anyOf as Schema[]).map(valuesFor));
  if (schema.format === "uri") return fc.webUrl();
  if (schema.format === "email") return fc.emailAddress();
  if (typeof schema.pattern === "string" && schema.pattern.includes("[0-9]"))
    return fc.integer({ min: -5, max: 5000 }).map(String);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case "integer":
      return fc.oneof(fc.integer({ min: 1000, max: 1010 }), fc.integer(), fc.constant(1e21));
    case "boolean":
      return fc.boolean();
    case "null":
      return fc.constant(null);
    case "array":
      return fc.array(valuesFor(schema.items as Schema), { maxLength: 3 });
    case "object":
      return objectFor(schema);
    default:
      return fc.string({ maxLength: 12 });
  }
}

function objectFor(schema: Schema): fc.Arbitrary<Record<string, unknown>> {
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  const fields = Object.fromEntries(
    Object.entries(properties).map(([name, property]) => [
      name,
      fc.oneof({ weight: 4, arbitrary: valuesFor(property) }, { weight: 1, arbitrary: fc.jsonValue() }),
    ]),
  );
  return fc.record(fields, { requiredKeys: [] });
}

const operations = operationRequests();
const bodySchema = (operationId: string): Schema | undefined => {
  const operation = contract.operation(operationId)!;
  const pointer = operation.requestBody?.schemaPointers.get("application/json");
  return pointer ? (resolvePointer(spec, pointer) as Schema) : undefined;
};
const documented = (operationId: string) => [...contract.operation(operationId)!.responses.keys()].map(Number);

describe.each(operations.map((operation) => [operation.operationId, operation] as const))(
  "%s",
  (operationId, operation) => {
    const send = (path: string, body: unknown) =>
      request(mock.app)
        [operation.method](`/api/v1/object${path}`)
        .set({ ...DEMO, "content-type": "application/json" })
        .send(JSON.stringify(body));

    it("answers only documented statuses to bodies shaped like the schema", async () => {
      const schema = bodySchema(operationId);
      const bodies = schema ? fc.oneof(objectFor(deref(schema)), fc.jsonValue()) : fc.jsonValue();
      await fc.assert(
        fc.asyncProperty(bodies, async (body) => {
          const response = await send(operation.path, body);
          expect(documented(operationId)).toContain(response.status);
        }),
        { numRuns: RUNS, seed: 42 },
      );
      expect(mock.violations).toEqual([]);
    });

    it("answers only documented statuses to any path segment and raw bytes", async () => {
      const segment = fc.oneof(
        fc.string({ maxLength: 20 }),
        fc.integer().map(String),
        fc.constantFrom("__proto__", "constructor", "%00", "%E0%A4%A", "..", "1e3", "-1"),
      );
      await fc.assert(
        fc.asyncProperty(segment, fc.string({ maxLength: 40 }), async (value, raw) => {
          const path = operation.path.replace(/[^/]+$/, (last) =>
            /^\d+$|^crm-/.test(last) ? encodeURIComponent(value) || "x" : last,
          );
          const response = await request(mock.app)
            [operation.method](`/api/v1/object${path}`)
            .set({ ...DEMO, "content-type": "application/json" })
            .send(raw);
          expect(response.status).toBeLessThan(500);
          if (response.status !== 404 && response.status !== 405)
            expect(documented(operationId)).toContain(response.status);
        }),
        { numRuns: RUNS, seed: 7 },
      );
      expect(mock.violations).toEqual([]);
    });
  },
);

it("keeps Object.prototype clean after fuzzing with __proto__ keys", async () => {
  const polluting = fc.record(
    { __proto__: fc.jsonValue(), constructor: fc.jsonValue(), street: fc.string() },
    { requiredKeys: [] },
  );
  await fc.assert(
    fc.asyncProperty(
      polluting,
      fc.constantFrom(...operations.filter((operation) => operation.body !== undefined)),
      async (body, operation) => {
        const text = JSON.stringify(body).replace('"street"', '"__proto__":{"polluted":1},"street"');
        const response = await request(mock.app)
          [operation.method](`/api/v1/object${operation.path}`)
          .set({ ...DEMO, "content-type": "application/json" })
          .send(text);
        expect(response.status).toBeLessThan(500);
      },
    ),
    { numRuns: RUNS, seed: 3 },
  );
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
});
