import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import type { ValidateFunction } from "ajv/dist/2020.js";
import { serviceProfileValidator } from "../../generated/published-schema-validators.ts";
import { PACKAGE_ROOT } from "../../package-root.ts";
import type { OpenApiDocument } from "../../spec/openapi-document.ts";
import {
  checkServiceProfile,
  compileBodySchemaWith,
  PROFILE_AJV_OPTIONS,
  type ProfileReading,
  type ProfileTools,
} from "./check-service-profile.ts";
import type { InferredSchema } from "./service-profile.ts";

export { documentedFieldsOf, type ProfileReading } from "./check-service-profile.ts";

const require = createRequire(import.meta.url);

/** Where the published JSON Schema of a profile is, in this package. */
export const PROFILE_SCHEMA_PATH = join(PACKAGE_ROOT, "spec", "service-profile.schema.json");

/** A fresh AJV for profile schemas (the published one, and the body shapes a profile holds). */
export function profileAjv() {
  const { Ajv2020: Ajv } = require("ajv/dist/2020.js") as typeof import("ajv/dist/2020.js");
  const addFormats = require("ajv-formats") as typeof import("ajv-formats").default;
  const ajv = new Ajv(PROFILE_AJV_OPTIONS);
  addFormats(ajv);
  return ajv;
}

/**
 * Node's tools for reading a profile: the published schema's validator generated at build time
 * (scripts/generate-validators.ts), and AJV, loaded on first use, for the body shapes a profile holds.
 */
const NODE_TOOLS: ProfileTools = {
  newAjv: profileAjv,
  profileValidator: serviceProfileValidator,
};

/** Compiles the body shape of an error entry, to hold bodies to it. */
export function compileBodySchema(schema: InferredSchema): ValidateFunction {
  return compileBodySchemaWith(NODE_TOOLS, schema);
}

/**
 * Reads a profile from its file's text or as an object, all or nothing (check-service-profile.ts says what is
 * checked); every problem names its entry.
 */
export function readServiceProfile(source: string | unknown, document: OpenApiDocument): ProfileReading {
  return checkServiceProfile(source, document, NODE_TOOLS);
}

/** Reads a profile file; the problems name the file. */
export function readServiceProfileFile(file: string, document: OpenApiDocument): ProfileReading {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === "ENOENT" ? "no such file" : (error as Error).message;
    return { ok: false, problems: [`cannot read ${file}: ${reason}`] };
  }
  return readServiceProfile(text, document);
}
