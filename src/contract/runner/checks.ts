/**
 * The checks of a contract run, by stable name. Where Schemathesis has a check of the same meaning, its name
 * is reused; the others check facts of the interface document that a schema cannot say.
 */
export const CHECKS = {
  not_a_server_error: "The service never answers with a 5xx status or stops answering.",
  status_code_conformance: "The status is one the operation documents; a successful operation answers 200 (section 4).",
  content_type_conformance: "The content-type of the answer is one the operation documents for its status.",
  response_schema_conformance: "The answer's body matches the schema the operation documents for its status.",
  undocumented_response_property: "The answer carries no field the contract does not list (a warning unless --strict: the document lists fields, it does not forbid others).",
  negative_data_rejection: "A request that breaks a documented constraint is refused (not 2xx), and the service keeps working.",
  ignored_auth: "A request without credentials, or with a TOKEN that does not belong to the API-KEY, is refused (section 5).",
  use_after_free: "A deleted record can no longer be retrieved or listed.",
  ensure_resource_availability: "A created record can be retrieved and appears in its list.",
  create_round_trip: "What a create sends comes back on retrieve: numbers as numeric strings, the property type compact (section 2.1).",
  edit_visible: "An edit shows on retrieve, and the fields it did not name keep their value (section 4.1).",
  external_id_lookup: "An external id set on a property finds it through endpoint 2 (section 4.1).",
  floorplan_on_property: "A document with is_floorplan appears in its property's floorplans, and leaves them when deleted (sections 2.1, 2.3).",
  template_catalogue: "The catalogue has the twenty-three templates, each with the access level of section 2.4.",
  duplicate_agent_rejected: "A second agent with an existing email is refused with Agent Already Exists (section 7).",
  request_conformance: "A recorded request is one the contract allows: a documented operation and path, the credentials, the content type, valid path parameters and body.",
} as const;

export type CheckName = keyof typeof CHECKS;

/** The checks of the stateful scenario (the runner writes its own requests, so it does not check them). */
export const SCENARIO_CHECKS: readonly CheckName[] = (Object.keys(CHECKS) as CheckName[]).filter((name) => name !== "request_conformance");

/** The checks a recording of traffic can be held to: each exchange on its own, request and answer. */
export const RECORDING_CHECKS: readonly CheckName[] = [
  "request_conformance",
  "not_a_server_error",
  "status_code_conformance",
  "content_type_conformance",
  "response_schema_conformance",
  "undocumented_response_property",
];
