/**
 * The mock's answers where the interface document is silent, as a table a service profile replaces entry by
 * entry (`--profile`): which error body, status and media type each failure gets, and how a success is
 * represented (media type, list orders, the empty agent list, undocumented fields). Without a profile the table
 * is the mock's own: the problem catalogue (`problems.ts`) and the answers as the services give them, byte for
 * byte. The services never see the profile.
 */
import type { ValidateFunction } from "ajv/dist/2020.js";
import type { ContractViolation } from "../contract/contract-violation.ts";
import {
  RESOURCE_OF_ANSWER,
  RESOURCES,
  type UnsetRepresentation,
  type DerivedOnEdit,
  type ErrorObservation,
  type JsonType,
  type ResourceName,
  type ServiceProfile,
  type InferredSchema,
} from "../contract/profile/service-profile.ts";
import { errorPointOf, type ErrorKind, type ErrorSituation } from "../contract/profile/error-point-of.ts";
import { JsonBytes } from "./json-bytes.ts";
import { withMembers } from "./with-members.ts";
import { okReply, problemReply, type Reply } from "./http/reply.ts";
import { toProblemBody, type Failure } from "./problems.ts";
import { agentDefaults } from "./services/agent-service.ts";

/**
 * Compiles the body shape of a profile's error entry (`compileBodySchema` of read-service-profile.ts, which
 * AJV compiles): given by the host, so that this module loads no compiler where no profile is played back.
 */
export type BodySchemaCompiler = (schema: InferredSchema) => ValidateFunction;

/** How the mock answers; {@link createProfilePlayback} builds it from a profile, or the mock's own without one. */
export interface Playback {
  /** The reply to an expected failure of an operation (or of no operation: an unknown route, a wrong method). */
  refuse(failure: Failure, operationId: string | undefined, instance: string, headers?: Record<string, string>): Reply;
  /** The reply to a success of an operation. */
  succeed(operationId: string, value: unknown): Reply;
  /** With `--validate-responses`: whether a profile shaped this error reply, and what is wrong with it if anything. */
  check(reply: Reply): { shaped: false } | { shaped: true; problem?: string };
  /** Drops the contract's findings a profile answers for (its undocumented fields). */
  allowed(violations: ContractViolation[]): ContractViolation[];
  /** The seats of an account opened on first use, when the profile measured them. */
  readonly seats: number | undefined;
  /** A user's properties newest first (`order.property_list`). */
  readonly newestFirst: boolean;
  /** What an edit does to derived fields (`derived.edit_property`), when the profile saw a choice the mock can make. */
  readonly derived:
    | { title: "kept" | "follows-street"; website_url: "as-edited" | "from-subdomain" | "kept" }
    | undefined;
  /** What an agent created without them stores for the fields the profile shows null or empty (`unset.agent`). */
  readonly agentNeverSet: Record<string, null | "" | unknown[]> | undefined;
  /** What a property created without them answers for the fields the profile shows null or empty (`unset.property`). */
  readonly propertyNeverSet: Record<string, null | ""> | undefined;
  /** The undocumented fields of each item of a user's property list, encoded as members (`"a":1,"b":""`), or "". */
  readonly listItemExtra: string;
  /**
   * The undocumented fields of a retrieved property, encoded as members, or "": spliced in where the property's
   * answer is encoded and kept (encoded-retrievals.ts), once, rather than into every answer sent.
   */
  readonly propertyExtra: string;
  /** Whether a property may take the external id another one has (`external_id.duplicate`: accepted). */
  readonly sharedExternalIds: boolean;
  /**
   * Whether a request without a body that leaves out the content-type section 5 requires is refused: only when a
   * profile saw the service refuse one (`error.content_type.missing`). The mock's own choice answers it
   * (body-less-content-type.ts).
   */
  readonly refusesMissingContentType: boolean;
}

/** The mock's own answers: the problem catalogue and the services' values, unchanged. */
export const OWN_ANSWERS: Playback = {
  refuse: (failure, _operationId, instance, headers) => problemReply(failure, instance, headers),
  succeed: (_operationId, value) => okReply(value),
  check: () => ({ shaped: false }),
  allowed: (violations) => violations,
  seats: undefined,
  newestFirst: false,
  derived: undefined,
  sharedExternalIds: false,
  refusesMissingContentType: false,
  agentNeverSet: undefined,
  propertyNeverSet: undefined,
  listItemExtra: "",
  propertyExtra: "",
};

