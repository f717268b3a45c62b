import type { OperationId } from "../operation-id.ts";
import type { OpenApiDocument } from "../../spec/openapi-document.ts";
import type { Exchange } from "../runner/http-exchange.ts";
import { errorPointOf, type ErrorKind, type ErrorSituation } from "./error-point-of.ts";
import { inferJsonSchema, jsonTypeOf, mergeJsonSchemas } from "./infer-json-schema.ts";
import { documentedFieldsOf } from "./read-service-profile.ts";
import {
  PROFILE_VERSION,
  RESOURCE_OF_ANSWER,
  type DerivedOnEdit,
  type ErrorObservation,
  type ExtraField,
  type FieldsObservation,
  type ListOrder,
  type Observations,
  type Provenance,
  type ResourceName,
  type ServiceProfile,
  type UnsetRepresentation,
  type ValueObservation,
} from "./service-profile.ts";

/** Bodies kept per error point to hold a later run to (not written to the profile, which keeps one). */
const BODIES_KEPT = 20;

/** One answer the observer is told of, with what the request was meant to provoke. */
export interface ObservedAnswer {
  step: string;
  /** The operation of the contract, or undefined for a request outside it (an unknown route, a wrong method). */
  operationId?: OperationId;
  account: "primary" | "other" | "fresh";
  /** Which credentials the request carried. */
  credentials: string;
  /** The check a refusal was demanded for, if one was. */
  refusal?: string;
  /** The point this answer is a probe of, when the step says so. */
  point?: string;
  /** For `unset.property` and `unset.agent`: the fields the create did not send. */
  unsetFields?: readonly string[];
  /** A value the step worked out for its point (`derived.edit_property`). */
  value?: unknown;
  exchange: Exchange;
}

/**
 * Collects, from the answers of a run (or a recording), what the service did at every point where the contract
 * carries an assumption: error statuses, media types and body shapes per situation, list orders, the empty
 * agent list's encoding, the fresh account's seats, never-set fields, undocumented fields. The first answer at
 * a point gives its provenance (step, time, run); later ones widen what was seen.
 */
export class ProfileObserver {
  readonly #observations: Observations = {};
  readonly #bodies = new Map<string, unknown[]>();
  /** The first step whose answer showed each resource, extra fields or not. */
  readonly #reached = new Map<string, string>();
  readonly #documented: Record<ResourceName, Set<string>>;
  readonly #runId: string;
  readonly #now: () => number;
  #freshCreated = 0;

  constructor(options: { runId: string; document: OpenApiDocument; now?: () => number }) {
    this.#runId = options.runId;
    this.#now = options.now ?? Date.now;
    this.#documented = documentedFieldsOf(options.document);
  }

  /** What was seen so far. */
  get observations(): Observations {
    return this.#observations;
  }

  /** The bodies seen at an error point (at most 20), to hold against a profile's shape. */
  bodiesAt(point: string): readonly unknown[] {
    return this.#bodies.get(point) ?? [];
  }

  /**
   * The step that first saw the resource of an `extra_fields.` point, when the run saw one (with extra fields or
   * without).
   */
  stepReaching(point: string): string | undefined {
    return this.#reached.get(point);
  }

  /** The profile of what was seen. */
  profile(about: { recordedAt: string; baseUrl?: string; recording?: string }): ServiceProfile {
    const profile: ServiceProfile = {
      profileVersion: PROFILE_VERSION,
      runId: this.#runId,
      recordedAt: about.recordedAt,
      observations: this.#observations,
    };
    if (about.baseUrl) profile.baseUrl = about.baseUrl;
    if (about.recording) profile.recording = about.recording;
    return profile;
  }

