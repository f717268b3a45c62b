import type { ValidateFunction } from "ajv";
import type { OpenApiDocument } from "../spec/openapi-document.ts";
import { createAjv, SPEC_ID } from "./create-ajv.ts";
import type { ValidatorLookup } from "./validator-pointers.ts";

/**
 * Compiles the validator of every pointer with AJV, now: what a contract does when it has no validators
 * generated at build time for its document (a document given by the caller, or a spec edited since the last
 * `npm run generate`). Nothing is compiled later, when a request is validated.
 */
export function compileValidators(document: OpenApiDocument, pointers: readonly string[]): ValidatorLookup {
  const ajv = createAjv(document);
  const validators = new Map<string, ValidateFunction>();
  for (const pointer of pointers) {
    const validate = ajv.getSchema(`${SPEC_ID}#${pointer}`);
    if (validate) validators.set(pointer, validate);
  }
  return (pointer) => validators.get(pointer);
}
