/**
 * The legitimate variants of the independent service: each one takes a choice that `service-interface.md`
 * leaves open (its silence, or its "not shown"), and so stays a conforming service. A contract runner must pass
 * every one of them with no failure (issue 19, item 6); `VARIANTS` (variants.ts) are the defects, each caught.
 */

/** One choice the document leaves open, taken otherwise than the plain instance takes it. */
export interface LegitimateVariant {
  /** What `startIndependentService({ variant })` takes. */
  name: string;
  /** What this instance does differently, in one line. */
  choice: string;
  /** Why that is still the service of the document: its words or its silence, with the section. */
  justification: string;
}

const LIST = [
  {
    name: "lists-oldest-first",
    choice:
      "the property list, the agent list (keys included) and the template catalogue come oldest first / in " +
      "the document's order",
    justification: "4.5: ordering for the list endpoints 5, 10 and 15 is not shown",
  },
  {
    name: "errors-all-400-list-body",
    choice: 'every refusal is 400 with a body {"errors": [{"code", "detail"}]}, the named agent errors as the code',
    justification:
      "7: HTTP status codes of errors and the error body shape are not shown; only the two error values are named",
  },
  {
    name: "no-extra-fields",
    choice: "answers carry the documented fields only, none of the plain instance's extras",
    justification:
      "2 and 4: the tables list the fields of each answer; a service that sends exactly those is the " +
      "document's own reading",
  },
  {
    name: "no-charset",
    choice: "content-type is application/json, without a charset parameter",
    justification:
      "introduction: bodies are JSON; RFC 8259 needs no charset parameter, and the plain instance's one is " +
      "equally allowed",
  },
  {
    name: "auth-401-then-403",
    choice: "missing credentials are refused with 401, mismatched ones with 403",
    justification: "5 and 7: the headers are required, but the status of a refusal is not shown",
  },
  {
    name: "foreign-records-403",
    choice: "another account's property, agent or document is refused with 403 instead of looking absent (404)",
    justification: "7: errors for any operation other than the two agent errors are not shown",
  },
  {
    name: "small-sequential-nids",
    choice: "nids count 1, 2, 3 ... for each kind of record, so a property and an agent may share a number",
    justification:
      "2.1, 2.2, 2.3: nids are numeric strings (integers for documents); how they are allocated is not shown",
  },
  {
    name: "agent-list-nid-as-string",
    choice: "the nid inside each agent list value is a numeric string, not an integer",
    justification:
      "2.2 and 4.2: list values are objects with email and nid; their types are not shown (2.1 gaps: types " +
      "of agent fields beyond the table)",
  },
  {
    name: "email-before-seats",
    choice:
      "a create on a full account with an email that is taken answers Agent Already Exists (the plain " +
      "instance: Not Enough Agent Seats)",
    justification: "7: both errors are named, each with its condition; which one wins when both hold is not shown",
  },
  {
    name: "primary-one-free-seat",
    choice:
      "the main account has 2 agent seats, one of them held by its starting agent: a run can create one " +
      "agent at a time",
    justification: "8: the number of agent seats per account is limited and not stated",
  },
  {
    name: "primary-no-free-seat",
    choice: "the main account has 1 agent seat, held by its starting agent: no agent can be created on it",
    justification: "8: the number of agent seats per account is limited and not stated; one seat is a number",
  },
  {
    name: "fresh-one-seat",
    choice: "the account without agents has a single seat",
    justification: "8: the number of agent seats per account is not stated",
  },
  {
    name: "website-url-derived",
    choice:
      "website_url is computed from the subdomain (https://<subdomain>.listings.example, no trailing slash); " +
      "an edit of website_url is ignored",
    justification:
      "4.1 endpoint 4 takes 'any of the property field names to be changed' without saying each is writable; " +
      "2.1 types website_url only as a URL",
  },
  {
    name: "urls-with-trailing-slash",
    choice:
      "agent website, headshot_url and social link URLs, and document file_url, come back with a trailing " +
      "slash added to their path",
    justification: "2.2 and 2.3 type these only as 'string (URL)'; the text a service keeps of a URL is not shown",
  },
  {
    name: "amenities-spaced",
    choice: 'amenities come back with a space after each comma ("Pool, Garden" for "Pool,Garden")',
    justification: "2.1: amenities is a 'Comma-separated list'; the spacing of the list is not shown",
  },
  {
    name: "phone-formatted",
    choice: 'an agent\'s phone comes back in its own format, digits kept ("555-010-0100" for "(555) 010-0100")',
    justification: "2.2 types phone as a string; its format is not shown",
  },
  {
    name: "decimal-numbers",
    choice: 'list_price comes back with two decimals ("1300000.00")',
    justification: "2.1: list_price is a 'string (numeric)'; the number's written form is not shown",
  },
  {
    name: "empty-accounts",
    choice: "every account starts with no properties and no agents",
    justification: "1 and 8: what an account holds when a caller receives it is not shown",
  },
  {
    name: "links-heaviest-first",
    choice: "social links come back heaviest weight first",
    justification: "2.2: the weight 'orders the links', without saying in which direction",
  },
  {
    name: "garage-counts-otherwise",
    choice: 'garage counts: Attached "1", Detached "2", None "0" (the plain instance: 2, 1, 0)',
    justification: "2.1: garage is 'returned as a count-like numeric string'; which count a kind means is not shown",
  },
  {
    name: "edit-takes-retrieve-forms",
    choice:
      "an edit takes garage only as a count and property_type only in its compact form (the forms retrieve " +
      "shows), refusing the create's words",
    justification:
      "4.1 endpoint 4: field names 'each with a string value'; which values of garage and property_type an " +
      "edit takes is not shown",
  },
  {
    name: "edit-refuses-numbers",
    choice:
      "an edit takes strings only: a JSON number is refused in every field, also an integer where the create " +
      "table types the field integer (the plain instance takes that integer)",
    justification:
      "4.1 endpoint 4: 'each with a string value'; the document nowhere says a refused request is wrong, nor " +
      "that an edit takes the create's types",
  },
  {
    name: "lenient-types",
    choice:
      "neighbouring types taken and stored in the documented form: a number where a string is documented as " +
      "its text, a numeric string where an integer is documented as that number, garage and property_type in " +
      "any case or compact form as the listed value, syd and intra on create; an edit ignores website_url " +
      "(derived from the subdomain), nid, uid and unknown fields",
    justification:
      "7: errors of the property operations are not shown, and no sentence says invalid input is refused; " +
      "2.1 fixes what is stored (string scalars, a count-like garage, a compact property type, a template of " +
      "2.4), which holds",
  },
  {
    name: "nid-parsed-leniently",
    choice: "the nid of endpoints 1 and 4 is read by its leading digits: 12abc and 12.5 name property 12",
    justification:
      "4.1: the nid is an integer, and errors of these operations are not shown (7); what is answered is a " +
      "property of 2.1 and an edit of it keeps every fact",
  },
] as const satisfies readonly LegitimateVariant[];

/** Name of a legitimate variant, checked by the compiler wherever the service asks whether it takes one. */
export type LegitimateVariantName = (typeof LIST)[number]["name"];

/** Every legitimate variant: a choice the document leaves open, which a contract run must pass. */
export const LEGITIMATE_VARIANTS: readonly LegitimateVariant[] = LIST;