/** The kind of refusal each problem of the catalogue is, where a profile may record it. */
const KIND_OF_PROBLEM: Partial<Record<Failure["problem"], ErrorKind>> = {
  malformedJson: "validation",
  methodNotAllowed: "method-not-allowed",
  unsupportedMediaType: "content-type-wrong",
  agentAlreadyExists: "agent-exists",
  notEnoughAgentSeats: "seats",
  unknownPropertyReference: "unknown-property-reference",
  externalIdInUse: "external-id-in-use",
};

/** A failure of the mock as the situation a profile's error points are told by. */
function situationOf(failure: Failure, operationId: string | undefined): ErrorSituation {
  switch (failure.problem) {
    case "invalidRequest":
      return {
        operationId,
        kind:
          failure.errors?.length &&
          failure.errors.every((error) => error.in === "header" && error.pointer.toLowerCase().includes("content-type"))
            ? "content-type-missing"
            : "validation",
      };
    case "unauthorized":
      return { operationId, credentials: failure.situation === "credentials-wrong" ? "wrong" : "missing" };
    case "notFound":
      return {
        operationId,
        kind:
          failure.situation === "no-route"
            ? "no-route"
            : failure.situation === "foreign-record"
              ? "foreign-record"
              : "not-found",
      };
    default:
      return { operationId, kind: KIND_OF_PROBLEM[failure.problem] };
  }
}

/** Keys whose string value is a place for the failure's own text, unless it names an error value of section 7. */
const TEXT_PLACES = new Set(["detail", "message", "error", "error_description", "description", "msg", "reason"]);
const NAMED_VALUES = ["Agent Already Exists", "Not Enough Agent Seats"];

/** A value of a JSON type, for an undocumented field a profile saw. */
const VALUE_OF: Record<JsonType, unknown> = {
  string: "",
  integer: 0,
  number: 0,
  boolean: false,
  null: null,
  object: {},
  array: [],
};

/** The operations whose answer is one resource, by resource (the agent list, a map of them, is played apart). */
// The answers `succeed` shapes: an agent list's entries and a retrieved property get their extra fields where
// they are encoded (listAgentCards below, encoded-retrievals.ts).
const RESOURCE_OF: Record<string, ResourceName> = Object.fromEntries(
  Object.entries(RESOURCE_OF_ANSWER).filter(
    ([, resource]) => resource !== "agent_list_entry" && resource !== "property",
  ),
);

interface PlayedError {
  status: number;
  mediaType: string;
  example: unknown;
  validate: ValidateFunction;
}

