/**
 * Validates spec/openapi.yaml against the official OpenAPI 3.1 JSON Schema, with a validator independent of
 * Redocly (part of `npm run lint`), and that every assumption marker has its stable name, once per decision.
 * Exit code 0 when valid, 1 otherwise.
 */
import { Validator } from "@seriousme/openapi-schema-validator";
import { checkAssumptionNames, listAssumptions } from "../src/spec/list-assumptions.ts";
import { DEFAULT_SPEC_PATH, loadSpec } from "../src/spec/load-spec.ts";

const path = process.argv[2] ?? DEFAULT_SPEC_PATH;
const validator = new Validator();
const result = await validator.validate(path);
if (result.valid) {
  console.log(`${path}: valid OpenAPI ${validator.version} (official schema, @seriousme/openapi-schema-validator)`);
} else {
  console.error(`${path}: does not match the OpenAPI ${validator.version ?? ""} schema`);
  console.error(JSON.stringify(result.errors, null, 2));
  process.exitCode = 1;
}

const unnamed = checkAssumptionNames(listAssumptions(loadSpec(path)));
if (unnamed.length > 0) {
  console.error(`${path}: the assumption markers' names cannot be used:`);
  for (const problem of unnamed) console.error(`  ${problem}`);
  process.exitCode = 1;
}
