import type { ErrorObject, ValidateFunction } from "ajv";
import type { SchemaFinding } from "./schema-finding.ts";
import { schemaNodes, type ValidatorLookup } from "./validator-pointers.ts";
import { escapeToken, parsePointer, resolvePointer } from "../spec/json-pointer.ts";
import type { OpenApiDocument, SchemaObject } from "../spec/openapi-document.ts";

const MAX_LISTED = 30;
const MAX_SHOWN = 80;

/** Turns AJV errors into located, readable findings, each tagged with the assumption that covers it. */
export interface SchemaExplainer {
  /**
   * Explains why `validate` refused the value it was last called with (call it right after a `false`). With
   * `rule`, the caller wants only the findings of that keyword: when no combinator failed, the errors of other
   * keywords are left unexplained (a combinator's explanation draws on its branches' errors, so then all are).
   */
  explain(validate: ValidateFunction, rule?: string): SchemaFinding[];
  /** The nearest `x-assumption` at or above a place in the document, if any. */
  assumptionAt(documentPointer: string): string | undefined;
  /** The nearest `x-section` (the interface document's section that states a rule) at or above a place, if any. */
  sectionAt(documentPointer: string): string | undefined;
}

/**
 * Builds the explainer for one document and its validators. It walks the document once to know where every
 * schema object sits (AJV's `schemaPath` is relative to whichever schema was compiled, so it cannot say that;
 * `parentSchema`, given by the `verbose` option, is the object itself), and takes the validator of each branch
 * of every `anyOf`/`oneOf` from `validatorAt` (already compiled), so an explanation never compiles a schema.
 */
