/**
 * The request schemas bound what a valid body can hold, below what the mock checks of a body
 * (src/mock/validation/bound-for-validation.ts): every array has a maxItems, every object is closed or has a
 * maxProperties, and nothing is free-form. That is what lets the mock look for errors in a bounded copy of a
 * body without ever refusing a valid body or accepting an invalid one. A limit the interface document does not
 * state is marked as our assumption.
 */
import { describe, expect, it } from "vitest";
import { createContract } from "../../src/contract/create-contract.ts";
import { MAX_CHECKED_ITEMS, MAX_CHECKED_KEYS, MAX_DEPTH } from "../../src/mock/validation/bound-for-validation.ts";
import { resolvePointer } from "../../src/spec/json-pointer.ts";
import { loadSpec } from "../../src/spec/load-spec.ts";

const spec = loadSpec();
const contract = createContract({ document: spec });
type Schema = Record<string, unknown>;

/** Every place of a request schema that could hold an unbounded value, as a readable line. */
function unbounded(pointer: string): string[] {
  const problems: string[] = [];
  const visit = (at: string, depth: number, assumed: boolean, seen: Set<string>, isPart = false): void => {
    const schema = resolvePointer(spec, at) as Schema | boolean | undefined;
    if (schema === undefined || typeof schema === "boolean") return;
    if (typeof schema.$ref === "string") {
      if (seen.has(schema.$ref)) {
        problems.push(`${at}: recursive`);
        return;
      }
      return visit(
        schema.$ref.slice(1),
        depth,
        assumed || typeof schema["x-assumption"] === "string",
        new Set([...seen, schema.$ref]),
      );
    }
    const marked = assumed || typeof schema["x-assumption"] === "string";
    if (depth > MAX_DEPTH / 2) problems.push(`${at}: nests too deep`);
    for (const key of ["allOf", "anyOf", "oneOf"] as const) {
      (schema[key] as unknown[] | undefined)?.forEach((_part, index) =>
        visit(`${at}/${key}/${index}`, depth, marked, seen, true),
      );
    }
    const types = new Set([schema.type].flat());
    if (types.has("array")) {
      const max = schema.maxItems as number | undefined;
      if (max === undefined || max >= MAX_CHECKED_ITEMS)
        problems.push(`${at}: an array without a maxItems below ${MAX_CHECKED_ITEMS}`);
      else if (max > 0 && !marked) problems.push(`${at}: maxItems ${max} is not marked x-assumption`);
      if (schema.items !== undefined) visit(`${at}/items`, depth + 1, false, seen);
    }
    if (types.has("object")) {
      const properties = Object.keys(schema.properties ?? {});
      const closed = schema.additionalProperties === false && properties.length < MAX_CHECKED_KEYS;
      const capped = typeof schema.maxProperties === "number" && schema.maxProperties < MAX_CHECKED_KEYS;
      if (!closed && !capped) problems.push(`${at}: an object that is neither closed nor capped by maxProperties`);
      for (const name of properties)
        visit(`${at}/properties/${name.replace(/~/g, "~0").replace(/\//g, "~1")}`, depth + 1, false, seen);
      if (typeof schema.additionalProperties === "object") visit(`${at}/additionalProperties`, depth + 1, false, seen);
    }
    const hasType = schema.type !== undefined || schema.enum !== undefined || schema.const !== undefined;
    const combined = ["allOf", "anyOf", "oneOf"].some((key) => key in schema);
    // A part of an allOf/anyOf/oneOf may add a constraint alone; a value's own schema must say what it is.
    if (!hasType && !combined && !isPart) problems.push(`${at}: free-form (no type)`);
  };
  visit(pointer, 0, false, new Set());
  return problems;
}

describe("request bodies are bounded", () => {
  const bodies = contract.operations.flatMap((operation) =>
    [...(operation.requestBody?.schemaPointers ?? [])].map(([media, pointer]) => ({
      label: `${operation.id} ${media}`,
      pointer,
    })),
  );

  it("covers every operation that takes a body", () => {
    expect(bodies.map((body) => body.label.split(" ")[0]).sort()).toEqual([
      "createAgentCard",
      "createDocument",
      "createProperty",
      "editProperty",
      "updateAgentCard",
      "updateDocument",
    ]);
  });

  it.each(bodies)(
    "$label: every array has a maxItems and every object is closed, below what the mock checks",
    ({ pointer }) => {
      expect(unbounded(pointer)).toEqual([]);
    },
  );
});
