import { neverSetDefaultFields } from "../../spec/never-set-fields.ts";
import type { Ajv2020, ValidateFunction } from "ajv/dist/2020.js";
import type { OpenApiDocument } from "../../spec/openapi-document.ts";
import { isJsonMediaType } from "../build-contract.ts";
import {
  ERROR_POINTS,
  PROFILE_VERSION,
  RESOURCES,
  type ErrorObservation,
  type InferredSchema,
  type ResourceName,
  type ServiceProfile,
} from "./service-profile.ts";

/** A profile that can be used, or why not: one line per entry at fault. */
export type ProfileReading = { ok: true; profile: ServiceProfile } | { ok: false; problems: string[] };

/**
 * The options of every AJV that reads profiles and usage documents, in each host and in the validators generated
 * from the published schemas (scripts/generate-validators.ts), with ajv-formats' formats added: strict off, every
 * error, union types.
 */
export const PROFILE_AJV_OPTIONS = { strict: false, allErrors: true, allowUnionTypes: true } as const;

/**
 * What reading a profile needs from its host: a fresh AJV ({@link PROFILE_AJV_OPTIONS}) and the validator of the
 * published JSON Schema of a profile, compiled with those options. Node has the validator generated at build time
 * and loads AJV when first asked (read-service-profile.ts); the browser module imports AJV and compiles the schema
 * when a profile is first given (src/hosts/msw/load-profile-playback.ts).
 */
export interface ProfileTools {
  newAjv(): Ajv2020;
  profileValidator(): ValidateFunction;
}

/** The error values section 7 names, which the body of their error must carry. */
const NAMED_ERRORS: Partial<Record<string, string>> = {
  "error.agent_exists.create": "Agent Already Exists",
  "error.seats": "Not Enough Agent Seats",
};

/**
 * The AJV in which a set of tools compiles body shapes. A fresh AJV compiles the JSON Schema meta-schema before
 * its first schema, which costs many times what a body shape does, and a profile has a shape per error entry,
 * compiled again each time a profile is read or compared: one AJV serves them all. Each shape is taken out of it
 * once compiled (the function stays good), and the AJV is renewed after COMPILES_PER_AJV of them, since what
 * compiling leaves in its scope is never given back.
 */
const bodyCompilers = new WeakMap<ProfileTools, { ajv: Ajv2020; compiled: number }>();
const COMPILES_PER_AJV = 256;

/**
 * The body shapes already compiled, by their JSON text: a profile's shapes are compiled when the mock reads it and
 * again each time a run compares with it, and a compiled validator holds nothing of the body it last checked but
 * its `errors`, which every caller reads at once. Emptied when full, so that a process reading many profiles
 * keeps no more than this many validators alive.
 */
const compiledShapes = new WeakMap<ProfileTools, Map<string, ValidateFunction>>();
const SHAPES_KEPT = 512;

/** Compiles the body shape of an error entry, to hold bodies to it. */
export function compileBodySchemaWith(tools: ProfileTools, schema: InferredSchema): ValidateFunction {
  // An inferred shape has types, properties, required keys and items only; any `$` keyword (an `$id` or an
  // anchor would leave a name behind in a shared AJV) gets an AJV of its own.
  const text = JSON.stringify(schema);
  if (schema === null || typeof schema !== "object" || typeof text !== "string" || text.includes('"$'))
    return tools.newAjv().compile(schema as object);
  let shapes = compiledShapes.get(tools);
  if (!shapes) compiledShapes.set(tools, (shapes = new Map()));
  const known = shapes.get(text);
  if (known) return known;
  let compiler = bodyCompilers.get(tools);
  if (!compiler || compiler.compiled >= COMPILES_PER_AJV)
    bodyCompilers.set(tools, (compiler = { ajv: tools.newAjv(), compiled: 0 }));
  compiler.compiled += 1;
  try {
    const validate = compiler.ajv.compile(schema as object);
    if (shapes.size >= SHAPES_KEPT) shapes.clear();
    shapes.set(text, validate);
    return validate;
  } finally {
    compiler.ajv.removeSchema(schema);
  }
}

