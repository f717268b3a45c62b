/**
 * The body shapes of a profile's error entries are compiled in one AJV that every reading shares
 * (check-service-profile.ts): a shape that does not compile is named as before, again on every reading, and
 * leaves nothing behind that changes the readings after it; a shape with a `$` keyword gets an AJV of its own.
 */
import { describe, expect, it } from "vitest";
import { createContract } from "../../src/contract/create-contract.ts";
import { compileBodySchema, readServiceProfile } from "../../src/contract/profile/read-service-profile.ts";
import type { InferredSchema, ServiceProfile } from "../../src/contract/profile/service-profile.ts";

const document = createContract().document;
const SEATS = { type: "object", properties: { error: { type: "string" } }, required: ["error"] } as InferredSchema;

const profile = (schema: InferredSchema): ServiceProfile => ({
  profileVersion: 1,
  runId: "r1",
  recordedAt: "2026-01-02T03:04:05.000Z",
  observations: {
    "error.seats": {
      step: "s",
      observedAt: "2026-01-02T03:04:05.000Z",
      runId: "r1",
      statuses: [402],
      mediaTypes: ["application/json"],
      schema,
      example: { error: "Not Enough Agent Seats" },
    },
  },
});

describe("the body shapes of a profile, compiled in a shared AJV", () => {
  it("a shape that does not compile is named, on every reading, and the readings after it are as before", () => {
    const twice = { type: ["string", "string"] } as unknown as InferredSchema;
    for (let reading = 0; reading < 3; reading += 1) {
      const read = readServiceProfile(profile(twice), document);
      expect(read).toEqual({
        ok: false,
        problems: [
          expect.stringMatching(
            new RegExp(
              /^entry \/observations\/error\.seats: its schema does not /.source +
                /compile: schema is invalid: .*must NOT have duplicate items/.source,
            ),
          ),
        ],
      });
      expect(readServiceProfile(profile(SEATS), document)).toMatchObject({ ok: true });
    }
  });

  it("holds bodies to each shape as a fresh AJV would, however many shapes came before", () => {
    for (let index = 0; index < 600; index += 1)
      compileBodySchema({
        type: "object",
        properties: { [`field${index}`]: { type: "integer" } },
        required: [`field${index}`],
      });
    const validate = compileBodySchema(SEATS);
    expect(validate({ error: "Not Enough Agent Seats" })).toBe(true);
    expect(validate({ error: 402 })).toBe(false);
    expect(validate.errors?.[0]).toMatchObject({ instancePath: "/error", keyword: "type" });
    expect(validate({})).toBe(false);
    expect(validate.errors?.[0]).toMatchObject({ keyword: "required", params: { missingProperty: "error" } });
  });

  it("a shape with an $id compiles as often as it is given, each time on its own", () => {
    const named = { $id: "urn:example:seats", ...SEATS } as unknown as InferredSchema;
    for (let time = 0; time < 3; time += 1) expect(compileBodySchema(named)({ error: "x" })).toBe(true);
  });
});
