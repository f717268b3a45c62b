import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { parse } from "yaml";
import type { OpenApiDocument } from "./openapi-document.ts";

/** Where the contract lives: `spec/openapi.yaml` at the package root. */
export const DEFAULT_SPEC_PATH = fileURLToPath(new URL("../../spec/openapi.yaml", import.meta.url));

/**
 * Reads and parses the OpenAPI document. Parsing is done once per process by its callers (the mock and the
 * contract each keep the document they loaded); this function does not cache.
 */
export function loadSpec(path: string = DEFAULT_SPEC_PATH): OpenApiDocument {
  const document = parse(readFileSync(path, "utf8")) as unknown;
  if (document === null || typeof document !== "object" || !("openapi" in document) || !("paths" in document)) {
    throw new Error(`${path} is not an OpenAPI document`);
  }
  return document as OpenApiDocument;
}
