import type { InferredSchema, JsonType } from "./service-profile.ts";

/** Properties followed into a body, and keys kept per object: an error body is small, a hostile one is cut. */
const MAX_DEPTH = 8;
const MAX_KEYS = 100;

/** The JSON type of a value, as JSON Schema names it. */
export function jsonTypeOf(value: unknown): JsonType {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  if (typeof value === "string" || typeof value === "boolean" || typeof value === "object")
    return typeof value as JsonType;
  return "null";
}

/**
 * The shape of one JSON value as a JSON Schema: its type, and for an object its properties (all required), for
 * an array the merged shape of its items. Values themselves are not kept: two error bodies with other texts
 * have the same shape.
 */
export function inferJsonSchema(value: unknown, depth = 0): InferredSchema {
  const type = jsonTypeOf(value);
  if (depth >= MAX_DEPTH) return { type };
  if (type === "object") {
    const keys = Object.keys(value as object)
      .sort()
      .slice(0, MAX_KEYS);
    const properties: Record<string, InferredSchema> = {};
    for (const key of keys) properties[key] = inferJsonSchema((value as Record<string, unknown>)[key], depth + 1);
    return { type, properties, required: keys };
  }
  if (type === "array") {
    const items = (value as unknown[]).slice(0, MAX_KEYS).map((item) => inferJsonSchema(item, depth + 1));
    return items.length === 0 ? { type } : { type, items: items.reduce(mergeJsonSchemas) };
  }
  return { type };
}

/**
 * The shape that fits both: the union of the types, the properties of either (required only where both require
 * them), items merged. `integer` within `number` is `number`.
 */
export function mergeJsonSchemas(a: InferredSchema, b: InferredSchema): InferredSchema {
  const types = new Set([...typesOf(a), ...typesOf(b)]);
  if (types.has("number")) types.delete("integer");
  const sorted = [...types].sort();
  const merged: InferredSchema = {};
  if (sorted.length > 0) merged.type = sorted.length === 1 ? sorted[0]! : sorted;
  if (a.properties || b.properties) {
    const properties: Record<string, InferredSchema> = {};
    for (const key of new Set([...Object.keys(a.properties ?? {}), ...Object.keys(b.properties ?? {})])) {
      const left = a.properties?.[key];
      const right = b.properties?.[key];
      properties[key] = left && right ? mergeJsonSchemas(left, right) : (left ?? right)!;
    }
    merged.properties = Object.fromEntries(Object.entries(properties).sort(([x], [y]) => (x < y ? -1 : 1)));
    // An object seen only on one side requires what that side saw; seen on both, what both require.
    const required =
      a.properties && b.properties
        ? (a.required ?? []).filter((key) => (b.required ?? []).includes(key))
        : (a.required ?? b.required ?? []);
    merged.required = [...required].sort();
  }
  if (a.items || b.items)
    merged.items = a.items && b.items ? mergeJsonSchemas(a.items, b.items) : (a.items ?? b.items)!;
  return merged;
}

function typesOf(schema: InferredSchema): string[] {
  return schema.type === undefined ? [] : Array.isArray(schema.type) ? schema.type : [schema.type];
}

/** JSON with every object's keys sorted and two-space indents: a profile reads the same from run to run. */
export function sortedJson(value: unknown): string {
  return `${JSON.stringify(sortKeys(value), null, 2)}\n`;
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, sortKeys((value as Record<string, unknown>)[key])]),
  );
}
