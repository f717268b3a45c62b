/**
 * The broken variants of the independent service: each one breaks exactly ONE rule that
 * `service-interface.md` states, so that a contract runner can be shown to catch it (issue 8, items 5-12). None
 * relies on a refusal: the document requires none (issue 28), so a defect that takes a request the document
 * rules out keeps it so that a documented fact breaks.
 * The rest of the service keeps conforming; the rule names the section it comes from.
 */
import { LEGITIMATE_VARIANTS, type LegitimateVariantName } from "./legitimate-variants.ts";

/** One deliberately broken rule. */
export interface Variant {
  /** What `startIndependentService({ variant })` takes. */
  name: string;
  /** The documented rule this variant breaks, in words. */
  rule: string;
  /** The section of service-interface.md that states the rule (e.g. "2.1", "4.1 endpoint 3", "7"). */
  section: string;
  /**
   * Only generated input reveals it (issue 21): the fixed scenario never sends what it breaks on, so the runner
   * catches it with `--fuzz` and misses it without.
   */
  needsFuzz?: true;
}

const LIST = [
  // Round trips: a value sent comes back, in the documented representation.
  {
    name: "create-drops-year-built-and-parking",
    rule: "year_built and parking_spaces sent on create come back on retrieve",
    section: "4.1 endpoint 3",
  },
  {
    name: "edit-drops-premise-and-country",
    rule: "premise and country changed by edit come back on retrieve",
    section: "4.1 endpoint 4",
  },
  {
    name: "edit-drops-listing-fields",
    rule: "listing_status, intent, lot_size_units and mls_id changed by edit come back on retrieve",
    section: "4.1 endpoint 4",
  },
  {
    name: "edit-drops-media-ids",
    rule: "main_image, logo, edit_access and show_on_property changed by edit come back on retrieve",
    section: "4.1 endpoint 4",
  },
  {
    name: "list-price-as-number",
    rule: "list_price comes back as a numeric string, not a JSON number",
    section: "2.1",
  },
  { name: "uid-as-number", rule: "uid comes back as a numeric string", section: "2.1" },
  {
    name: "property-type-not-compacted",
    rule: "property_type comes back in a compact form without spaces",
    section: "2.1",
  },
  {
    name: "garage-as-word",
    rule: "garage comes back as a count-like numeric string, not the word sent",
    section: "2.1",
  },
  {
    name: "lot-size-separator-stripped",
    rule: "lot_size may contain a thousands separator and comes back unchanged",
    section: "2.1",
  },
  {
    name: "description-html-stripped",
    rule: "description may contain HTML markup and comes back unchanged",
    section: "2.1",
  },
  {
    name: "premise-empty-string-as-null",
    rule: 'premise may be an empty string: an empty premise comes back as ""',
    section: "2.1",
  },
  {
    name: "edit-accepts-3-char-state",
    rule: "state is a 2-character abbreviation, also when edit changes it",
    section: "2.1",
  },
  { name: "edit-answers-no-uri", rule: "edit answers the nid and an auto-login uri", section: "4.1 endpoint 4" },
  { name: "virtual-tours-null", rule: "virtual_tours is an empty array when there are none", section: "2.1" },
  {
    name: "agent-drops-company-and-license",
    rule: "company and license sent on agent create come back on retrieve",
    section: "2.2",
  },
  {
    name: "agent-update-drops-professional-title",
    rule: "professional_title sent on agent update comes back on retrieve",
    section: "4.2 endpoint 8",
  },
  { name: "links-not-ordered-by-weight", rule: "social_media_links are ordered by their weight", section: "2.2" },
  {
    name: "negative-weight-link-dropped",
    rule: "a social link's weight may be negative; such a link comes back",
    section: "2.2",
  },
  { name: "weight-as-number", rule: "a social link's weight comes back as a string", section: "2.2" },
  { name: "agency-profile-as-number", rule: "agency_profile comes back as a string (numeric id)", section: "2.2" },
  { name: "document-drops-category", rule: "category sent on document create comes back on retrieve", section: "2.3" },
  {
    name: "document-update-ignores-visible",
    rule: "visible changed by document update comes back on retrieve",
    section: "4.3 endpoint 12",
  },
  { name: "document-timestamps-as-strings", rule: "created and changed are integer timestamps", section: "2.3" },
  { name: "document-booleans-as-numbers", rule: "visible and is_floorplan are booleans", section: "2.3" },
  {
    name: "show-on-unbranded-lowercased",
    rule: "the field is named Show_on_unbranded, with a capital S",
    section: "2.3",
  },
  { name: "property-reference-as-string", rule: "property_reference is an integer", section: "2.3" },
  {
    name: "document-create-nid-as-string",
    rule: "document create answers nid as an integer",
    section: "4.3 endpoint 11",
  },
  { name: "agent-id-not-nid", rule: "an agent's id is its identifier, the nid create answered", section: "2.2" },
  {
    name: "document-update-nid-as-number",
    rule: "document update answers nid as a string",
    section: "4.3 endpoint 12",
  },
  { name: "agent-create-nid-as-number", rule: "agent create answers nid as a string", section: "4.2 endpoint 7" },
  { name: "floorplan-nid-as-number", rule: "a floorplan entry of a property has nid as a string", section: "2.1" },
  // Lists.
  { name: "agent-list-key-not-nid", rule: "the agent list is keyed by agent nid", section: "2.2" },
  {
    name: "list-by-user-misses-created-property",
    rule: "list by user shows the user's properties, including one just created",
    section: "4.1 endpoint 5",
  },
  { name: "list-by-user-external-id-null", rule: "a list item carries the property's external_id", section: "2.1" },
  { name: "published-as-number", rule: "published on a list item is a string flag value", section: "2.1" },
  { name: "deleted-agent-still-listed", rule: "a deleted agent leaves the agent list", section: "4.2 endpoint 9" },
  {
    name: "deleted-document-still-retrievable",
    rule: "a deleted document can no longer be retrieved",
    section: "4.3 endpoint 14",
  },
  {
    name: "external-lookup-not-found",
    rule: "retrieve by external id finds the property given that external id",
    section: "4.1 endpoint 2",
  },
  // Absent means null.
  { name: "unset-fields-as-empty-string", rule: 'absent values come back as null, not ""', section: "2.1" },
  { name: "unset-fields-omitted", rule: "absent values come back as null, not as missing fields", section: "2.1" },
  // Near misses taken, and kept so that a documented fact breaks (issue 28: a refusal is never required; what the
  // service stores is documented, and a near miss it takes must leave a property that keeps every fact of 2.1).
  {
    name: "accepts-lowercase-garage",
    rule: 'garage comes back as a count-like numeric string: a create with garage attached, taken, answers "attached"',
    section: "2.1",
  },
  {
    name: "accepts-lowercase-property-type",
    rule:
      "property_type comes back in a compact form without spaces: a create with property_type single family, " +
      'taken, answers "single family"',
    section: "2.1",
  },
  {
    name: "accepts-3-char-state",
    rule: "state is a 2-character abbreviation: a create with a 3-character state, taken, keeps it",
    section: "2.1",
  },
  {
    name: "accepts-1-char-state",
    rule: "state is a 2-character abbreviation: a create with a 1-character state, taken, keeps it",
    section: "2.1",
  },
  {
    name: "template-case-kept",
    rule: 'template is a machine name of the catalogue: a create with template MAK, taken, answers "MAK"',
    section: "2.4",
  },
  {
    name: "accepts-missing-zip",
    rule: 'absent values come back as null: a create without zip, taken, answers zip ""',
    section: "2.1",
  },
  {
    name: "accepts-missing-street",
    rule: 'absent values come back as null: a create without street, taken, answers street ""',
    section: "2.1",
  },
  { name: "accepts-non-integer-weight", rule: "a social link's weight is integer-like", section: "2.2" },
  // Authentication on the endpoints where the document states it (1-5 and 15).
  { name: "auth-ep1-no-key", rule: "retrieve by nid requires the API-KEY header", section: "5" },
  { name: "auth-ep2-no-token", rule: "retrieve by external id requires the TOKEN header", section: "5" },
  {
    name: "auth-ep3-foreign-token",
    rule: "create requires the caller's own TOKEN with its API-KEY, not another account's",
    section: "5",
  },
  { name: "auth-ep4-wrong-token", rule: "edit requires the TOKEN matching the API-KEY", section: "5" },
  {
    name: "auth-ep5-foreign-token",
    rule: "list by user requires the caller's own TOKEN with its API-KEY, not another account's",
    section: "5",
  },
  { name: "auth-ep15-no-key", rule: "the template catalogue requires the API-KEY header", section: "4.4" },
  // Limits and uniqueness.
  { name: "seat-limit-not-enforced", rule: "creating an agent beyond the account's seats is refused", section: "8" },
  { name: "seat-limit-unnamed-error", rule: "the seat refusal names the error Not Enough Agent Seats", section: "7" },
  {
    name: "duplicate-email-accepted",
    rule: "creating an agent with an email that belongs to an agent is refused (Agent Already Exists)",
    section: "7",
  },
  {
    name: "duplicate-email-case-variant-accepted",
    rule: "agent email is unique: a case variant of an existing email is the same email",
    section: "2.2",
  },
  {
    name: "duplicate-email-on-update-accepted",
    rule: "agent email is unique, also when an update gives an agent another agent's email",
    section: "2.2",
  },
  {
    name: "email-not-freed-after-delete",
    rule: "after its agent is deleted an email belongs to no agent and can be used again",
    section: "7",
  },
  {
    name: "floorplan-not-on-property",
    rule: "a floorplan document appears in its property's floorplans",
    section: "2.1",
  },
  {
    name: "document-not-floorplan-on-property",
    rule: "a property's floorplans come from its floorplan documents only, not from its other documents",
    section: "2.1",
  },
  {
    name: "floorplan-stays-after-delete",
    rule: "a deleted floorplan document leaves its property's floorplans",
    section: "2.1",
  },
  // Answer shapes.
  {
    name: "delete-agent-answers-bare-true",
    rule: "agent delete answers a list containing true",
    section: "4.2 endpoint 9",
  },
  {
    name: "delete-document-answers-object",
    rule: "document delete answers a list containing true",
    section: "4.3 endpoint 14",
  },
  { name: "templates-eko-standard", rule: "eko has access level pro", section: "2.4" },
  {
    name: "templates-missing-intra",
    rule: "the catalogue holds every documented machine name, intra included",
    section: "2.4",
  },
  {
    name: "create-uri-relative",
    rule: "create answers uri as a URL of the form {base_url}/<autologin_path>/<ACCESS_TOKEN>",
    section: "4.1 endpoint 3",
  },
  { name: "create-answers-201", rule: "the success status of every endpoint is 200", section: "4" },
  // Issue 19: rules a run must see on every answer, and facts it did not exercise before.
  {
    name: "agent-list-as-array",
    rule: "the agent list is a map keyed by agent nid, not a JSON array of its values",
    section: "4.2 endpoint 10",
  },
  {
    name: "agent-list-values-shifted",
    rule:
      "each key of the agent list holds that agent's own entry (accounts start empty; values rotated one key " +
      "along)",
    section: "2.2",
  },
  {
    name: "create-uri-foreign-host",
    rule: "the create uri starts with {base_url}: {base_url}/<autologin_path>/<ACCESS_TOKEN>",
    section: "4.1 endpoint 3",
  },
  {
    name: "edit-uri-no-token",
    rule: "the edit uri ends with an access token after the auto-login path",
    section: "4.1 endpoint 4",
  },
  {
    name: "virtual-tours-empty-object",
    rule: "virtual_tours is an empty array when there are none, not an empty object",
    section: "2.1",
  },
  { name: "garage-none-as-word", rule: "garage None comes back as a count-like numeric string", section: "2.1" },
  {
    name: "property-type-town-house-spaced",
    rule: "property_type Town House comes back compact, without its space",
    section: "2.1",
  },
  {
    name: "agent-name-first-only",
    rule: "an agent's name is its full display name, not its first name alone",
    section: "2.2",
  },
  // Issue 19, item 1: values compared by meaning still catch another value.
  {
    name: "agent-website-other-host",
    rule: "an agent's website comes back as the URL sent, not one on another host",
    section: "2.2",
  },
  {
    name: "amenities-item-dropped",
    rule: "amenities changed by edit come back with every item of the list",
    section: "4.1 endpoint 4",
  },
  {
    name: "list-price-rounded",
    rule: "list_price changed by edit comes back as the same number",
    section: "4.1 endpoint 4",
  },
  // Issue 19, item 7: a value misrepresented only when a create sets it (an edit to the same word is shown right).
  {
    name: "garage-detached-word-on-create",
    rule: "garage Detached set by create comes back as a count-like numeric string",
    section: "2.1",
  },
  // Found only by generated input (issue 21): crashes on a class of input, a wrong type or a value accepted.
  {
    name: "crash-on-fraction-in-integer",
    rule: "a fraction where create documents an integer is refused, not answered 500",
    section: "4.1 endpoint 3",
    needsFuzz: true,
  },
  {
    name: "crash-on-non-ascii-street",
    rule: "a street is any string: one outside ASCII is stored, not answered 500",
    section: "4.1 endpoint 3",
    needsFuzz: true,
  },
  {
    name: "crash-on-long-city",
    rule: "a city is any string: a long one (over 100 characters) is stored, not answered 500",
    section: "4.1 endpoint 3",
    needsFuzz: true,
  },
  {
    name: "crash-on-negative-year-built",
    rule: "year_built is an integer, of any sign: a negative one is stored, not answered 500",
    section: "4.1 endpoint 3",
    needsFuzz: true,
  },
  {
    name: "number-for-string-kept-as-number",
    rule:
      "all scalar values come back as JSON strings: a JSON number a create or edit takes in a string field is " +
      "answered as that number",
    section: "2.1",
    needsFuzz: true,
  },
  {
    name: "edit-accepts-template-outside-catalogue",
    rule: "template is a machine name of the catalogue, also when edit changes it",
    section: "2.1",
    needsFuzz: true,
  },
  // Caught by the scenario since its near misses list the user's properties before and after (issue 28).
  {
    name: "create-refused-after-insert",
    rule:
      "a create that breaks a documented rule and is refused makes no property (the required fields of a " +
      "refused body are not kept)",
    section: "4.1 endpoint 3",
  },
] as const satisfies readonly Variant[];

/** Name of a variant, checked by the compiler wherever the service asks whether it is running one. */
export type VariantName = (typeof LIST)[number]["name"];

/** Every broken variant (one documented rule each). */
export const VARIANTS: readonly Variant[] = LIST;

/**
 * Asks whether the running service breaks a given rule (the conforming service breaks none), and which open
 * choice it takes where the document is silent (a legitimate variant, legitimate-variants.ts).
 */
export interface Faults {
  on(name: VariantName): boolean;
  chooses(name: LegitimateVariantName): boolean;
}

/**
 * The faults of one variant, a defect or a legitimate one, or of none (`undefined`: the plain conforming
 * service). Unknown names are a bug.
 */
export function faultsOf(variant: string | undefined): Faults {
  if (
    variant !== undefined &&
    !LIST.some((v) => v.name === variant) &&
    !LEGITIMATE_VARIANTS.some((v) => v.name === variant)
  ) {
    throw new Error(`unknown variant "${variant}"; see VARIANTS and LEGITIMATE_VARIANTS`);
  }
  return { on: (name) => name === variant, chooses: (name) => name === variant };
}