  /** Takes in one answer. */
  observe(answer: ObservedAnswer): void {
    const { exchange } = answer;
    const refused = exchange.status < 200 || exchange.status >= 300;
    // The external id of another property: refused (an error point, below) or taken, which is a choice too.
    if (answer.point === "error.external_id_in_use")
      this.#value("external_id.duplicate", refused ? "refused" : "accepted", answer);
    if (refused) {
      const point = answer.point ?? errorPointOf(situationOf(answer));
      if (point?.startsWith("error.")) this.#error(point, answer);
      // The fresh account's seats: the agents it took before its first refusal for seats.
      if (point === "error.seats" && answer.account === "fresh") this.#value("seats.fresh", this.#freshCreated, answer);
      return;
    }
    if (exchange.status !== 200) return;
    if (answer.account === "fresh" && answer.operationId === "createAgentCard") this.#freshCreated += 1;
    const contentType = exchange.headers.get("content-type");
    if (contentType && exchange.body !== undefined) this.#addMediaType(contentType, answer);
    const body = exchange.body;
    switch (answer.operationId) {
      case "listUserProperties":
        if (Array.isArray(body)) {
          this.#order(
            "order.property_list",
            body.map((item) => (item as { nid?: unknown } | null)?.nid),
            answer,
          );
          for (const item of body) if (isObject(item)) this.#extraFields("property_list_item", item, answer);
        }
        break;
      case "listAgentCards":
        if ((Array.isArray(body) && body.length === 0) || (isObject(body) && Object.keys(body).length === 0)) {
          this.#value("encoding.empty_agent_list", Array.isArray(body) ? "[]" : "{}", answer);
        } else if (isObject(body)) {
          this.#order("order.agent_list", topLevelKeys(exchange.text), answer);
        }
        break;
      case "retrieveTemplateCatalogue": {
        const templates = isObject(body) && Array.isArray(body.templates) ? body.templates.filter(isObject) : [];
        const names = templates.map((entry) => entry.machine_name);
        if (names.length > 1 && names.every((name) => typeof name === "string"))
          this.#value("order.template_catalogue", names, answer);
        for (const entry of templates) this.#extraFields("template", entry, answer);
        break;
      }
      case "retrieveAgentCard": {
        const links = isObject(body) ? body.social_media_links : undefined;
        if (Array.isArray(links))
          this.#order(
            "order.social_links",
            links.map((link) => (link as { weight?: unknown } | null)?.weight),
            answer,
            true,
          );
        break;
      }
    }
    const resource = answer.operationId ? RESOURCE_OF_ANSWER[answer.operationId] : undefined;
    if (resource === "agent_list_entry" && isObject(body))
      for (const entry of Object.values(body)) if (isObject(entry)) this.#extraFields(resource, entry, answer);
    if (resource && resource !== "agent_list_entry" && isObject(body)) this.#extraFields(resource, body, answer);
    if ((answer.point === "unset.property" || answer.point === "unset.agent") && answer.unsetFields && isObject(body))
      this.#unset(answer.point, answer.unsetFields, body, answer);
    if (answer.point === "derived.edit_property" && answer.value !== undefined)
      this.#value("derived.edit_property", answer.value as DerivedOnEdit, answer);
  }

  #provenance(answer: ObservedAnswer): Provenance {
    return { step: answer.step, observedAt: new Date(this.#now()).toISOString(), runId: this.#runId };
  }

  #error(point: string, answer: ObservedAnswer): void {
    const { exchange } = answer;
    const body = exchange.body !== undefined ? exchange.body : exchange.text === "" ? null : exchange.text;
    const mediaType = exchange.headers.get("content-type") ?? "";
    const kept = this.#bodies.get(point) ?? [];
    if (kept.length < BODIES_KEPT) this.#bodies.set(point, [...kept, body]);
    const seen = this.#observations[point as `error.${string}`];
    if (!seen) {
      const entry: ErrorObservation = {
        ...this.#provenance(answer),
        statuses: [exchange.status],
        mediaTypes: [mediaType],
        schema: inferJsonSchema(body),
        example: body,
      };
      this.#observations[point as `error.${string}`] = entry;
      return;
    }
    // The first status and media type are the example's, which the mock plays back; the others follow as seen.
    if (!seen.statuses.includes(exchange.status)) seen.statuses = [...seen.statuses, exchange.status];
    if (!seen.mediaTypes.includes(mediaType)) seen.mediaTypes = [...seen.mediaTypes, mediaType];
    seen.schema = mergeJsonSchemas(seen.schema, inferJsonSchema(body));
  }

  #addMediaType(contentType: string, answer: ObservedAnswer): void {
    const seen = this.#observations["media_type.success"];
    if (!seen) this.#observations["media_type.success"] = { ...this.#provenance(answer), value: [contentType] };
    else if (!seen.value.includes(contentType)) seen.value = [...seen.value, contentType].sort();
  }

  #value<
    K extends
      | "seats.fresh"
      | "encoding.empty_agent_list"
      | "order.property_list"
      | "order.agent_list"
      | "order.social_links"
      | "order.template_catalogue"
      | "derived.edit_property"
      | "external_id.duplicate",
  >(key: K, value: NonNullable<Observations[K]>["value"], answer: ObservedAnswer): void {
    if (this.#observations[key] !== undefined) return;
    (this.#observations as unknown as Record<string, ValueObservation<unknown>>)[key] = {
      ...this.#provenance(answer),
      value,
    };
  }

  /** An order by the numbers given (nids or weights), when there are two different ones to tell it by. */
  #order(
    key: "order.property_list" | "order.agent_list" | "order.social_links",
    values: unknown[],
    answer: ObservedAnswer,
    ties = false,
  ): void {
    const numbers = values.map((value) => Number(value));
    if (numbers.some((number) => !Number.isFinite(number)) || new Set(numbers).size < 2) return;
    const ascending = numbers.every(
      (number, index) => index === 0 || (ties ? numbers[index - 1]! <= number : numbers[index - 1]! < number),
    );
    const descending = numbers.every(
      (number, index) => index === 0 || (ties ? numbers[index - 1]! >= number : numbers[index - 1]! > number),
    );
    const order: ListOrder | undefined = ascending ? "ascending" : descending ? "descending" : undefined;
    if (order) this.#value(key, order, answer);
  }

  #extraFields(resource: ResourceName, body: Record<string, unknown>, answer: ObservedAnswer): void {
    const key = `extra_fields.${resource}` as const;
    if (!this.#reached.has(key)) this.#reached.set(key, answer.step);
    const extra = Object.keys(body).filter((field) => !this.#documented[resource].has(field));
    let seen = this.#observations[key];
    if (!seen) {
      if (extra.length === 0) return;
      seen = this.#observations[key] = { ...this.#provenance(answer), fields: {} } as FieldsObservation<ExtraField>;
    }
    for (const field of extra) {
      const type = jsonTypeOf(body[field]);
      const known = seen.fields[field];
      if (!known) seen.fields[field] = { types: [type], example: body[field] };
      else if (!known.types.includes(type)) {
        known.types = [...known.types, type].sort();
        // A value over null, so that the mock plays back a value of the field's type.
        if (known.example === null) known.example = body[field];
      }
    }
  }

  #unset(
    key: "unset.property" | "unset.agent",
    fields: readonly string[],
    body: Record<string, unknown>,
    answer: ObservedAnswer,
  ): void {
    if (this.#observations[key]) return;
    const shown: Record<string, UnsetRepresentation> = {};
    for (const field of fields) {
      const value = body[field];
      shown[field] = !(field in body)
        ? "absent"
        : value === null
          ? "null"
          : value === "" || (Array.isArray(value) && value.length === 0)
            ? "empty"
            : "value";
    }
    this.#observations[key] = { ...this.#provenance(answer), fields: shown };
  }
}