export function createSchemaExplainer(document: OpenApiDocument, validatorAt: ValidatorLookup): SchemaExplainer {
  const pointers = schemaNodes(document);
  const branchValidators = new Map<object, ValidateFunction>();

  for (const [node, pointer] of pointers) {
    for (const combinator of ["anyOf", "oneOf"] as const) {
      const branches = (node as SchemaObject)[combinator];
      if (!Array.isArray(branches)) continue;
      branches.forEach((branch: object, index) => {
        const validate = validatorAt(`${pointer}/${combinator}/${index}`);
        if (validate) branchValidators.set(branch, validate);
      });
    }
  }

  /** The innermost marker on the way from the document's root to the place: each place on the way read once. */
  const markerAt = (key: "x-assumption" | "x-section", documentPointer: string): string | undefined => {
    const markerOf = (node: unknown) => {
      const marker = node !== null && typeof node === "object" ? (node as SchemaObject)[key] : undefined;
      return typeof marker === "string" ? marker : undefined;
    };
    let node: unknown = document;
    let found = markerOf(node);
    for (const token of parsePointer(documentPointer)) {
      node =
        node !== null && typeof node === "object" && Object.hasOwn(node, token)
          ? (node as Record<string, unknown>)[token]
          : undefined;
      found = markerOf(node) ?? found;
    }
    return found;
  };
  // Every explanation asks for the markers of the schemas its errors name, and a document has a fixed set of them:
  // each place's markers are worked out once.
  const remembered = (key: "x-assumption" | "x-section") => {
    const known = new Map<string, string | undefined>();
    return (documentPointer: string): string | undefined => {
      if (known.has(documentPointer)) return known.get(documentPointer);
      const marker = markerAt(key, documentPointer);
      known.set(documentPointer, marker);
      return marker;
    };
  };
  const assumptionAt = remembered("x-assumption");
  const sectionAt = remembered("x-section");

  const resolveRef = (schema: unknown): SchemaObject | undefined => {
    let node = schema;
    for (let hops = 0; hops < 10 && node !== null && typeof node === "object"; hops += 1) {
      const ref = (node as SchemaObject).$ref;
      if (typeof ref !== "string") return node as SchemaObject;
      node = resolvePointer(document, ref);
    }
    return undefined;
  };

  const acceptedTypes = (schema: unknown): Set<string> | undefined => {
    const node = resolveRef(schema);
    if (!node) return undefined;
    if (typeof node.type === "string") return new Set([node.type]);
    if (Array.isArray(node.type)) return new Set(node.type as string[]);
    if (Array.isArray(node.allOf)) {
      for (const part of node.allOf) {
        const types = acceptedTypes(part);
        if (types) return types;
      }
    }
    if ("const" in node) return new Set([jsonType(node.const)]);
    return undefined;
  };

  const describe = (schema: unknown): string => {
    const node = resolveRef(schema);
    if (!node) return "a value";
    if (typeof node.title === "string") return node.title;
    if (Array.isArray(node.enum)) return `one of ${listValues(node.enum)}`;
    if ("const" in node) return JSON.stringify(node.const);
    if (Array.isArray(node.allOf)) return node.allOf.map(describe).join(" and ");
    if (node.type === "array" && node.maxItems === 0) return "an empty array";
    if (node.type === "object") return "an object";
    if (node.type === "null") return "null";
    if (node.type === "string" && typeof node.pattern === "string") return `a string matching ${node.pattern}`;
    if (typeof node.type === "string") return article(node.type);
    return "a value";
  };

  const explainCombinator = (error: ErrorObject): SchemaFinding[] => {
    const branches = Array.isArray(error.schema) ? (error.schema as unknown[]) : [];
    if (error.keyword === "oneOf" && error.params.passingSchemas) {
      return [finding(error, "oneOf", "matches more than one of the alternatives it must choose between")];
    }
    const valueType = jsonType(error.data);
    const fitting = branches.filter((branch) => {
      const types = acceptedTypes(branch);
      return types === undefined || types.has(valueType) || (valueType === "integer" && types.has("number"));
    });
    const only = fitting.length === 1 ? fitting[0] : undefined;
    const validate =
      only !== undefined && only !== null && typeof only === "object" ? branchValidators.get(only) : undefined;
    if (validate && !validate(error.data)) {
      const inner = explain(validate).map((found) => ({ ...found, pointer: error.instancePath + found.pointer }));
      return liftFromAssumedBranch(error, branches.indexOf(only), inner);
    }
    return [
      finding(error, error.keyword, `must be ${branches.map(describe).join(" or ")}, got ${showValue(error.data)}`),
    ];
  };

  /**
   * A value that fails every branch fails the documented ones too: when the branch it came closest to is itself
   * an assumption (a reading we added beside the document's, such as an empty array for an empty map), its
   * findings take the tier and section of the combinator, not of that branch.
   */
  const liftFromAssumedBranch = (error: ErrorObject, index: number, inner: SchemaFinding[]): SchemaFinding[] => {
    const combinator = pointers.get(error.parentSchema as object);
    if (combinator === undefined || index < 0) return inner;
    const branchAssumption = assumptionAt(`${combinator}/${error.keyword}/${index}`);
    const own = assumptionAt(combinator);
    // A combinator that is itself our reading keeps its findings ours, also those of a branch that is a `$ref`
    // (whose rules sit in a shared schema, with no marker of their own): parking_spaces' numeric string.
    if (branchAssumption === undefined || branchAssumption === own)
      return own === undefined
        ? inner
        : inner.map((found) => (found.assumption === undefined ? { ...found, assumption: own } : found));
    const section = sectionAt(combinator);
    return inner.map((found) => {
      if (found.assumption !== branchAssumption) return found;
      const { assumption: _assumed, section: _section, ...rest } = found;
      return {
        ...rest,
        ...(own !== undefined ? { assumption: own } : {}),
        ...(section !== undefined ? { section } : {}),
      };
    });
  };

  const finding = (
    error: ErrorObject,
    keyword: string,
    message: string,
    pointer = error.instancePath,
  ): SchemaFinding => {
    // A failed `propertyNames` is reported on the object, but its rule (and any marker) sits in the subschema.
    const ruleSchema =
      keyword === "propertyNames" && error.schema !== null && typeof error.schema === "object"
        ? error.schema
        : error.parentSchema;
    const schemaPointer = pointers.get(ruleSchema as object);
    const result: SchemaFinding = { pointer, keyword, message };
    if (schemaPointer === undefined) return result;
    const assumption = assumptionAt(schemaPointer);
    const section = sectionAt(schemaPointer);
    if (assumption !== undefined) result.assumption = assumption;
    if (section !== undefined) result.section = section;
    return result;
  };

  const explainOne = (error: ErrorObject): SchemaFinding | undefined => {
    const params = error.params as Record<string, unknown>;
    // Shown only by the rules that quote the value: not for a missing or unlisted field, the findings most made.
    const got = () => showValue(error.data);
    switch (error.keyword) {
      case "if":
        return undefined; // the failed `then` keywords are reported on their own
      case "required":
        return finding(
          error,
          "required",
          "is required",
          `${error.instancePath}/${escapeToken(String(params.missingProperty))}`,
        );
      case "additionalProperties":
        return finding(
          error,
          "additionalProperties",
          "is not a field the contract allows here",
          `${error.instancePath}/${escapeToken(String(params.additionalProperty))}`,
        );
      case "unevaluatedProperties":
        return finding(
          error,
          "unevaluatedProperties",
          "is not a field the contract lists",
          `${error.instancePath}/${escapeToken(String(params.unevaluatedProperty))}`,
        );
      case "propertyNames":
        return finding(
          error,
          "propertyNames",
          `is not an allowed key (${describe(error.schema)})`,
          `${error.instancePath}/${escapeToken(String(params.propertyName))}`,
        );
      case "type":
        return finding(error, "type", `must be ${params.type}, got ${got()}`);
      case "enum":
        return finding(error, "enum", `must be one of ${listValues(params.allowedValues as unknown[])}, got ${got()}`);
      case "const":
        return finding(error, "const", `must be ${JSON.stringify(params.allowedValue)}, got ${got()}`);
      case "pattern":
        return finding(error, "pattern", `must match the pattern ${params.pattern}, got ${got()}`);
      case "format":
        return finding(error, "format", `must be a valid ${params.format}, got ${got()}`);
      case "minProperties":
        return finding(
          error,
          "minProperties",
          `must name at least ${params.limit} field${params.limit === 1 ? "" : "s"}`,
        );
      default:
        return finding(error, error.keyword, `${error.message ?? "is invalid"}, got ${got()}`);
    }
  };

  /** Every schema object a combinator's branches reach (through `$ref` too): where the errors of its branches sit. */
  const reachedBy = new Map<object, Set<object>>();
  const reachable = (branches: object): Set<object> => {
    let reached = reachedBy.get(branches);
    if (reached) return reached;
    reached = new Set<object>();
    const stack: unknown[] = [branches];
    while (stack.length > 0) {
      const node = stack.pop();
      if (node === null || typeof node !== "object" || reached.has(node)) continue;
      reached.add(node);
      const ref = (node as SchemaObject).$ref;
      if (typeof ref === "string" && ref.startsWith("#")) stack.push(resolvePointer(document, ref));
      for (const value of Object.values(node)) if (value !== null && typeof value === "object") stack.push(value);
    }
    reachedBy.set(branches, reached);
    return reached;
  };

  const explain = (validate: ValidateFunction, rule?: string): SchemaFinding[] => {
    const out: Array<SchemaFinding & { from: string; origin: unknown }> = [];
    let errors = validate.errors ?? [];
    // Outside a combinator a finding keeps its error's keyword, and is kept or dropped by others of that keyword.
    if (rule !== undefined && !errors.some((error) => error.keyword === "anyOf" || error.keyword === "oneOf"))
      errors = errors.filter((error) => error.keyword === rule);
    for (const error of errors) {
      if ((error as { propertyName?: string }).propertyName !== undefined) continue; // folded into `propertyNames`
      if (error.keyword === "anyOf" || error.keyword === "oneOf") {
        // AJV reports a failed combinator after the errors of its branches; those are replaced by one explanation.
        // An error of the same value from a rule beside the combinator (the `type` of a field whose `allOf` holds
        // it) is not one of them, and stays: a narrower reading failing must not hide the document's rule failing.
        const at = error.instancePath;
        const branches =
          error.schema !== null && typeof error.schema === "object" ? reachable(error.schema) : undefined;
        const ofBranch = (entry: { from: string; origin: unknown }) =>
          isWithin(entry.from, at) &&
          (branches === undefined || entry.origin === undefined || branches.has(entry.origin as object));
        while (out.length > 0 && ofBranch(out[out.length - 1]!)) out.pop();
        for (const inner of explainCombinator(error)) out.push({ ...inner, from: at, origin: error.parentSchema });
        continue;
      }
      const explained = explainOne(error);
      if (explained) out.push({ ...explained, from: error.instancePath, origin: error.parentSchema });
    }
    return dedupe(out.map(({ from: _from, origin: _origin, ...rest }) => rest));
  };

  return { explain, assumptionAt, sectionAt };
}

