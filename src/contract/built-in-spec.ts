import { createClosedValidators, createOpenValidators } from "../generated/contract-validators.ts";
import { OPENAPI_DOCUMENT_JSON } from "../generated/openapi-document.ts";
import { resolvePointer } from "../spec/json-pointer.ts";
import type { OpenApiDocument } from "../spec/openapi-document.ts";
import type { ValidatorLookup } from "./validator-pointers.ts";

/** The contract's spec as generated at build time: the parsed document and, for a reading of it, its validators. */
export interface PrebuiltSpec {
  /** A fresh copy of the document as written (each contract gets its own). */
  document: OpenApiDocument;
  /** The validators of `validated`, which must be `document` itself or `closeSchemas(document)`. */
  validators(validated: OpenApiDocument, closed: boolean): ValidatorLookup;
}

/**
 * The spec as `npm run generate` gave it, with no check that it is current: what a host with no file system
 * (the browser module) bundles. Node's `loadPrebuiltSpec` checks it against spec/openapi.yaml first.
 */
export function builtInSpec(): PrebuiltSpec {
  return {
    document: JSON.parse(OPENAPI_DOCUMENT_JSON) as OpenApiDocument,
    validators(validated, closed) {
      const create = closed ? createClosedValidators : createOpenValidators;
      const validators = create((pointer) => resolvePointer(validated, pointer));
      return (pointer) => validators[pointer];
    },
  };
}
