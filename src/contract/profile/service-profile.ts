/**
 * A service profile: what one implementation of the Property Listing Service was seen to do where the interface
 * document is silent (error statuses and bodies, list orders, media types, seats, undocumented fields). The
 * contract runner records it (`--write-profile`), the mock plays it back (`--profile`), and a later run holds the
 * service to it (`--profile`, check `profile_conformance`). It is data, versioned, with a published JSON Schema
 * (`spec/service-profile.schema.json`).
 */
import type { OperationId } from "../operation-id.ts";

/** The version of the profile format this kit reads and writes. */
export const PROFILE_VERSION = 1;

/** Where a profile entry came from: the step that observed it, when, and in which run. */
export interface Provenance {
  step: string;
  observedAt: string;
  runId: string;
}

/** A JSON Schema inferred from bodies (types, properties, required keys, items): a subset of draft 2020-12. */
export interface InferredSchema {
  type?: string | string[];
  properties?: Record<string, InferredSchema>;
  required?: string[];
  items?: InferredSchema;
}

/**
 * An error situation: the statuses, media types and body shape seen, one body kept as an example (the first status
 * and media type are the example's).
 */
export interface ErrorObservation extends Provenance {
  statuses: number[];
  mediaTypes: string[];
  schema: InferredSchema;
  example: unknown;
}

/** One value seen at a point: an order, an encoding, a media type, a number of seats. */
export interface ValueObservation<T> extends Provenance {
  value: T;
}

/** Fields by name and what was seen for each: a JSON type (extra fields) or a representation (never-set fields). */
export interface FieldsObservation<T> extends Provenance {
  fields: Record<string, T>;
}

/** How a list is ordered, by its records' nids. */
export type ListOrder = "ascending" | "descending";
/** How a field never set comes back. */
export type UnsetRepresentation = "null" | "empty" | "absent" | "value";
/** An undocumented field: the JSON types seen, and one value, which the mock plays back. */
export interface ExtraField {
  types: JsonType[];
  example: unknown;
}
/**
 * What an edit does to the fields derived from others: the title when the street changes, the site when the
 * subdomain does.
 */
export interface DerivedOnEdit {
  title: "kept" | "follows-street" | "other";
  website_url: "as-edited" | "from-subdomain" | "kept" | "other";
}
/** Whether a second property of an account may take the external id another one has (section 4.1 is silent). */
export type DuplicateExternalId = "refused" | "accepted";
/** The JSON types an undocumented field can have. */
export type JsonType = "string" | "integer" | "number" | "boolean" | "null" | "object" | "array";

/** The error situations a run provokes, by key, with what provokes them. */
export const ERROR_POINTS = {
  "error.validation": "a body that breaks a documented constraint (a near miss of endpoint 3, a state of 3 characters)",
  "error.unauthorized.missing": "a request without API-KEY, without TOKEN, or without both",
  "error.unauthorized.wrong": "a TOKEN of no account, or another account's TOKEN, with the account's API-KEY",
  "error.not_found": "a record that does not exist (deleted, or never created)",
  "error.foreign_record":
    "another account's record " +
    "(the mock answers it exactly as a record the account does not have, unless a profile says otherwise)",
  "error.no_route": "a path the service does not have (also a create without its trailing slash)",
  "error.method_not_allowed": "a method the path does not take (DELETE on a property)",
  "error.content_type.missing": "a property retrieved without the required content-type header",
  "error.content_type.wrong": "a property created with a body sent as text/plain",
  "error.agent_exists.create":
    "an agent created with an email that belongs to an agent (section 7, Agent Already Exists)",
  "error.agent_exists.update": "an agent updated to an email that belongs to another agent",
  "error.seats": "an agent created on an account whose seats are full (section 7, Not Enough Agent Seats)",
  "error.unknown_property_reference": "a document whose property_reference is no property of the account",
  "error.external_id_in_use":
    "a property edited to the external id another property of the account has (when the service refuses it)",
} as const;
export type ErrorPoint = keyof typeof ERROR_POINTS;

/** The resources whose answers may carry undocumented fields, and the schema of the contract that lists theirs. */
export const RESOURCES = {
  property: "Property",
  agent: "AgentCard",
  document: "Document",
  agent_list_entry: "AgentCardListEntry",
  property_list_item: "PropertyListItem",
  property_write: "PropertyWriteResult",
  agent_write: "StringNidResult",
  document_write: "IntegerNidResult",
  template_catalogue: "TemplateCatalogue",
  template: "TemplateEntry",
} as const;
export type ResourceName = keyof typeof RESOURCES;

