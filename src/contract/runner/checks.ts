/** What a check means, and the section of the interface document its fact-tier rule comes from. */
export interface CheckDefinition {
  meaning: string;
  /**
   * The section cited when the check fails at the fact tier (`4.1`, `2.1`, or `introduction`); a step may cite a
   * narrower one. Every check has one: a rule with nothing to cite is only ever evaluated as an assumption.
   */
  section: string;
}

/**
 * The checks of a contract run, by stable name. Where Schemathesis has a check of the same meaning, its name
 * is reused; the others check facts of the interface document that a schema cannot say.
 */
export const CHECKS = {
  not_a_server_error: { meaning: "The service never answers with a 5xx status or stops answering.", section: "4" },
  status_code_conformance: { meaning: "The status is one the operation documents; a successful operation answers 200 (section 4).", section: "4" },
  content_type_conformance: { meaning: "The content-type of the answer is one the operation documents for its status (bodies are JSON).", section: "introduction" },
  response_schema_conformance: { meaning: "The answer's body matches the schema the operation documents for its status.", section: "2" },
  undocumented_response_property: {
    meaning: "The answer carries no field the contract does not list (a warning unless --strict: the document lists fields, it does not forbid others).",
    section: "2",
  },
  negative_data_rejection: {
    meaning: "A request the document rules out (a near miss of a required field, a length or an enum; with --fuzz, any generated case breaking one documented rule) may be refused, which must change nothing, or taken, which must leave a property that keeps every documented fact of 2.1 (a count-like garage, a compact property type of the list, null for what is absent, and what the schema states); that it was taken at all is a warning (an assumption: no sentence of the document says such a request is refused).",
    section: "4.1",
  },
  ignored_auth: { meaning: "Every operation, aimed at a record the caller owns, is refused without API-KEY, without TOKEN, with a wrong TOKEN and with another account's TOKEN (section 5).", section: "5" },
  use_after_free: { meaning: "A deleted record can no longer be retrieved or listed.", section: "4.2" },
  ensure_resource_availability: { meaning: "A created record can be retrieved and appears in its list.", section: "4" },
  create_round_trip: {
    meaning: "Every writable field a create sends comes back on retrieve in the documented representation: numbers as numeric strings, the property type compact, garage as a count, social links with their weights in weight order (sections 2.1 to 2.3).",
    section: "2.1",
  },
  edit_visible: { meaning: "Every field an edit or update sends shows on retrieve, and the fields it did not name keep their value (sections 4.1 to 4.3).", section: "4.1" },
  absent_is_null: { meaning: "A field the run never set comes back null, not an empty string (section 2.1: absent values come back as null).", section: "2.1" },
  list_consistency: {
    meaning: "On every list answer the run sees: every key of the agent list is its value's nid, and each agent of the run is listed under its own nid with its own email; list-by-user shows each property of the run with its title and external id; no other entry moves. The run lists two or more agents of its own (sections 2.1, 4.1, 4.2).",
    section: "4.2",
  },
  external_id_lookup: { meaning: "An external id set on a property finds the same property object through endpoint 2 (section 4.1).", section: "4.1" },
  floorplan_on_property: { meaning: "A document with is_floorplan appears in its property's floorplans with its title and file, and leaves them when deleted or moved (sections 2.1, 2.3).", section: "2.1" },
  template_catalogue: { meaning: "The catalogue has the twenty-three templates, each with the access level of section 2.4.", section: "2.4" },
  duplicate_agent_rejected: {
    meaning: "An agent email is unique: a create or update to an email that belongs to another agent is refused, a create with Agent Already Exists while the account has a free seat, and with either named error when it is also full (section 7 gives no precedence); the email is free again once its agent is deleted (sections 2.2, 7).",
    section: "7",
  },
  agent_seat_limit: {
    meaning: "On an account without agents, creating agents past its seat limit is refused with Not Enough Agent Seats, and a deleted agent frees its seat (sections 7, 8). Needs --fresh-api-key. Any account may be full: a create refused with Not Enough Agent Seats elsewhere skips what needed the agent, with the reason.",
    section: "8",
  },
  autologin_uri: {
    meaning: "The uri a property create or edit answers has the documented form {base_url}/<autologin_path>/<ACCESS_TOKEN>: it starts with the service's public base address (--public-base-url when the service sits behind another one) and holds a path and a token after it (sections 4.1, 5).",
    section: "4.1",
  },
  documented_representation: {
    meaning: "Values the document fixes whatever was sent: a property without tours has virtual_tours as an empty array; every garage kind comes back as a count-like numeric string and every property type in a compact form without spaces; an agent's name is a full display name, holding its first and last names (sections 2.1, 2.2).",
    section: "2.1",
  },
  profile_conformance: {
    meaning: "With --profile: at every point the profile recorded (error statuses, media types and body shapes, list orders, seats, never-set and undocumented fields), the service answers as it was seen to; each difference names the observation and when it was recorded.",
    section: "introduction",
  },
  consumer_assumption: {
    meaning: "With --usage: where an answer a consumer's client got from the mock rests on an assumption (or a profile), the service answers alike: the status, the media type, every field the client got (present, of the same JSON type), a list's order. A difference is a failure of that consumer, naming the assumption; a value where the document fixes only the type is no difference.",
    section: "introduction",
  },
  consumer_fact: {
    meaning: "With --usage: where an answer a consumer's client got rests on a documented fact (a status, a field, the error value of section 7), the service answers alike; a difference is a defect of the service.",
    section: "introduction",
  },
  request_conformance: { meaning: "A recorded request is one the contract allows: a documented operation and path, the credentials, the content type, valid path parameters and body.", section: "4" },
} as const satisfies Record<string, CheckDefinition>;

export type CheckName = keyof typeof CHECKS;

/** The checks of a consumer's usage, replayed or judged against a profile, besides those of every answer. */
export const USAGE_CHECKS: readonly CheckName[] = ["consumer_assumption", "consumer_fact"];

/** The checks of the stateful scenario (the runner writes its own requests, so it does not check them; a profile is compared only when given). */
export const SCENARIO_CHECKS: readonly CheckName[] = (Object.keys(CHECKS) as CheckName[]).filter((name) => name !== "request_conformance" && name !== "profile_conformance" && !USAGE_CHECKS.includes(name));

/** The checks a recording of traffic can be held to: each exchange on its own, request and answer. */
export const RECORDING_CHECKS: readonly CheckName[] = [
  "request_conformance",
  "not_a_server_error",
  "status_code_conformance",
  "content_type_conformance",
  "response_schema_conformance",
  "undocumented_response_property",
];
