import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { SPEC_SHA256 as VALIDATORS_SHA256 } from "../generated/contract-validators.ts";
import { SPEC_SHA256 } from "../generated/openapi-document.ts";
import { DEFAULT_SPEC_PATH } from "../spec/load-spec.ts";
import { builtInSpec, type PrebuiltSpec } from "./built-in-spec.ts";

export type { PrebuiltSpec };
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
  return builtInSpec();
}
