/** The published usage schema, compiled once, to hold every document the mock writes to it. */
import { readFileSync } from "node:fs";
import { Ajv2020 } from "ajv/dist/2020.js";
import { expect } from "vitest";
import { PACKAGE_ROOT } from "../support/start-process.ts";

const schema = JSON.parse(readFileSync(`${PACKAGE_ROOT}/spec/usage.schema.json`, "utf8"));
const validate = new Ajv2020({ allErrors: true, strict: false }).compile(schema);

/** Fails, listing the schema's complaints, unless the document is a valid usage document. */
export function expectValidUsage(document: unknown): void {
  const valid = validate(document);
  expect(valid ? [] : validate.errors?.slice(0, 10).map((error) => `${error.instancePath} ${error.message}`)).toEqual(
    [],
  );
}

/** Secret-looking credentials: none of them may reach a usage file. */
export const SECRET = { "API-KEY": "sk_live_4f9a8c7e6d5b4a39", TOKEN: "tok_9c1e2f3a4b5c6d7e8f90" } as const;
export const OTHER_SECRET = { "API-KEY": "sk_live_other_77aa66bb55cc", TOKEN: "tok_other_11dd22ee33ff44" } as const;