/** The fields the contract documents for each resource (sections 2.1 to 2.3). */
export function documentedFieldsOf(document: OpenApiDocument): Record<ResourceName, Set<string>> {
  const schemas = (document.components?.schemas ?? {}) as Record<string, { properties?: Record<string, unknown> }>;
  const fields = (name: string) => new Set(Object.keys(schemas[name]?.properties ?? {}));
  return Object.fromEntries(
    Object.entries(RESOURCES).map(([resource, schema]) => [resource, fields(schema)]),
  ) as Record<ResourceName, Set<string>>;
}

/**
 * Reads a profile from its file's text or as an object, all or nothing: the text must be JSON, of this format's
 * version, valid against `spec/service-profile.schema.json` (no unknown key), and must contradict no documented
 * fact (an error answered with a success status or a media type that is not JSON, a field of section 2.1 that
 * is not null when never set, an agent field never set that its documented type rules out, a documented field
 * listed as undocumented, a named error of section 7 whose body does not name it). Every problem names its entry.
 */
export function checkServiceProfile(
  source: string | unknown,
  document: OpenApiDocument,
  tools: ProfileTools,
): ProfileReading {
  let value: unknown = source;
  if (typeof source === "string") {
    try {
      value = JSON.parse(source);
    } catch (error) {
      return { ok: false, problems: [`not JSON: ${(error as Error).message}`] };
    }
  }
  if (value === null || typeof value !== "object" || Array.isArray(value))
    return { ok: false, problems: ["a profile is a JSON object"] };
  const version = (value as { profileVersion?: unknown }).profileVersion;
  if (version !== PROFILE_VERSION) {
    return {
      ok: false,
      problems: [
        `profileVersion is ${JSON.stringify(version)}; this kit reads version ${PROFILE_VERSION} ` +
          "(record the profile again with this kit's property-listing-contract --write-profile)",
      ],
    };
  }
  const profileValidator = tools.profileValidator();
  if (!profileValidator(value)) {
    return {
      ok: false,
      problems: (profileValidator.errors ?? []).slice(0, 20).map((error) => {
        const where =
          error.instancePath === ""
            ? "the profile"
            : `entry ${error.instancePath.replace(/~1/g, "/").replace(/~0/g, "~")}`;
        const extra = (error.params as { additionalProperty?: string }).additionalProperty;
        return extra !== undefined
          ? `${where}: unknown key ${JSON.stringify(extra)}`
          : `${where}: ${error.message ?? "is invalid"}`;
      }),
    };
  }
  const profile = value as ServiceProfile;
  const problems = contradictions(profile, document, tools);
  return problems.length > 0 ? { ok: false, problems } : { ok: true, profile };
}

