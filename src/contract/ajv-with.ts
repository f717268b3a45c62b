import type { Ajv2020 } from "ajv/dist/2020.js";
import type { OpenApiDocument } from "../spec/openapi-document.ts";
import { isUri } from "./contract-formats.ts";

/** The `$id` under which the whole OpenAPI document is registered with AJV. */
export const SPEC_ID = "https://property-listing.example/openapi.json";

/**
 * Keywords that AJV meets while compiling an OpenAPI 3.1 document and that are not JSON Schema validation
 * keywords. They are registered as a vocabulary (annotations without validation) so strict mode stays on and
 * still refuses a misspelt keyword.
 * - the document's top-level fields, because AJV compiles the document root when it resolves a fragment;
 * - the OpenAPI 3.1 base vocabulary's annotation keywords (OpenAPI 3.1 §4.8.24);
 * - this project's extensions.
 */
export const OPENAPI_VOCABULARY = [
  "openapi",
  "info",
  "jsonSchemaDialect",
  "servers",
  "paths",
  "webhooks",
  "components",
  "security",
  "tags",
  "externalDocs",
  "example",
  "xml",
  "discriminator",
  "x-assumption",
  "x-assumption-id",
  "x-security-assumption-id",
  "x-section",
  "x-mock-problems",
] as const;

/** AJV's parts, as a host gives them: Node requires them (create-ajv.ts), a browser module imports them when needed. */
export interface AjvParts {
  Ajv2020: typeof import("ajv/dist/2020.js").Ajv2020;
  addFormats: typeof import("ajv-formats").default;
  _: typeof import("ajv")._;
}

/** Options of {@link createAjvWith}. */
export interface AjvOptions {
  /** Keep each validator's source, for `scripts/generate-validators.ts` (AJV's standalone code). */
  standalone?: boolean;
  /** Report every error (the default), or stop at the first. */
  allErrors?: boolean;
  /** Check the document against the JSON Schema meta-schema (the default); skip it for a document already checked. */
  validateSchema?: boolean;
}

/**
 * Builds an AJV instance that knows the whole OpenAPI document under {@link SPEC_ID}, so any schema of it can
 * be compiled with `ajv.getSchema(`${SPEC_ID}#/components/schemas/Property`)`.
 *
 * @param options.allErrors report every error (the default), or stop at the first, which keeps the work of
 *   refusing a value with many errors in proportion to its size.
 * @param options.validateSchema check the document against the JSON Schema meta-schema (the default); a second
 *   instance over a document already checked can skip it and start faster.
 */
export function createAjvWith(parts: AjvParts, document: OpenApiDocument, options: AjvOptions = {}): Ajv2020 {
  const { Ajv2020: Ajv, addFormats, _ } = parts;
  const ajv = new Ajv({
    strict: true,
    validateSchema: options.validateSchema ?? true,
    allowUnionTypes: true,
    allErrors: options.allErrors ?? true,
    verbose: true,
    ...(options.standalone ? { code: { source: true, lines: true, formats: _`contractFormats` } } : {}),
  });
  addFormats(ajv);
  // The same check, quicker for plain URLs (contract-formats.ts); standalone code names it `contractFormats`.
  ajv.addFormat("uri", isUri);
  ajv.addVocabulary([...OPENAPI_VOCABULARY]);
  ajv.addSchema({ ...document, $id: SPEC_ID });
  return ajv;
}
