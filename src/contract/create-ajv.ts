import { createRequire } from "node:module";
import type { Ajv2020 } from "ajv/dist/2020.js";
import type { OpenApiDocument } from "../spec/openapi-document.ts";
import { createAjvWith, type AjvOptions, type AjvParts } from "./ajv-with.ts";

export { SPEC_ID, type AjvOptions } from "./ajv-with.ts";

// AJV's compiler is loaded when a contract is compiled at run time, not when this module is imported: the
// mock's default path runs the validators generated at build time and never needs it. Both packages are
// CommonJS, so a synchronous require keeps createContract synchronous.
const require = createRequire(import.meta.url);

/**
 * Builds an AJV instance that knows the whole OpenAPI document under `SPEC_ID`, so any schema of it can be
 * compiled with `ajv.getSchema(`${SPEC_ID}#/components/schemas/Property`)`: {@link createAjvWith} with AJV
 * required from this package's dependencies.
 */
export function createAjv(document: OpenApiDocument, options: AjvOptions = {}): Ajv2020 {
  return createAjvWith(nodeAjvParts(), document, options);
}

/** AJV's parts from this package's dependencies, required when first asked for. */
export function nodeAjvParts(): AjvParts {
  return {
    Ajv2020: (require("ajv/dist/2020.js") as typeof import("ajv/dist/2020.js")).Ajv2020,
    addFormats: require("ajv-formats") as typeof import("ajv-formats").default,
    _: (require("ajv") as typeof import("ajv"))._,
  };
}
