/** What a check means, and the section of the interface document its fact-tier rule comes from. */
export interface CheckDefinition {
  meaning: string;
  /**
   * The section cited when the check fails at the fact tier (`4.1`, `2.1`, or `introduction`); a step may cite a
   * narrower one. Every check has one: a rule with nothing to cite is only ever evaluated as an assumption.
   */
  section: string;
}

/** Each check by name: the section its fact-tier rule cites, then what it means. */
const DEFINITIONS = {
  not_a_server_error: ["4", "The service never answers with a 5xx status or stops answering."],
  status_code_conformance: [
    "4",
    "The status is one the operation documents; a successful operation answers 200 (section 4).",
  ],
  content_type_conformance: [
    "introduction",
    "The content-type of the answer is one the operation documents for its status (bodies are JSON).",
  ],
  response_schema_conformance: ["2", "The answer's body matches the schema the operation documents for its status."],
  undocumented_response_property: [
    "2",
    "The answer carries no field the contract does not list (a warning unless --strict: the document lists " +
      "fields, it does not forbid others).",
  ],
  negative_data_rejection: [
    "4.1",
    "A request the document rules out (a near miss of a required field, a length or an enum; with --fuzz, " +
      "any generated case breaking one documented rule) may be refused, which must change nothing, or taken, " +
      "which must leave a property that keeps every documented fact of 2.1 (a count-like garage, a compact " +
      "property type of the list, null for what is absent, and what the schema states); that it was taken at " +
      "all is a warning (an assumption: no sentence of the document says such a request is refused).",
  ],
  ignored_auth: [
    "5",
    "Every operation, aimed at a record the caller owns, is refused without API-KEY, without TOKEN, with a " +
      "wrong TOKEN and with another account's TOKEN (section 5).",
  ],
  use_after_free: ["4.2", "A deleted record can no longer be retrieved or listed."],
  ensure_resource_availability: ["4", "A created record can be retrieved and appears in its list."],
  create_round_trip: [
    "2.1",
    "Every writable field a create sends comes back on retrieve in the documented representation: numbers as " +
      "numeric strings, the property type compact, garage as a count, social links with their weights in " +
      "weight order (sections 2.1 to 2.3).",
  ],
  edit_visible: [
    "4.1",
    "Every field an edit or update sends shows on retrieve, and the fields it did not name keep their value " +
      "(sections 4.1 to 4.3).",
  ],
  absent_is_null: [
    "2.1",
    "A field the run never set comes back null, not an empty string (section 2.1: absent values come back as null).",
  ],
  list_consistency: [
    "4.2",
    "On every list answer the run sees: every key of the agent list is its value's nid, and each agent of " +
      "the run is listed under its own nid with its own email; list-by-user shows each property of the run " +
      "with its title and external id; no other entry moves. The run lists two or more agents of its own " +
      "(sections 2.1, 4.1, 4.2).",
  ],
  external_id_lookup: [
    "4.1",
    "An external id set on a property finds the same property object through endpoint 2 (section 4.1).",
  ],
  floorplan_on_property: [
    "2.1",
    "A document with is_floorplan appears in its property's floorplans with its title and file, and leaves " +
      "them when deleted or moved (sections 2.1, 2.3).",
  ],
  template_catalogue: [
    "2.4",
    "The catalogue has the twenty-three templates, each with the access level of section 2.4.",
  ],
  duplicate_agent_rejected: [
    "7",
    "An agent email is unique: a create or update to an email that belongs to another agent is refused, a " +
      "create with Agent Already Exists while the account has a free seat, and with either named error when it " +
      "is also full (section 7 gives no precedence); the email is free again once its agent is deleted " +
      "(sections 2.2, 7).",
  ],
  agent_seat_limit: [
    "8",
    "On an account without agents, creating agents past its seat limit is refused with Not Enough Agent " +
      "Seats, and a deleted agent frees its seat (sections 7, 8). Needs --fresh-api-key. Any account may be " +
      "full: a create refused with Not Enough Agent Seats elsewhere skips what needed the agent, with the " +
      "reason.",
  ],
  autologin_uri: [
    "4.1",
    "The uri a property create or edit answers has the documented form " +
      "{base_url}/<autologin_path>/<ACCESS_TOKEN>: it starts with the service's public base address " +
      "(--public-base-url when the service sits behind another one) and holds a path and a token after it " +
      "(sections 4.1, 5).",
  ],
  documented_representation: [
    "2.1",
    "Values the document fixes whatever was sent: a property without tours has virtual_tours as an empty " +
      "array; every garage kind comes back as a count-like numeric string and every property type in a compact " +
      "form without spaces; an agent's name is a full display name, holding its first and last names (sections " +
      "2.1, 2.2).",
  ],
  profile_conformance: [
    "introduction",
    "With --profile: at every point the profile recorded (error statuses, media types and body shapes, list " +
      "orders, seats, never-set and undocumented fields), the service answers as it was seen to; each " +
      "difference names the observation and when it was recorded.",
  ],
  consumer_assumption: [
    "introduction",
    "With --usage: where an answer a consumer's client got from the mock rests on an assumption (or a " +
      "profile), the service answers alike: the status, the media type, every field the client got (present, " +
      "of the same JSON type), a list's order. A difference is a failure of that consumer, naming the " +
      "assumption; a value where the document fixes only the type is no difference.",
  ],
  consumer_fact: [
    "introduction",
    "With --usage: where an answer a consumer's client got rests on a documented fact (a status, a field, " +
      "the error value of section 7), the service answers alike; a difference is a defect of the service.",
  ],
  request_conformance: [
    "4",
    "A recorded request is one the contract allows: a documented operation and path, the credentials, the " +
      "content type, valid path parameters and body.",
  ],
} as const satisfies Record<string, readonly [section: string, meaning: string]>;

/**
 * The checks of a contract run, by stable name. Where Schemathesis has a check of the same meaning, its name
 * is reused; the others check facts of the interface document that a schema cannot say.
 */
export const CHECKS = Object.fromEntries(
  Object.entries(DEFINITIONS).map(([name, [section, meaning]]) => [name, { meaning, section }]),
) as { readonly [Name in keyof typeof DEFINITIONS]: CheckDefinition };

export type CheckName = keyof typeof CHECKS;

/** The checks of a consumer's usage, replayed or judged against a profile, besides those of every answer. */
export const USAGE_CHECKS: readonly CheckName[] = ["consumer_assumption", "consumer_fact"];

/**
 * The checks of the stateful scenario (the runner writes its own requests, so it does not check them; a profile is
 * compared only when given).
 */
export const SCENARIO_CHECKS: readonly CheckName[] = (Object.keys(CHECKS) as CheckName[]).filter(
  (name) => name !== "request_conformance" && name !== "profile_conformance" && !USAGE_CHECKS.includes(name),
);

/** The checks a recording of traffic can be held to: each exchange on its own, request and answer. */
export const RECORDING_CHECKS: readonly CheckName[] = [
  "request_conformance",
  "not_a_server_error",
  "status_code_conformance",
  "content_type_conformance",
  "response_schema_conformance",
  "undocumented_response_property",
];
