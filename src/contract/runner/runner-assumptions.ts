/**
 * The rules the contract runner checks at the assumption tier on its own (beyond the spec's `x-assumption`
 * markers), each with why it is ours and not the interface document's. docs/assumptions.md lists them.
 */
export const RUNNER_ASSUMPTIONS: ReadonlyArray<{ check: string; rule: string; why: string }> = [
  {
    check: "create_round_trip",
    rule: 'garage `Attached` comes back as `"1"`; `property_type` `Single Family` as `SingleFamily`',
    why:
      'Section 2.1 says only "count-like numeric string" and "compact form without spaces"; the fact tier ' +
      "demands a numeric string and a spaceless form of the same type.",
  },
  {
    check: "create_round_trip, edit_visible",
    rule: "social links come back lightest weight first",
    why: "Section 2.2 says the weight orders the links, not in which direction; the fact tier accepts either.",
  },
  {
    check: "duplicate_agent_rejected",
    rule: "an email with capitals in its local part is the same email",
    why:
      "Section 7 does not say emails are compared without regard to case; RFC 5321 makes only the domain " +
      "case-insensitive, which the fact tier checks.",
  },
  {
    check: "duplicate_agent_rejected",
    rule: "an update to a taken email is refused with `Agent Already Exists`",
    why: "Section 7 names the error for a create; the refusal itself is a fact (section 2.2, unique).",
  },
  {
    check: "negative_data_rejection",
    rule: "a social link weight that is not integer-like is refused on agent create",
    why:
      "The request bodies of endpoints 6 to 14 are not shown (section 4.5); a service that keeps such a weight " +
      "breaks section 2.2, which is a fact.",
  },
  {
    check: "ignored_auth",
    rule: "endpoints 6 to 14 refuse broken credentials",
    why: "Authentication of endpoints 6 to 14 is not shown (section 5).",
  },
  {
    check: "create_round_trip, edit_visible",
    rule:
      "a value comes back in the very text sent: a number as written, a URL without normalisation, a " +
      "comma-separated list with its spacing, a phone number as typed, `website_url` as sent",
    why:
      "The document types these fields (numeric string, URL, comma-separated list, string) without saying a " +
      "service keeps the text; the fact tier compares the number, the normalised URL, the items and the " +
      "digits, and leaves `website_url` to the schema, since a service may compute it from the subdomain or " +
      "custom domain (section 4.1 does not say every field of an edit is writable).",
  },
  {
    check: "documented_representation",
    rule: "an agent created without a name answers a name composed of its first and last names, not `null`",
    why:
      "Section 2.2 calls `name` the full display name; whether a name never given comes back `null` (the " +
      "reading of section 2.1's absent values) is not said. A name given back must hold the first and last " +
      "names (a fact).",
  },
  {
    check: "negative_data_rejection",
    rule:
      "a request the document rules out (a near miss of endpoint 3's table, a state of another length, a path " +
      "nid that is no integer, a generated case breaking one documented rule) is refused",
    why:
      "No sentence of the document says invalid input is refused: section 7 shows the errors of the agent " +
      "operations only, and says the errors of the others are not shown. What a service stores and answers is " +
      "documented, so a request it takes is judged by the property it leaves: every fact of 2.1 must hold " +
      "there (a fact), and the refusal we expect is a warning.",
  },
  {
    check: "status_code_conformance",
    rule: "with `--fuzz`, a generated create or edit the document allows (any text, any integer JSON carries) succeeds",
    why:
      "The document sets no length or character limit and no range (section 8: size limits not shown); a " +
      "service may refuse what it leaves open. A 5xx to it, or a 2xx that does not round-trip, is a fact.",
  },
];

