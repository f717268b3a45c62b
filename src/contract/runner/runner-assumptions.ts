/**
 * The rules the contract runner checks at the assumption tier on its own (beyond the spec's `x-assumption`
 * markers), each with why it is ours and not the interface document's. docs/assumptions.md lists them.
 */
export const RUNNER_ASSUMPTIONS: ReadonlyArray<{ check: string; rule: string; why: string }> = [
  { check: "create_round_trip", rule: "garage `Attached` comes back as `\"1\"`; `property_type` `Single Family` as `SingleFamily`", why: "Section 2.1 says only \"count-like numeric string\" and \"compact form without spaces\"; the fact tier demands a numeric string and a spaceless form of the same type." },
  { check: "create_round_trip, edit_visible", rule: "social links come back lightest weight first", why: "Section 2.2 says the weight orders the links, not in which direction; the fact tier accepts either." },
  { check: "duplicate_agent_rejected", rule: "an email with capitals in its local part is the same email", why: "Section 7 does not say emails are compared without regard to case; RFC 5321 makes only the domain case-insensitive, which the fact tier checks." },
  { check: "duplicate_agent_rejected", rule: "an update to a taken email is refused with `Agent Already Exists`", why: "Section 7 names the error for a create; the refusal itself is a fact (section 2.2, unique)." },
  { check: "negative_data_rejection", rule: "a social link weight that is not integer-like is refused on agent create", why: "The request bodies of endpoints 6 to 14 are not shown (section 4.5); a service that keeps such a weight breaks section 2.2, which is a fact." },
  { check: "ignored_auth", rule: "endpoints 6 to 14 refuse broken credentials", why: "Authentication of endpoints 6 to 14 is not shown (section 5)." },
  { check: "status_code_conformance", rule: "with `--fuzz`, a generated create or edit the document allows (any text, any integer JSON carries) succeeds", why: "The document sets no length or character limit and no range (section 8: size limits not shown); a service may refuse what it leaves open. A 5xx to it, or a 2xx that does not round-trip, is a fact." },
];

/** Rules that were checked as facts before and are assumptions now (issue 8): the document does not state them. */
export const MOVED_FROM_FACTS: readonly string[] = [
  "A string field of a property is never null: dropped, since section 2.1 says absent values come back as null, for every field.",
  "`published` on a list item is `'0'` or `'1'`: only its type, a string, is a fact (section 2.1).",
  "`parking_spaces` is a numeric string: section 2.1 types it \"string or null\".",
  "`skip_zlookup` is a string: section 2.1 says \"null or value\".",
  "The keys of `virtual_tours`, `property_videos` and `floorplans` are numeric: section 2.1 says only \"keyed by id\".",
  "A delete answers exactly `[true]`: sections 4.2 and 4.3 say \"a list containing the boolean true\".",
  "An answer's content-type is exactly `application/json`: the document says bodies are JSON; another JSON media type, or a parameter such as `charset`, is not a failure.",
  "A refusal has a particular status or body: at the fact tier a refusal is any status but 2xx (section 4 makes 200 the success status; section 7 does not show error statuses).",
  "Any schema rule without a section of the interface document to cite (`x-section` in the spec).",
];
