import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { createClosedValidators, createOpenValidators, SPEC_SHA256 as VALIDATORS_SHA256 } from "../generated/contract-validators.ts";
import { OPENAPI_DOCUMENT_JSON, SPEC_SHA256 } from "../generated/openapi-document.ts";
import { resolvePointer } from "../spec/json-pointer.ts";
import { DEFAULT_SPEC_PATH } from "../spec/load-spec.ts";
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
 * The spec/openapi.yaml of this package in the form `npm run generate` gave it, when that form is current:
 * the file's SHA-256 must be the one both generated files were made from. When the spec was edited since (while
 * developing, before `npm run generate`), undefined: the caller then parses and compiles, and never validates
 * against an older contract. Reading and hashing the YAML costs well under a millisecond; parsing it, tens.
 */
export function loadPrebuiltSpec(specPath: string = DEFAULT_SPEC_PATH): PrebuiltSpec | undefined {
  let sha256: string;
  try {
    sha256 = createHash("sha256").update(readFileSync(specPath)).digest("hex");
  } catch {
    return undefined;
  }
  if (sha256 !== SPEC_SHA256 || sha256 !== VALIDATORS_SHA256) return undefined;
  return {
    document: JSON.parse(OPENAPI_DOCUMENT_JSON) as OpenApiDocument,
    validators(validated, closed) {
      const create = closed ? createClosedValidators : createOpenValidators;
      const validators = create((pointer) => resolvePointer(validated, pointer));
      return (pointer) => validators[pointer];
    },
  };
}