/** Rules that were checked as facts before and are assumptions now: the document does not state them. */
export const MOVED_FROM_FACTS: readonly string[] = [
  "A string field of a property is never null: dropped, since section 2.1 says absent values come back as " +
    "null, for every field.",
  "`published` on a list item is `'0'` or `'1'`: only its type, a string, is a fact (section 2.1).",
  '`parking_spaces` is a numeric string: section 2.1 types it "string or null".',
  '`skip_zlookup` is a string: section 2.1 says "null or value".',
  'The keys of `virtual_tours`, `property_videos` and `floorplans` are numeric: section 2.1 says only "keyed by id".',
  'A delete answers exactly `[true]`: sections 4.2 and 4.3 say "a list containing the boolean true".',
  "An answer's content-type is exactly `application/json`: the document says bodies are JSON; another JSON " +
    "media type, or a parameter such as `charset`, is not a failure.",
  "A refusal has a particular status or body: at the fact tier a refusal is any status but 2xx (section 4 " +
    "makes 200 the success status; section 7 does not show error statuses).",
  "Any schema rule without a section of the interface document to cite (`x-section` in the spec).",
  "A value an edit or create sends comes back as the same text: a fact only as the same value (the same " +
    "number, the same URL after normalisation, the same list items, the same phone digits); `website_url` may " +
    "be computed by the service from the subdomain or custom domain, and is left to the schema.",
  "An agent field of section 2.2 is never null: a field never set may come back null (section 2.1 reads " +
    "absent values as null; section 2.2 does not say otherwise); the field's own type is our expectation.",
  "A create with a taken email is refused with Agent Already Exists: a fact only while the account has a " +
    "free seat; on a full account Not Enough Agent Seats is as right (section 7 gives no precedence).",
  "Every agent create on the main account succeeds: the number of seats is not stated (section 8), so a " +
    "refusal naming Not Enough Agent Seats skips what needed the agent, with the reason.",
  "An edit takes garage and property_type in the create's words (Detached, Condo): which values an edit " +
    "takes is not shown (section 4.1 lists those of a create), so a refusal is a warning; the representation " +
    "of each value is a fact once an edit takes it.",
  "Endpoint 2 answers the very object of endpoint 1: a fact for the documented fields of section 2.1 only; " +
    "an extra field (a timestamp of access, say) may differ.",
  "A request the document rules out is refused: no sentence of the document says so (section 7 shows no " +
    "error of the property operations). A refusal is a fact only in what it did, nothing; a request the " +
    "service takes is judged by what it stored, every fact of 2.1 holding on retrieve. A value of a type the " +
    "document gives the same field in another operation's body (an integer in an edit's square_feet, which the " +
    'create table types integer) is no "other type": the generated phase sends it neither as valid nor as ' +
    "invalid.",
];

/** Rules that were assumptions, or went unchecked, and are facts now, each with why. */
export const MOVED_TO_FACTS: readonly string[] = [
  "An answer that fails every branch of an anyOf/oneOf fails the documented branch too: a fact failure even " +
    "when the closest branch is an assumption (an agent list answered as a non-empty JSON array was a warning).",
  "The auto-login uri of a create and an edit is {base_url}/<autologin_path>/<ACCESS_TOKEN> (section 4.1), " +
    "against --public-base-url when given: checked on every such answer (it was only a URL).",
  "virtual_tours is an empty array on a property without tours (section 2.1): checked on every retrieve of " +
    "the run's properties (an empty object passed the schema).",
  "Every garage kind comes back as a count-like numeric string, every property type compact, every create " +
    "template as its machine name (section 2.1): checked for each value, not only those the scenario sent: one " +
    "property created per property type, the garage kinds and the create templates cycling through them " +
    "(section 4.1 lists these values for a create), and the 9 templates the creates do not reach set by edit.",
  "An agent's name is a full display name (section 2.2): a name given back for an agent created without one " +
    "holds its first and last names.",
  "The agent list's keys are its values' nids, and each agent of the run is listed under its own nid with " +
    "its own email (sections 2.2, 4.2): checked on every list answer, with two or more agents of the run " +
    "listed.",
];