/** What in a profile the interface document rules out, one line per entry. */
function contradictions(profile: ServiceProfile, document: OpenApiDocument, tools: ProfileTools): string[] {
  const problems: string[] = [];
  const observations = profile.observations as Record<string, unknown>;
  for (const point of Object.keys(ERROR_POINTS)) {
    const entry = observations[point] as ErrorObservation | undefined;
    if (!entry) continue;
    const at = `entry /observations/${point}`;
    for (const status of entry.statuses) {
      if (status < 300)
        problems.push(
          `${at}: status ${status} is not a refusal (section 4: 200 is the success status of every endpoint)`,
        );
    }
    for (const media of entry.mediaTypes) {
      if (!isJsonMediaType(media))
        problems.push(`${at}: media type ${JSON.stringify(media)} is not JSON (section 1: bodies are JSON)`);
    }
    let validate: ValidateFunction;
    try {
      validate = compileBodySchemaWith(tools, entry.schema);
    } catch (error) {
      problems.push(`${at}: its schema does not compile: ${(error as Error).message}`);
      continue;
    }
    if (!validate(entry.example))
      problems.push(
        `${at}: its example does not fit its schema ` +
          `(${validate.errors?.[0]?.instancePath || "/"} ${validate.errors?.[0]?.message ?? ""})`,
      );
    const status = (entry.example as { status?: unknown } | null)?.status;
    if (typeof status === "number" && status >= 200 && status < 300)
      problems.push(`${at}: its body's status ${status} is a success status (section 4)`);
    const named = NAMED_ERRORS[point];
    if (named && !JSON.stringify(entry.example).includes(named))
      problems.push(`${at}: its body does not name the error value ${JSON.stringify(named)} (section 7)`);
  }
  for (const media of profile.observations["media_type.success"]?.value ?? []) {
    if (!isJsonMediaType(media))
      problems.push(
        `entry /observations/media_type.success: ${JSON.stringify(media)} is not JSON (section 1: bodies are JSON)`,
      );
  }
  const documented = documentedFieldsOf(document);
  // A field the mock fills itself (never-set-defaults) may hold the service's own value, or be empty, as well.
  const ownValue = new Set(neverSetDefaultFields(document));
  for (const [field, shown] of Object.entries(profile.observations["unset.property"]?.fields ?? {})) {
    if (!documented.property.has(field))
      problems.push(`entry /observations/unset.property: ${field} is not a field of a property (section 2.1)`);
    else if (shown !== "null" && !(ownValue.has(field) && (shown === "value" || shown === "empty")))
      problems.push(
        `entry /observations/unset.property: ${field} comes back ${shown}, ` +
          "but section 2.1 says absent values come back as null",
      );
  }
  for (const [field, shown] of Object.entries(profile.observations["unset.agent"]?.fields ?? {})) {
    const wrong = agentUnsetContradiction(document, field, shown, tools);
    if (wrong) problems.push(`entry /observations/unset.agent: ${wrong}`);
  }
  for (const resource of Object.keys(RESOURCES) as ResourceName[]) {
    const key = `extra_fields.${resource}` as const;
    for (const field of Object.keys(profile.observations[key]?.fields ?? {})) {
      if (documented[resource].has(field))
        problems.push(
          `entry /observations/${key}: ${field} is a documented field of ${RESOURCES[resource]}, ` +
            "its type is the document's",
        );
    }
  }
  return problems;
}

/** A schema without the parts our assumptions cover: what the interface document itself says. */
function factsOnly(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(factsOnly);
  if (schema === null || typeof schema !== "object") return schema;
  if ("x-assumption" in schema) return {};
  return Object.fromEntries(Object.entries(schema).map(([key, value]) => [key, factsOnly(value)]));
}

let agentFacts:
  | { document: OpenApiDocument; validate: (field: string, value: unknown) => boolean; required: Set<string> }
  | undefined;

/**
 * What section 2.2 rules out of a never-set agent field's representation: a field the card does not have, a
 * field of the table absent, null or empty where the field's documented type leaves it no room (the parts our
 * assumptions add, a string where the document allows null, do not count).
 */
function agentUnsetContradiction(
  document: OpenApiDocument,
  field: string,
  shown: string,
  tools: ProfileTools,
): string | undefined {
  if (agentFacts?.document !== document) {
    const components = factsOnly(document.components ?? {}) as { schemas?: Record<string, { required?: string[] }> };
    const ajv = tools.newAjv();
    ajv.addSchema({ $id: "urn:property-listing:facts", components });
    agentFacts = {
      document,
      validate: (name, value) =>
        ajv.validate(`urn:property-listing:facts#/components/schemas/AgentCard/properties/${name}`, value),
      required: new Set(components.schemas?.AgentCard?.required ?? []),
    };
  }
  if (!documentedFieldsOf(document).agent.has(field)) return `${field} is not a field of an agent card (section 2.2)`;
  if (shown === "absent" && agentFacts.required.has(field))
    return `${field} comes back absent, but section 2.2 lists it among the fields of every agent card`;
  if (shown === "null" && !agentFacts.validate(field, null))
    return `${field} comes back null, but section 2.2 types it without null`;
  if (shown === "empty" && !agentFacts.validate(field, "") && !agentFacts.validate(field, []))
    return `${field} comes back empty, but section 2.2 types it so that an empty value is not one`;
  return undefined;
}
