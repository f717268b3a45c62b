/**
 * The validators of the published schemas (spec/usage.schema.json, spec/service-profile.schema.json) are generated
 * at build time (scripts/generate-validators.ts) instead of compiled when a file is read. They must judge as AJV
 * compiling the schema does, with the options the readers used: on a usage document the mock recorded and a
 * profile, and on each of their breaks (a key missing, an unknown key, a wrong type, a string too long counted in
 * code points, a date-time that is none, duplicate items of untyped values), the same verdict and the same errors,
 * in order. The formats, the code-point count and the deep equality are the generated code's own imports.
 */
import { readFileSync } from "node:fs";
import request from "supertest";
import { describe, expect, it } from "vitest";
import { serviceProfileValidator, usageDocumentValidator } from "../../src/generated/published-schema-validators.ts";
import { createMockServer } from "../../src/hosts/node/create-mock-server.ts";
import { PROFILE_SCHEMA_PATH, profileAjv } from "../../src/contract/profile/read-service-profile.ts";
import { USAGE_SCHEMA_PATH } from "../../src/contract/usage/read-usage-document.ts";
import { sharedContract } from "../support/mock-harness.ts";
import { PROFILE as SAMPLE } from "../support/sample-profile.ts";
import { DEMO, tinyFixtures } from "../support/tiny-fixtures.ts";

type Json = Record<string, unknown>;

const validateUsageDocument = usageDocumentValidator();
const validateServiceProfile = serviceProfileValidator();

/** The published schema compiled as the readers compiled it before the validators were generated. */
const compiled = (path: string) => profileAjv().compile(JSON.parse(readFileSync(path, "utf8")) as object);

/** The verdict and the errors a validator gives, in a form two validators can be compared by. */
function judged(validate: typeof validateUsageDocument, value: unknown) {
  const valid = validate(value);
  return {
    valid,
    errors: (validate.errors ?? []).map(({ instancePath, schemaPath, keyword, params, message }) => ({
      instancePath,
      schemaPath,
      keyword,
      params,
      message,
    })),
  };
}

/** A copy of `value` with `change` made to it. */
function changed(value: Json, change: (copy: Json) => void): Json {
  const copy = structuredClone(value);
  change(copy);
  return copy;
}

async function recordedUsage(): Promise<Json> {
  const mock = createMockServer({
    fixtures: tinyFixtures(),
    contract: sharedContract(),
    log: () => {},
    now: () => 1_700_000_000_000,
    usage: { consumer: "web-app" },
  });
  mock.usage!.beginTest("properties > read and list");
  await request(mock.app)
    .get("/api/v1/object/property/1001")
    .set({ ...DEMO, "content-type": "application/json" });
  await request(mock.app)
    .get("/api/v1/object/properties/1")
    .set({ ...DEMO, "content-type": "application/json" });
  return mock.usage!.toJSON() as unknown as Json;
}

describe("the generated validators of the published schemas", () => {
  it("judge usage documents as AJV compiling spec/usage.schema.json does", async () => {
    const usage = await recordedUsage();
    const reference = compiled(USAGE_SCHEMA_PATH);
    const documents = [
      usage,
      changed(usage, (copy) => delete copy.consumer),
      changed(usage, (copy) => (copy.unknown = true)),
      changed(usage, (copy) => (copy.tests = "none")),
      changed(usage, (copy) => ((copy.tests as Json[])[0]!.name = "🏠".repeat(2_000))),
      changed(usage, (copy) => ((copy.tests as Json[])[0]!.interactions = [{}])),
      "not an object",
    ];
    expect(judged(validateUsageDocument, usage).valid).toBe(true);
    for (const document of documents)
      expect(judged(validateUsageDocument, document)).toEqual(judged(reference, document));
    expect(documents.filter((document) => !validateUsageDocument(document))).toHaveLength(documents.length - 1);
  });

  it("judge profiles as AJV compiling spec/service-profile.schema.json does", () => {
    const PROFILE = SAMPLE as unknown as Json;
    const reference = compiled(PROFILE_SCHEMA_PATH);
    const errorEntry = (copy: Json) => (copy.observations as Record<string, Json>)["error.agent_exists.create"]!;
    const extra = (copy: Json) =>
      ((copy.observations as Record<string, Json>)["extra_fields.property"]!.fields as Record<string, Json>)
        .listing_score!;
    const profiles = [
      PROFILE,
      changed(PROFILE, (copy) => delete copy.runId),
      changed(PROFILE, (copy) => (copy.unknown = 1)),
      changed(PROFILE, (copy) => (copy.recordedAt = "yesterday")),
      changed(PROFILE, (copy) => (errorEntry(copy).observedAt = "2026-13-45T99:00:00Z")),
      changed(PROFILE, (copy) => (errorEntry(copy).statuses = [409, 409])),
      changed(PROFILE, (copy) => (extra(copy).types = ["integer", "integer"])),
      changed(PROFILE, (copy) => (errorEntry(copy).mediaTypes = ["x".repeat(201)])),
      changed(PROFILE, (copy) => (copy.runId = "𝄞".repeat(100))),
      changed(PROFILE, (copy) => (copy.runId = "𝄞".repeat(101))),
    ];
    expect(judged(validateServiceProfile, PROFILE).valid).toBe(true);
    for (const profile of profiles) expect(judged(validateServiceProfile, profile)).toEqual(judged(reference, profile));
    // The last but one is within maxLength only counted in code points, as JSON Schema counts.
    expect(profiles.map((profile) => validateServiceProfile(profile))).toEqual([
      true,
      false,
      false,
      false,
      false,
      false,
      false,
      false,
      true,
      false,
    ]);
  });
});