/** The kind of refusal each check of the scenario demands, where a profile records it. */
const KIND_OF_REFUSAL: Record<string, ErrorKind> = {
  negative_data_rejection: "validation",
  use_after_free: "not-found",
  duplicate_agent_rejected: "agent-exists",
};

/**
 * The error situation an answer of the scenario shows, from how its request was made and what it was meant to
 * break.
 */
function situationOf(answer: ObservedAnswer): ErrorSituation {
  const { operationId, credentials, refusal, exchange } = answer;
  const agentWrite = operationId === "createAgentCard" || operationId === "updateAgentCard";
  return {
    operationId,
    named: !agentWrite
      ? undefined
      : exchange.text.includes("Not Enough Agent Seats")
        ? "seats"
        : exchange.text.includes("Agent Already Exists")
          ? "agent-exists"
          : undefined,
    credentials: ["none", "no-key", "no-token"].includes(credentials)
      ? "missing"
      : ["wrong-token", "other-token"].includes(credentials)
        ? "wrong"
        : undefined,
    // The fresh account's agents are created until its seats refuse one, with no refusal demanded.
    kind:
      refusal !== undefined
        ? KIND_OF_REFUSAL[refusal]
        : answer.account === "fresh" && operationId === "createAgentCard"
          ? "seats"
          : undefined,
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/**
 * The keys of a JSON object's text in the order they are written: a parsed object puts integer-like keys in
 * ascending order whatever the text said, and the agent list is keyed by nids.
 */
export function topLevelKeys(text: string): string[] {
  const keys: string[] = [];
  let depth = 0;
  for (let index = 0; index < text.length; index++) {
    const char = text[index];
    if (char === '"') {
      const start = index;
      for (index++; index < text.length && text[index] !== '"'; index++) if (text[index] === "\\") index++;
      if (depth !== 1) continue;
      let next = index + 1;
      while (next < text.length && /\s/.test(text[next]!)) next++;
      if (text[next] === ":") keys.push(JSON.parse(text.slice(start, index + 1)) as string);
    } else if (char === "{" || char === "[") depth++;
    else if (char === "}" || char === "]") depth--;
  }
  return keys;
}
