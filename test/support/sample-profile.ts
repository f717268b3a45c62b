/**
 * A service profile that changes every kind of answer it can (error statuses and bodies, the media type, extra
 * fields, the agent list's order, the fresh account's seats), with the pieces to build others like it. Shared by
 * the tests of profile playback in the Node host and in MSW's handlers, which must answer alike.
 */
import type { ServiceProfile } from "../../src/contract/profile/service-profile.ts";

/** Where an observation came from. */
export const provenance = { step: "a step", observedAt: "2026-01-02T03:04:05.000Z", runId: "r1" };

/** An observed error answer: its status, and a JSON body of string members. */
export const error = (status: number, example: Record<string, string>) => ({
  ...provenance,
  statuses: [status],
  mediaTypes: ["application/json; charset=utf-8"],
  example,
  schema: {
    type: "object",
    properties: Object.fromEntries(Object.keys(example).map((key) => [key, { type: "string" }])),
    required: Object.keys(example),
  },
});

export const PROFILE: ServiceProfile = {
  profileVersion: 1,
  runId: "r1",
  recordedAt: "2026-01-02T03:04:05.000Z",
  observations: {
    "error.validation": error(422, { error: "invalid", kind: "validation" }),
    "error.unauthorized.missing": error(403, { error: "no credentials", kind: "auth" }),
    "error.unauthorized.wrong": error(403, { error: "bad credentials", kind: "auth" }),
    "error.not_found": error(404, { message: "not here" }),
    "error.agent_exists.create": error(409, { error: "Agent Already Exists", kind: "agent" }),
    "media_type.success": { ...provenance, value: ["application/json"] },
    "extra_fields.agent": { ...provenance, fields: { created: { types: ["integer"], example: 1767225600 } } },
    "extra_fields.property": {
      ...provenance,
      fields: { listing_score: { types: ["integer"], example: 7 }, flags: { types: ["array"], example: ["a"] } },
    },
    "order.agent_list": { ...provenance, value: "descending" },
    "seats.fresh": { ...provenance, value: 2 },
  },
};
