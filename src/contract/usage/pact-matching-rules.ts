import type { OpenApiDocument } from "../../spec/openapi-document.ts";

/** One Pact matcher (Pact specification v4, `matchingRules`). */
export type PactMatcher = { match: "type" } | { match: "regex"; regex: string } | { match: "values" };

/** Matchers by Pact JSON path (`$.nid`, `$[*].nid`, `$.floorplans.*.nid`), each list combined with AND. */
export type PactRuleSet = Record<string, { combine: "AND"; matchers: PactMatcher[] }>;

/** How deep an answer is walked for rules: deeper than any answer of the contract. */
const MAX_DEPTH = 12;

/** An answer's body as a pact expects it: the example, and the rules it is matched by. */
export interface PactExpectation {
  content: unknown;
  rules: PactRuleSet;
}

/**
 * The body an answer is expected to have, for a verifier, and its rules: every value matched by its JSON type
 * (one rule at the root, which Pact applies to every child), a map keyed by ids (`floorplans`, the agent list) by
 * its values whatever the keys, and by regex where the contract fixes a `pattern` (numeric-string ids,
 * integer-like strings). What the service answers may differ in value where the document fixes only the type (a
 * title, a nid): that is no difference, so no value is matched literally. A list and a map keyed by ids keep one
 * example entry, which every entry the service answers is matched against. Pact has no "this type or that": a
 * field the client got as null, a field of more than one JSON type, and a field of a list entry the contract
 * lets be null ("absent values come back as null") are left out; the replay (`--usage --base-url`) judges those.
 *
 * @param schemaPointer where the answer's schema is in `document` (`/paths/…/content/application~1json/schema`).
 */
export function expectedBody(
  document: OpenApiDocument,
  schemaPointer: string | undefined,
  body: unknown,
): PactExpectation {
  const rules: PactRuleSet = { $: { combine: "AND", matchers: [{ match: "type" }] } };
  const add = (path: string, matcher: PactMatcher) => {
    const entry = (rules[path] ??= { combine: "AND", matchers: [] });
    if (!entry.matchers.some((known) => JSON.stringify(known) === JSON.stringify(matcher)))
      entry.matchers.push(matcher);
  };
  // `representative`: the value stands for every entry of a list or of a map keyed by ids, which may differ in what
  // they hold.
  const walk = (
    value: unknown,
    path: string,
    schemas: readonly object[],
    depth: number,
    representative = false,
  ): unknown => {
    if (depth > MAX_DEPTH) return value;
    const resolved = schemas.flatMap((schema) => alternatives(document, schema, value));
    if (typeof value === "string") {
      for (const schema of resolved) {
        const pattern = (schema as { pattern?: unknown }).pattern;
        if (typeof pattern === "string" && safeTest(pattern, value)) add(path, { match: "regex", regex: pattern });
      }
      return value;
    }
    if (Array.isArray(value)) {
      const items = resolved.flatMap((schema) => child((schema as { items?: unknown }).items));
      return value.slice(0, 1).map((item) => walk(item, `${path}[*]`, items, depth + 1, true));
    }
    if (value === null || typeof value !== "object") return value;
    const keys = Object.keys(value);
    const keyedByIds = keys.length > 0 && keys.every((key) => /^[0-9]+$/.test(key));
    // Under a `values` rule Pact compares the entries by equality unless told otherwise: by type, as everything else.
    if (keyedByIds) {
      add(path, { match: "values" });
      add(`${path}.*`, { match: "type" });
    }
    const expected: Record<string, unknown> = {};
    for (const key of keyedByIds ? keys.slice(0, 1) : keys) {
      const below = resolved.flatMap((schema) => {
        const properties = (schema as { properties?: Record<string, unknown> }).properties;
        const named = properties && Object.hasOwn(properties, key) ? properties[key] : undefined;
        return child(named ?? (schema as { additionalProperties?: unknown }).additionalProperties);
      });
      const member = (value as Record<string, unknown>)[key];
      if (!keyedByIds && below.length > 0 && unsure(document, below, member, representative)) continue;
      expected[key] = walk(
        member,
        keyedByIds ? `${path}.*` : memberPath(path, key),
        below,
        depth + 1,
        keyedByIds || representative,
      );
    }
    return expected;
  };
  const root = schemaPointer ? resolvePointer(document, schemaPointer) : undefined;
  const content = walk(body, "$", root ? [root] : [], 0);
  return { content, rules };
}

