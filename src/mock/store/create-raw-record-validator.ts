import { loadSpec } from "../../spec/load-spec.ts";
import type { OpenApiDocument } from "../../spec/openapi-document.ts";
import { createRequire } from "node:module";
import { buildRawRecordValidator, type RawRecordValidator } from "./raw-record-validator.ts";

export { buildRawRecordValidator, type RawRecordCheck, type RawRecordValidator } from "./raw-record-validator.ts";

const require = createRequire(import.meta.url);

/**
 * The check a raw write goes through, on Node: {@link buildRawRecordValidator} over `spec/openapi.yaml` (or the
 * document given), with AJV from this package's dependencies, compiled on first use.
 */
export function createRawRecordValidator(document?: OpenApiDocument, nullAgentFields: readonly string[] = []): RawRecordValidator & { warm(): void } {
  return buildRawRecordValidator(
    () => document ?? loadSpec(),
    () => ({
      Ajv2020: (require("ajv/dist/2020.js") as typeof import("ajv/dist/2020.js")).Ajv2020,
      addFormats: require("ajv-formats") as typeof import("ajv-formats").default,
      _: (require("ajv") as typeof import("ajv"))._,
    }),
    nullAgentFields,
  );
}