/** The operations whose 200 answer is a resource (or a map of them: the agent list's values), by resource. */
export const RESOURCE_OF_ANSWER: Partial<Record<OperationId, ResourceName>> = {
  retrieveProperty: "property",
  retrievePropertyByExternalId: "property",
  retrieveAgentCard: "agent",
  retrieveDocument: "document",
  listAgentCards: "agent_list_entry",
  createProperty: "property_write",
  editProperty: "property_write",
  createAgentCard: "agent_write",
  updateAgentCard: "agent_write",
  createDocument: "document_write",
  updateDocument: "document_write",
  retrieveTemplateCatalogue: "template_catalogue",
};

/** Every observation a profile can hold, by key. */
export type Observations = {
  [point: `error.${string}`]: ErrorObservation;
  "media_type.success"?: ValueObservation<string[]>;
  "order.property_list"?: ValueObservation<ListOrder>;
  "order.agent_list"?: ValueObservation<ListOrder>;
  "order.social_links"?: ValueObservation<ListOrder>;
  "encoding.empty_agent_list"?: ValueObservation<"{}" | "[]">;
  "seats.fresh"?: ValueObservation<number>;
  "unset.property"?: FieldsObservation<UnsetRepresentation>;
  "unset.agent"?: FieldsObservation<UnsetRepresentation>;
  "order.template_catalogue"?: ValueObservation<string[]>;
  "derived.edit_property"?: ValueObservation<DerivedOnEdit>;
  "external_id.duplicate"?: ValueObservation<DuplicateExternalId>;
} & {
  /** One point per resource, named after it: what fields its answers carry beyond the contract. */
  [Resource in ResourceName as `extra_fields.${Resource}`]?: FieldsObservation<ExtraField>;
};

/** The points other than errors, by key, with what they say. */
export const VALUE_POINTS = {
  "media_type.success": "the content-type of successful JSON answers (its charset parameter included)",
  "order.property_list": "the order of a user's properties (endpoint 5), by nid",
  "order.agent_list": "the order of the agent list's keys (endpoint 10), by nid, as sent",
  "order.social_links":
    "the direction of the weight order of an agent's social links (section 2.2 says only that the weight orders them)",
  "encoding.empty_agent_list": "how an account without agents is listed (endpoint 10): {} or []",
  "seats.fresh": "the agent seats of an account without agents (section 8 does not state the limit)",
  "unset.property": "how each optional field of a property created without it comes back",
  "unset.agent":
    "how each optional field of an agent created with its first name, last name and email only comes back: " +
    "null, empty, absent, or a value of the service's",
  "extra_fields.property": "fields a retrieved property carries beyond section 2.1, with their JSON types",
  "extra_fields.agent": "fields a retrieved agent card carries beyond section 2.2, with their JSON types",
  "extra_fields.document": "fields a retrieved document carries beyond section 2.3, with their JSON types",
  "extra_fields.agent_list_entry": "fields each value of the agent list carries beyond email and nid (section 4.2)",
  "extra_fields.property_list_item":
    "fields each item of a user's property list carries beyond nid, published, title and external_id (section 2.1)",
  "extra_fields.property_write": "fields a property create or edit answers beyond nid and uri (section 4.1)",
  "extra_fields.agent_write": "fields an agent create or update answers beyond nid (section 4.2)",
  "extra_fields.document_write": "fields a document create or update answers beyond nid (section 4.3)",
  "extra_fields.template_catalogue": "fields the template catalogue answers beside templates (section 4.4)",
  "extra_fields.template":
    "fields each template entry carries beyond title, machine_name and access_level (section 2.4)",
  "derived.edit_property":
    "what an edit of street, subdomain and website_url does to title and website_url: kept, derived, or as edited",
  "external_id.duplicate":
    "whether a property edited to the external id another property of the account has is refused " +
    "(error.external_id_in_use) or accepted",
  "order.template_catalogue":
    "the machine names of the template catalogue in the order it lists them (section 4.5: ordering not shown)",
} as const;

/** A service profile, as written to and read from its file. */
export interface ServiceProfile {
  profileVersion: typeof PROFILE_VERSION;
  runId: string;
  recordedAt: string;
  baseUrl?: string;
  /** A recording of traffic the profile was made from, instead of a run. */
  recording?: string;
  observations: Observations;
}

/** Every key an observation may have. */
export const POINT_KEYS: readonly string[] = [...Object.keys(ERROR_POINTS), ...Object.keys(VALUE_POINTS)].sort();