/**
 * Whether a field cannot be expected by its type alone: it was null (a record made anew may hold a value), it may be
 * of more than one JSON type (`virtual_tours`, an object or an empty array), or it may be null where the example
 * stands for other entries.
 */
function unsure(
  document: OpenApiDocument,
  schemas: readonly object[],
  value: unknown,
  representative: boolean,
): boolean {
  if (value === null) return true;
  const nullable = schemas.some((schema) =>
    alternatives(document, schema, null).some((alternative) => admitsNull(alternative)),
  );
  if (nullable && representative) return true;
  const types = new Set(
    ["string", "number", "boolean", "object", "array"].filter((type) =>
      schemas.some((schema) =>
        alternatives(document, schema, sampleOf(type)).some(
          (alternative) => (alternative as { type?: unknown }).type !== undefined,
        ),
      ),
    ),
  );
  return types.size > 1;
}

function sampleOf(type: string): unknown {
  return type === "string" ? "" : type === "number" ? 0 : type === "boolean" ? false : type === "object" ? {} : [];
}

function admitsNull(schema: object): boolean {
  const type = (schema as { type?: unknown }).type;
  return (
    type === "null" ||
    (Array.isArray(type) && type.includes("null")) ||
    (schema as { const?: unknown }).const === null ||
    (schema as { nullable?: unknown }).nullable === true
  );
}

/** A Pact JSON path one member down: `$.nid`, or `$['square feet']` for a name that is not a plain word. */
export function memberPath(path: string, key: string): string {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(key)
    ? `${path}.${key}`
    : `${path}['${key.replace(/\\/g, "\\\\").replace(/'/g, "\\'")}']`;
}

/** The schemas a value is read by: `$ref`s followed, `allOf` all, `oneOf`/`anyOf` those whose type admits the value. */
function alternatives(document: OpenApiDocument, schema: object, value: unknown, depth = 0): object[] {
  if (depth > MAX_DEPTH) return [];
  const ref = (schema as { $ref?: unknown }).$ref;
  if (typeof ref === "string") {
    const target = resolvePointer(document, ref);
    return target ? alternatives(document, target, value, depth + 1) : [];
  }
  const found: object[] = admits(schema, value) ? [schema] : [];
  for (const keyword of ["allOf", "oneOf", "anyOf"] as const) {
    const list = (schema as Record<string, unknown>)[keyword];
    if (Array.isArray(list))
      for (const part of list)
        if (part && typeof part === "object") found.push(...alternatives(document, part, value, depth + 1));
  }
  return found;
}

/** Whether a schema's `type` (if any) admits the JSON type of a value. */
function admits(schema: object, value: unknown): boolean {
  const type = (schema as { type?: unknown }).type;
  if (type === undefined) return true;
  const types = Array.isArray(type) ? type : [type];
  const actual =
    value === null
      ? "null"
      : Array.isArray(value)
        ? "array"
        : typeof value === "number"
          ? Number.isInteger(value)
            ? "integer"
            : "number"
          : typeof value;
  return types.includes(actual) || (actual === "integer" && types.includes("number"));
}

function child(schema: unknown): object[] {
  return schema && typeof schema === "object" ? [schema] : [];
}

/**
 * The schema at a local JSON pointer (`#/components/schemas/IdString`, or without the `#` as the operation table writes
 * it), or undefined.
 */
function resolvePointer(document: OpenApiDocument, pointer: string): object | undefined {
  const local = pointer.startsWith("#") ? pointer.slice(1) : pointer;
  if (!local.startsWith("/")) return undefined;
  let node: unknown = document;
  for (const raw of local.split("/").slice(1)) {
    const key = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
    if (node === null || typeof node !== "object" || !Object.hasOwn(node, key)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node !== null && typeof node === "object" ? node : undefined;
}

/** Whether a value matches a pattern of the document; a pattern JavaScript cannot read is no rule. */
function safeTest(pattern: string, value: string): boolean {
  try {
    return new RegExp(pattern, "u").test(value);
  } catch {
    return false;
  }
}
