import type { ValidateFunction } from "ajv";
import { closeSchemas } from "../../contract/close-schemas.ts";
import { createAjvWith, SPEC_ID, type AjvParts } from "../../contract/ajv-with.ts";
import { createSchemaExplainer } from "../../contract/schema-explainer.ts";
import type { OpenApiDocument } from "../../spec/openapi-document.ts";
import type { FieldError } from "../problems.ts";
import { boundForValidation } from "../validation/bound-for-validation.ts";
import type { StoredRecord } from "./mock-store.ts";
import { COLLECTIONS, type CollectionName } from "./records.ts";
import { storedRecordSchemas } from "./stored-record-schemas.ts";

/** What checking a raw record gave: the record, typed, or every offending field found. */
export type RawRecordCheck = { ok: true; record: StoredRecord } | { ok: false; errors: FieldError[]; atLeast: boolean };

/** Checks a record against its collection's stored shape. */
export type RawRecordValidator = (collection: CollectionName, value: unknown) => RawRecordCheck;

/**
 * Returns the check a raw write goes through. The schemas are compiled on first use (a few hundred
 * milliseconds, which a mock whose raw routes are never written to should not pay at start-up), or by `warm`.
 * The work is bounded for any body under the size limit: errors are looked for in a bounded copy
 * (bound-for-validation.ts), and the stored shapes bound every array and keyed object below what that copy
 * keeps, so a record that had to be cut is invalid in the copy too.
 *
 * @param document the spec whose answer schemas the stored records follow.
 * @param ajvParts AJV as the host gives it (create-raw-record-validator.ts: Node's).
 * @param nullAgentFields agent fields a stored card may hold null in (a service profile's, stored-record-schemas.ts).
 */
export function buildRawRecordValidator(
  document: () => OpenApiDocument,
  ajvParts: () => AjvParts,
  nullAgentFields: readonly string[] = [],
): RawRecordValidator & { warm(): void } {
  let compiled: Map<CollectionName, ValidateFunction> | undefined;
  let explain: ((validate: ValidateFunction) => FieldError[]) | undefined;

  const compile = (): Map<CollectionName, ValidateFunction> => {
    if (compiled) return compiled;
    const source = document();
    // Every mock of a process whose document has the same schemas (each contract holds its own copy of the
    // document) and the same null fields checks raw records alike: the schemas are compiled by the first mock to
    // need them, not again by each one a suite starts. Their text is a small fraction of compiling them.
    const key = JSON.stringify([source.components?.schemas ?? {}, nullAgentFields]);
    const known = COMPILED.get(key) ?? compileChecks(source, ajvParts, nullAgentFields);
    COMPILED.set(key, known);
    ({ compiled, explain } = known);
    return compiled;
  };

  const validate = ((collection: CollectionName, value: unknown): RawRecordCheck => {
    const validator = compile().get(collection)!;
    const bounded = boundForValidation(value);
    if (!bounded.ok)
      return { ok: false, errors: [{ in: "body", pointer: bounded.pointer, detail: bounded.detail }], atLeast: false };
    if (!validator(bounded.value)) return { ok: false, errors: explain!(validator), atLeast: bounded.cut };
    if (bounded.cut) {
      // Cannot happen while the stored shapes bound every array and keyed object (stored-record-schemas.ts).
      return {
        ok: false,
        errors: [{ in: "body", pointer: "", detail: "is larger than a stored record can be" }],
        atLeast: false,
      };
    }
    return { ok: true, record: value as StoredRecord };
  }) as RawRecordValidator & { warm(): void };
  validate.warm = () => void compile();
  return validate;
}

/** A document's compiled checks of raw records, one per set of null agent fields. */
interface CompiledChecks {
  compiled: Map<CollectionName, ValidateFunction>;
  explain: (validate: ValidateFunction) => FieldError[];
}
/** By the text of the schemas and the null fields: a process sees one document, or a few in its tests. */
const COMPILED = new Map<string, CompiledChecks>();

function compileChecks(
  source: OpenApiDocument,
  ajvParts: () => AjvParts,
  nullAgentFields: readonly string[],
): CompiledChecks {
  // Only the component schemas are needed; the document was checked against the meta-schema by the contract.
  const closed = closeSchemas({
    openapi: source.openapi,
    info: source.info,
    paths: {},
    components: { schemas: source.components?.schemas ?? {} },
  });
  const schemas = storedRecordSchemas(closed, nullAgentFields);
  const ajv = createAjvWith(ajvParts(), closed, { validateSchema: false });
  const explainer = createSchemaExplainer(closed, (pointer) => ajv.getSchema(`${SPEC_ID}#${pointer}`));
  return {
    compiled: new Map(COLLECTIONS.map((collection) => [collection, ajv.compile(schemas[collection])])),
    explain: (validate) =>
      explainer.explain(validate).map((finding) => ({ in: "body", pointer: finding.pointer, detail: finding.message })),
  };
}
