import { errorPointOf, type ErrorKind } from "../profile/error-point-of.ts";
import type { ErrorPoint, InferredSchema, ServiceProfile } from "../profile/service-profile.ts";
import type { Difference } from "./judge-answer.ts";
import { jsonType, orderBasis } from "./judge-answer.ts";
import type { Basis, UsageInteraction } from "./usage-document.ts";

/** What a profile says of an interaction: the differences a client would notice, or that it recorded nothing there. */
export type ProfileJudgement = { judged: true; differences: Difference[] } | { judged: false; why: string };

/** The assumptions of docs/assumptions.md that choose an error answer, by name, and the kind of refusal of each. */
const KIND_OF_ASSUMPTION: Record<string, ErrorKind> = {
  "validation-status": "validation",
  "not-found-status": "not-found",
  "agent-exists-status": "agent-exists",
  "seat-limit-status": "seats",
  "external-id-unique": "external-id-in-use",
  "unknown-property-reference-status": "unknown-property-reference",
  "unsupported-media-type-status": "content-type-wrong",
};

/**
 * The point of a profile an error answer of the usage is about: the profile's own when the mock played one back;
 * else the request's credentials, the situation its assumptions name (`seat-limit-status`), or the status.
 */
function errorPointOfInteraction(interaction: UsageInteraction): ErrorPoint | undefined {
  const { basis, request, response, operation } = interaction;
  if (basis.status.tier === "profile" && basis.status.point.startsWith("error."))
    return basis.status.point as ErrorPoint;
  const ids = basis.status.tier === "assumption" ? basis.status.ids : [];
  return errorPointOf({
    operationId: operation,
    credentials: request.account !== null ? undefined : request.credentials === "wrong" ? "wrong" : "missing",
    kind: ids.map((id) => KIND_OF_ASSUMPTION[id]).find((kind) => kind !== undefined),
    status: response.status,
  });
}

/**
 * Judges an interaction against a recorded service profile alone, sending nothing: an error answer against what
 * the profile saw at its point (statuses, media types, the body's shape), a successful answer against the media
 * type of successful answers, a list against the order the profile saw, and the fields `neverSet` (of a property
 * the test created without them) against what the profile saw a property never given them answer. Only what rests
 * on an assumption or a profile can differ: a profile that contradicts a documented fact is refused when read.
 */
export function judgeAgainstProfile(
  interaction: UsageInteraction,
  profile: ServiceProfile,
  neverSet: ReadonlySet<string> = new Set(),
): ProfileJudgement {
  const { response, basis } = interaction;
  const observations = profile.observations;
  const differences: Difference[] = [];
  if (response.status >= 400) {
    const point = errorPointOfInteraction(interaction);
    const seen = point ? observations[point] : undefined;
    if (!point || !seen)
      return { judged: false, why: `the profile records no ${point ?? "answer"} for this ${response.status}` };
    if (!seen.statuses.includes(response.status))
      differences.push({
        basis: basis.status,
        what: "the status",
        expected: String(response.status),
        actual: `${seen.statuses.join(" or ")} (${point})`,
      });
    const mediaTypes = seen.mediaTypes.map(bare);
    if (!mediaTypes.includes(bare(response.mediaType)))
      differences.push({
        basis: basis.mediaType,
        what: "the media type",
        expected: response.mediaType ?? "none",
        actual: `${seen.mediaTypes.join(" or ")} (${point})`,
      });
    shapeDifferences(response.body, seen.schema, "", basis, differences, point);
    return { judged: true, differences };
  }
  const success = observations["media_type.success"];
  if (success && response.mediaType !== null && !success.value.map(bare).includes(bare(response.mediaType))) {
    differences.push({
      basis: basis.mediaType,
      what: "the media type",
      expected: response.mediaType,
      actual: `${success.value.join(" or ")} (media_type.success)`,
    });
  }
  // A field of a property the test created and never set, which the mock filled and the profile saw come back
  // null (section 2.1's reading of an absent value): the client read a value where the service answers null.
  const unset = observations["unset.property"]?.fields ?? {};
  const body =
    response.body !== null && typeof response.body === "object" && !Array.isArray(response.body)
      ? (response.body as Record<string, unknown>)
      : {};
  for (const field of neverSet) {
    const shown = unset[field];
    if ((shown === "null" || shown === "absent") && body[field] !== null && body[field] !== undefined) {
      differences.push({
        basis: basis.fields[`/${field}`] ?? basis.status,
        what: `the field /${field}`,
        expected: jsonType(body[field]),
        actual: `${shown} (unset.property)`,
      });
    }
  }
  const orderPoint =
    interaction.operation === "listUserProperties"
      ? "order.property_list"
      : interaction.operation === "listAgentCards"
        ? "order.agent_list"
        : undefined;
  const order = orderPoint && observations[orderPoint];
  const got = orderOf(
    interaction.operation === "listAgentCards" && response.body !== null && typeof response.body === "object"
      ? Object.keys(response.body)
      : Array.isArray(response.body)
        ? response.body.map((entry) => (entry as { nid?: unknown })?.nid)
        : [],
  );
  if (order && got && got !== order.value) {
    differences.push({
      basis: orderBasis(basis),
      what: "the order of the list",
      expected: got,
      actual: `${order.value} (${orderPoint})`,
    });
  }
  return { judged: true, differences };
}

/** Every field of an error body the client got, against the shape the profile saw there: present, of its type. */
function shapeDifferences(
  body: unknown,
  schema: InferredSchema,
  pointer: string,
  basis: UsageInteraction["basis"],
  differences: Difference[],
  point: string,
): void {
  const at = (p: string): Basis => basis.fields[p] ?? basis.status;
  const types = schema.type === undefined ? undefined : Array.isArray(schema.type) ? schema.type : [schema.type];
  const type = jsonType(body);
  if (types && !types.some((seen) => seen === type || (seen === "integer" && type === "number"))) {
    differences.push({
      basis: at(pointer),
      what: `the field ${pointer || "(the body)"}`,
      expected: type,
      actual: `${types.join(" or ")} (${point})`,
    });
    return;
  }
  if (type !== "object" || !schema.properties) return;
  for (const [key, value] of Object.entries(body as Record<string, unknown>)) {
    const child = `${pointer}/${key}`;
    const seen = schema.properties[key];
    if (!seen)
      differences.push({
        basis: at(child),
        what: `the field ${child}`,
        expected: `present (${jsonType(value)})`,
        actual: `absent (${point})`,
      });
    else shapeDifferences(value, seen, child, basis, differences, point);
  }
}

/** The order of a list by its nids, when it has two or more numeric ones. */
function orderOf(nids: unknown[]): "ascending" | "descending" | undefined {
  const numbers = nids.map(Number).filter((nid) => Number.isFinite(nid));
  if (numbers.length < 2 || numbers.length !== nids.length) return undefined;
  if (numbers.every((nid, index) => index === 0 || nid > numbers[index - 1]!)) return "ascending";
  if (numbers.every((nid, index) => index === 0 || nid < numbers[index - 1]!)) return "descending";
  return undefined;
}

function bare(mediaType: string | null): string {
  return (mediaType ?? "").split(";")[0]!.trim().toLowerCase();
}