/** The playback of a profile read and checked by `readServiceProfile` (a profile is used whole, never in part). */
export function createProfilePlayback(
  profile: ServiceProfile | undefined,
  compileBodySchema: BodySchemaCompiler,
): Playback {
  if (!profile) return OWN_ANSWERS;
  const observations = profile.observations;
  const errors = new Map<string, PlayedError>();
  for (const [point, entry] of Object.entries(observations)) {
    if (!point.startsWith("error.")) continue;
    const { statuses, mediaTypes, example, schema } = entry as ErrorObservation;
    errors.set(point, {
      status: statuses[0]!,
      mediaType: mediaTypes[0]!,
      example,
      validate: compileBodySchema(schema),
    });
  }
  // Each resource's extra fields, encoded once: they are spliced into the encoded answer, since spreading a
  // property's fifty fields into a new object and encoding that costs a GET several times as much.
  const extras: Record<string, string> = {};
  const extraNames = new Set<string>();
  for (const resource of Object.keys(RESOURCES) as ResourceName[]) {
    const fields = observations[`extra_fields.${resource}`]?.fields ?? {};
    extras[resource] = JSON.stringify(
      Object.fromEntries(
        Object.entries(fields).map(([field, { types, example }]) => [
          field,
          example !== null || types.length === 1 ? example : VALUE_OF[types.find((type) => type !== "null")!],
        ]),
      ),
    ).slice(1, -1);
    for (const field of Object.keys(fields)) extraNames.add(field);
  }
  const successMedia = observations["media_type.success"]?.value[0];
  const agentsNewestFirst = observations["order.agent_list"]?.value === "descending";
  const linksHeaviestFirst = observations["order.social_links"]?.value === "descending";
  const emptyAgents = observations["encoding.empty_agent_list"]?.value ?? "{}";
  const profiled = new WeakMap<Reply, PlayedError>();
  const templateOrder = observations["order.template_catalogue"]?.value;
  const templateExtras = extras.template ? (JSON.parse(`{${extras.template}}`) as Record<string, unknown>) : {};

  const nullAgentFields = new Set(
    Object.entries(observations["unset.agent"]?.fields ?? {})
      .filter(([, shown]) => shown === "null")
      .map(([field]) => `/${field}`),
  );

  // A literal of one shape rather than a spread of okReply's: this runs on every successful answer
  const success = (body: unknown): Reply =>
    successMedia ? { status: 200, contentType: "application/json", body, mediaType: successMedia } : okReply(body);
  return {
    refuse(failure, operationId, instance, headers) {
      const point = errorPointOf(situationOf(failure, operationId));
      // Another account's record is answered as a missing one when the profile did not see the difference.
      const usedPoint =
        point === undefined
          ? undefined
          : errors.has(point)
            ? point
            : point === "error.foreign_record" && errors.has("error.not_found")
              ? "error.not_found"
              : undefined;
      const played = usedPoint === undefined ? undefined : errors.get(usedPoint);
      if (!played) return problemReply(failure, instance, headers);
      const reply: Reply = {
        status: played.status,
        contentType: "application/json",
        mediaType: played.mediaType,
        body: fill(played.example, textOf(failure), played.status, instance),
        logged: toProblemBody(failure, instance),
        profilePoint: usedPoint!,
        ...(headers ? { headers } : {}),
      };
      profiled.set(reply, played);
      return reply;
    },
    succeed(operationId, value) {
      const resource = RESOURCE_OF[operationId];
      if (operationId === "retrieveTemplateCatalogue")
        value = catalogue(value as { templates: Array<Record<string, unknown>> }, templateOrder, templateExtras);
      if (resource) {
        const record = value as Record<string, unknown>;
        const shown =
          linksHeaviestFirst && Array.isArray(record.social_media_links)
            ? { ...record, social_media_links: [...record.social_media_links].reverse() }
            : record;
        const extra = extras[resource]!;
        if (extra === "") return success(shown);
        const text = shown instanceof JsonBytes ? shown.text() : JSON.stringify(shown);
        return success(new JsonBytes(withMembers(text, extra)));
      }
      if (operationId === "listAgentCards")
        return success(
          agentList(value as Record<string, unknown>, agentsNewestFirst, emptyAgents, extras.agent_list_entry!),
        );
      return success(value);
    },
    check(reply) {
      const played = profiled.get(reply);
      if (!played) return { shaped: false };
      if (played.validate(reply.body)) return { shaped: true };
      const first = played.validate.errors?.[0];
      const where = first?.instancePath;
      return {
        shaped: true,
        problem: `the answer does not have the profile's body shape: ${where || "/"} ${first?.message ?? ""}`,
      };
    },
    // The profile's undocumented fields, and the agent fields it says come back null (section 2.2 allows it; our
    // reading expects a string).
    allowed: (violations) =>
      violations.filter(
        (violation) =>
          !(violation.rule === "unevaluatedProperties" && extraNames.has(violation.pointer.split("/").pop()!)) &&
          !(
            violation.tier === "assumption" &&
            violation.operation === "retrieveAgentCard" &&
            nullAgentFields.has(violation.pointer)
          ),
      ),
    seats: observations["seats.fresh"]?.value,
    newestFirst: observations["order.property_list"]?.value === "descending",
    derived: derivedOf(observations["derived.edit_property"]?.value),
    sharedExternalIds: observations["external_id.duplicate"]?.value === "accepted",
    refusesMissingContentType: errors.has("error.content_type.missing"),
    agentNeverSet: agentNeverSetOf(observations["unset.agent"]?.fields),
    propertyNeverSet: propertyNeverSetOf(observations["unset.property"]?.fields),
    listItemExtra: extras.property_list_item!,
    propertyExtra: extras.property!,
  };
}