function isWithin(pointer: string, ancestor: string): boolean {
  return pointer === ancestor || pointer.startsWith(`${ancestor}/`);
}

function dedupe(findings: SchemaFinding[]): SchemaFinding[] {
  const seen = new Set<string>();
  // An assumption that fails where a documented rule of the same keyword already fails says nothing more
  // (a number where an agent field of 2.2 takes a string, or null: the fact and our narrower reading).
  const facts = new Set(
    findings.filter((entry) => entry.assumption === undefined).map((entry) => `${entry.pointer}\u0000${entry.keyword}`),
  );
  return findings.filter((entry) => {
    if (entry.assumption !== undefined && facts.has(`${entry.pointer}\u0000${entry.keyword}`)) return false;
    const key = `${entry.pointer}\u0000${entry.keyword}\u0000${entry.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** The JSON Schema type name of a value (`integer` for whole numbers). */
export function jsonType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value;
}

function article(type: string): string {
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

function listValues(values: unknown[]): string {
  const shown = values.slice(0, MAX_LISTED).map((value) => JSON.stringify(value));
  return values.length > MAX_LISTED ? `${shown.join(", ")}, … (${values.length} in all)` : shown.join(", ");
}

/** A short rendering of a value for messages: its type and, for scalars, the value itself. */
export function showValue(value: unknown): string {
  const type = jsonType(value);
  if (value === null || value === undefined) return String(value);
  if (type === "object") return "an object";
  if (type === "array") return `an array of ${(value as unknown[]).length}`;
  // JSON.parse rounds an integer above 2^53-1 to a neighbour; showing that neighbour would quote a number nobody sent.
  if (type === "integer" && !Number.isSafeInteger(value))
    return `an integer beyond ${Number.MAX_SAFE_INTEGER}, which JSON numbers do not keep exactly`;
  const text = JSON.stringify(value);
  return `${type} ${text.length > MAX_SHOWN ? `${text.slice(0, MAX_SHOWN)}…` : text}`;
}
