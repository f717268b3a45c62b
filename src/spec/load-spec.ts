import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { PACKAGE_ROOT } from "../package-root.ts";
import type { OpenApiDocument } from "./openapi-document.ts";

/** Where the contract lives: `spec/openapi.yaml` at the package root. */
export const DEFAULT_SPEC_PATH = join(PACKAGE_ROOT, "spec", "openapi.yaml");

/**
 * Reads and parses the OpenAPI document. Parsing is done once per process by its callers (the mock and the
 * contract each keep the document they loaded); this function does not cache.
 */
export function loadSpec(path: string = DEFAULT_SPEC_PATH): OpenApiDocument {
  // Loaded here, not when the module is: a contract built from the generated JSON never parses YAML.
  const { parse } = createRequire(import.meta.url)("yaml") as typeof import("yaml");
  const document = parse(readFileSync(path, "utf8")) as unknown;
  if (document === null || typeof document !== "object" || !("openapi" in document) || !("paths" in document)) {
    throw new Error(`${path} is not an OpenAPI document`);
  }
  return document as OpenApiDocument;
}