/**
 * What the agent service stores for a field a create does not set, where the profile says the service shows
 * such a field null or empty ("value" keeps the mock's own default, agent-service.ts).
 */
function agentNeverSetOf(
  fields: Record<string, UnsetRepresentation> | undefined,
): Record<string, null | "" | unknown[]> | undefined {
  const defaults = agentDefaults(1) as Record<string, unknown>;
  const stored = Object.entries(fields ?? {})
    .filter(([field, shown]) => field in defaults && (shown === "null" || shown === "empty"))
    .map(([field, shown]) => [field, shown === "null" ? null : Array.isArray(defaults[field]) ? [] : ""] as const);
  return stored.length === 0 ? undefined : Object.fromEntries(stored);
}

/**
 * What the property service answers for a field a create does not set, where the profile says the service shows
 * such a field null or empty ("value" keeps the mock's own, property-service.ts; "absent" the mock cannot drop).
 */
function propertyNeverSetOf(
  fields: Record<string, UnsetRepresentation> | undefined,
): Record<string, null | ""> | undefined {
  const stored = Object.entries(fields ?? {})
    .filter(([, shown]) => shown === "null" || shown === "empty")
    .map(([field, shown]) => [field, shown === "null" ? null : ""] as const);
  return stored.length === 0 ? undefined : Object.fromEntries(stored);
}

/** The profile's derivations, when the mock can make both ("other" it cannot, and keeps its own). */
function derivedOf(seen: DerivedOnEdit | undefined): Playback["derived"] {
  if (!seen || seen.title === "other" || seen.website_url === "other") return undefined;
  return { title: seen.title, website_url: seen.website_url };
}

/** A failure's text for a body with one place for it: its detail, and the first offending field when there is one. */
function textOf(failure: Failure): string {
  const first = failure.errors?.[0];
  if (!first) return failure.detail;
  const more = failure.errors!.length > 1 ? ` (and ${failure.errors!.length - 1} more)` : "";
  return `${failure.detail.replace(/\.$/, "")}: ${first.in} ${first.pointer || "/"} ${first.detail}${more}`;
}

/** The profile's example body with this failure's text, status and instance where its shape has a place for them. */
function fill(example: unknown, detail: string, status: number, instance: string): unknown {
  if (Array.isArray(example)) return example.map((item) => fill(item, detail, status, instance));
  if (example === null || typeof example !== "object") return example;
  const filled: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(example)) {
    if (typeof value === "string" && TEXT_PLACES.has(key) && !NAMED_VALUES.some((named) => value.includes(named)))
      filled[key] = detail;
    else if (key === "status" && typeof value === "number") filled[key] = status;
    else if (key === "instance" && typeof value === "string") filled[key] = instance;
    else filled[key] = fill(value, detail, status, instance);
  }
  return filled;
}

/**
 * The catalogue in the profile's order (templates it did not list last, as the mock has them), each entry with the
 * profile's extra fields.
 */
function catalogue(
  answer: { templates: Array<Record<string, unknown>> },
  order: readonly string[] | undefined,
  extra: Record<string, unknown>,
): unknown {
  const rank = (name: unknown) => {
    const at = order?.indexOf(String(name)) ?? -1;
    return at === -1 ? Number.MAX_SAFE_INTEGER : at;
  };
  const templates = order
    ? [...answer.templates].sort((a, b) => rank(a.machine_name) - rank(b.machine_name))
    : answer.templates;
  return {
    ...answer,
    templates: Object.keys(extra).length === 0 ? templates : templates.map((entry) => ({ ...entry, ...extra })),
  };
}

/**
 * The agent list keyed by nid, in the order the profile saw, encoded as it is sent (a parsed object would sort the
 * keys).
 */
function agentList(list: Record<string, unknown>, newestFirst: boolean, empty: "{}" | "[]", extra: string): unknown {
  const keys = Object.keys(list);
  if (keys.length === 0) return empty === "[]" ? [] : {};
  if (!newestFirst && extra === "") return list;
  if (newestFirst) keys.reverse();
  const entry = (value: unknown) => withMembers(JSON.stringify(value), extra);
  return new JsonBytes(`{${keys.map((key) => `${JSON.stringify(key)}:${entry(list[key])}`).join(",")}}`);
}
