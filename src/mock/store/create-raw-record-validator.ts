import { loadSpec } from "../../spec/load-spec.ts";
import type { OpenApiDocument } from "../../spec/openapi-document.ts";
import { nodeAjvParts } from "../../contract/create-ajv.ts";
import { buildRawRecordValidator, type RawRecordValidator } from "./raw-record-validator.ts";

export type { RawRecordValidator } from "./raw-record-validator.ts";

/**
 * The check a raw write goes through, on Node: {@link buildRawRecordValidator} over `spec/openapi.yaml` (or the
 * document given), with AJV from this package's dependencies, compiled on first use.
 */
export function createRawRecordValidator(
  document?: OpenApiDocument,
  nullAgentFields: readonly string[] = [],
): RawRecordValidator & { warm(): void } {
  return buildRawRecordValidator(() => document ?? loadSpec(), nodeAjvParts, nullAgentFields);
}
