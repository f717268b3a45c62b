/**
 * Reads the body of property create (section 4.1, endpoint 3) and edit (endpoint 4) into stored string
 * values. The plain instance refuses what the document rules out, and takes in an edit the integer the create
 * table gives the same field; the legitimate variant edit-refuses-numbers takes strings only on edit, and
 * lenient-types takes neighbouring types, stored in the documented form. The near-miss defects each let one
 * value through and keep it so that a documented fact of 2.1 breaks.
 */
import { CATALOGUE_NAMES, CREATE_TEMPLATES } from "./template-catalogue.ts";
import type { Faults } from "./variants.ts";

/** The scalar fields of 2.1 a client may set (everything but nid, uid and the nested structures). */
export const SETTABLE_FIELDS = [
  "street",
  "premise",
  "city",
  "state",
  "zip",
  "country",
  "title",
  "description",
  "amenities",
  "list_price",
  "display_price",
  "square_feet",
  "lot_size",
  "lot_size_units",
  "stories",
  "bedrooms",
  "baths",
  "half_baths",
  "garage",
  "parking_spaces",
  "listing_status",
  "property_type",
  "year_built",
  "subdomain",
  "custom_domain",
  "mls_id",
  "template",
  "api_author",
  "main_image",
  "edit_access",
  "show_on_property",
  "logo",
  "external_id",
  "skip_zlookup",
  "intent",
  "sns_id",
  "listtrack_property_id",
  "website_url",
] as const;

/** Fields 2.1 types as "string (numeric)" or as numeric ids. */
const NUMERIC_FIELDS = new Set([
  "list_price",
  "square_feet",
  "stories",
  "bedrooms",
  "baths",
  "half_baths",
  "year_built",
  "parking_spaces",
  "main_image",
  "edit_access",
  "show_on_property",
  "logo",
]);

/** Fields 2.1 types as numeric ids: digits only. */
const ID_FIELDS = new Set(["main_image", "edit_access", "show_on_property", "logo"]);

/** Why a value of a numeric field of 2.1 cannot be stored as the numeric string or id it is shown as, or undefined. */
function numericError(name: string, value: string): string | undefined {
  if (ID_FIELDS.has(name)) return /^\d+$/.test(value) ? undefined : `${name} must be a numeric id`;
  return NUMERIC_FIELDS.has(name) && !/^\d+(\.\d+)?$/.test(value) ? `${name} must be numeric` : undefined;
}

/** Integer fields of the create table; "square feet" is spelled with a space there. */
const CREATE_INTEGERS: Record<string, string> = {
  "square feet": "square_feet",
  square_feet: "square_feet",
  bedrooms: "bedrooms",
  baths: "baths",
  list_price: "list_price",
  stories: "stories",
  parking_spaces: "parking_spaces",
  year_built: "year_built",
};

/** The garage values of endpoint 3, case sensitive. */
export const GARAGE_VALUES = ["Attached", "Detached", "None"] as const;

/** The property types of endpoint 3, case sensitive. */
export const PROPERTY_TYPES = [
  "Single Family",
  "Duplex",
  "Triplex",
  "Quad-Plex",
  "Condo",
  "Co-op",
  "Mobile Home",
  "Multi Family",
  "Timeshare",
  "Town House",
  "Miscellaneous",
  "Residential Land",
] as const;

const REQUIRED = ["street", "city", "state", "zip"] as const;

/**
 * Stored values by 2.1 field name, or the reason the body was refused. `verbatim`: fields a defect keeps as sent,
 * without their documented representation; `numbers`: fields a defect answers as the JSON number it was sent.
 */
export type PropertyInput =
  | { ok: true; values: Map<string, string>; verbatim: Set<string>; numbers: Set<string> }
  | { ok: false; error: string };

function isObject(body: unknown): body is Record<string, unknown> {
  return typeof body === "object" && body !== null && !Array.isArray(body);
}

const compact = (value: string): string => value.replace(/\s+/g, "");
const loose = (value: string): string => value.toLowerCase().replace(/[^a-z0-9]/g, "");

function stateError(value: string, faults: Faults, onEdit = false): string | undefined {
  if (/^[A-Za-z]{2}$/.test(value)) return undefined;
  if (onEdit && faults.on("edit-accepts-3-char-state") && value.length === 3) return undefined;
  if (faults.on("accepts-3-char-state") && value.length === 3) return undefined;
  if (faults.on("accepts-1-char-state") && value.length === 1) return undefined;
  return "state must be a 2-character abbreviation";
}

/** Endpoint 3's garage value a create stores for what it was sent, or undefined when it refuses it. */
function garageOnCreate(value: string, faults: Faults): string | undefined {
  if ((GARAGE_VALUES as readonly string[]).includes(value)) return value;
  const listed = GARAGE_VALUES.find((g) => g.toLowerCase() === value.toLowerCase());
  // The lenient reading takes the kind in any case, stored as the listed one; the defect keeps it as sent.
  if (listed && faults.chooses("lenient-types")) return listed;
  if (listed && faults.on("accepts-lowercase-garage")) return value;
  return undefined;
}

/** Endpoint 3's property type a create stores for what it was sent, or undefined when it refuses it. */
function typeOnCreate(value: string, faults: Faults): string | undefined {
  if ((PROPERTY_TYPES as readonly string[]).includes(value)) return value;
  // The lenient reading takes the type in any case or compact form, stored as the listed one.
  const listed = PROPERTY_TYPES.find((t) => loose(t) === loose(value));
  if (listed && faults.chooses("lenient-types")) return listed;
  if (
    faults.on("accepts-lowercase-property-type") &&
    PROPERTY_TYPES.some((t) => t.toLowerCase() === value.toLowerCase())
  )
    return value;
  return undefined;
}

function templateOnCreateError(value: string, faults: Faults): string | undefined {
  if (CREATE_TEMPLATES.includes(value)) return undefined;
  // The lenient reading lets a create choose any template of the catalogue (2.4), syd and intra too.
  if (faults.chooses("lenient-types") && (CATALOGUE_NAMES as readonly string[]).includes(value)) return undefined;
  if (faults.on("template-case-kept") && CREATE_TEMPLATES.some((t) => t.toLowerCase() === value.toLowerCase()))
    return undefined;
  return `template "${value}" cannot be chosen on create`;
}

/** The crashes of the variants that break on a class of input (a bug, answered 500 by the HTTP layer). */
function crashes(name: string, value: string, faults: Faults): void {
  if (name === "street" && faults.on("crash-on-non-ascii-street") && /[^\u0000-\u007f]/.test(value))
    throw new Error("street is not ASCII");
  if (name === "city" && faults.on("crash-on-long-city") && [...value].length > 100)
    throw new Error("city overflows its column");
  if (name === "year_built" && faults.on("crash-on-negative-year-built") && /^-[0-9]/.test(value))
    throw new Error("year out of range");
}

/** A number whose text is the numeric string 2.1 writes (not 1e+21, not 5e-324): what the lenient reading stores. */
const numericText = (value: number): string | undefined =>
  /^-?[0-9]+(\.[0-9]+)?$/.test(String(value)) ? String(value) : undefined;

/**
 * A JSON number where the document gives a string: its text for the lenient reading and for the defect that
 * answers it back as a number (noted in `numbers`); anything else as given, for the caller to refuse.
 */
function asText(name: string, value: unknown, faults: Faults, numbers: Set<string>): unknown {
  if (typeof value !== "number") return value;
  if (faults.chooses("lenient-types")) return String(value);
  if (faults.on("number-for-string-kept-as-number") && numericText(value) !== undefined) {
    numbers.add(name);
    return String(value);
  }
  return value;
}

/** Endpoint 3: the required fields, the integer fields and the case-sensitive enums. */
export function readCreate(body: unknown, faults: Faults): PropertyInput {
  if (!isObject(body)) return { ok: false, error: "body must be a JSON object" };
  const values = new Map<string, string>();
  const verbatim = new Set<string>();
  const numbers = new Set<string>();
  for (const field of REQUIRED) {
    const value = asText(field, body[field], faults, numbers);
    const excused =
      (field === "zip" && faults.on("accepts-missing-zip")) ||
      (field === "street" && faults.on("accepts-missing-street"));
    if (value === undefined && excused) {
      // The defect stores the missing field as an empty string, where 2.1 answers null for an absent value.
      values.set(field, "");
      continue;
    }
    if (typeof value !== "string" || value.trim() === "") return { ok: false, error: `${field} is required` };
  }
  for (const [name, given] of Object.entries(body)) {
    const integerField = CREATE_INTEGERS[name];
    if (integerField !== undefined) {
      if (faults.on("crash-on-fraction-in-integer") && typeof given === "number" && !Number.isInteger(given))
        throw new Error(`cannot store ${given} in an integer column`);
      if (
        faults.on("crash-on-negative-year-built") &&
        integerField === "year_built" &&
        typeof given === "number" &&
        given < 0
      )
        throw new Error("year out of range");
      // The lenient reading takes a numeric string, and a number whose text is a numeric string, as that number.
      const lenient = faults.chooses("lenient-types")
        ? typeof given === "number"
          ? numericText(given)
          : typeof given === "string" && /^-?[0-9]+(\.[0-9]+)?$/.test(given)
            ? given
            : undefined
        : undefined;
      if (lenient !== undefined) {
        values.set(integerField, lenient);
        continue;
      }
      if (typeof given !== "number" || !Number.isInteger(given))
        return { ok: false, error: `${name} must be an integer` };
      values.set(integerField, String(given));
      continue;
    }
    if (!(SETTABLE_FIELDS as readonly string[]).includes(name)) continue; // unknown names are ignored
    const value = asText(name, given, faults, numbers);
    if (typeof value !== "string") return { ok: false, error: `${name} must be a string` };
    crashes(name, value, faults);
    let stored: string | undefined = value;
    if (name === "garage") stored = garageOnCreate(value, faults);
    if (name === "property_type") stored = typeOnCreate(value, faults);
    if (stored === undefined) return { ok: false, error: `${name} must be one of the documented values` };
    // The near-miss defects keep a value off the list as sent, shown without its documented representation.
    if (
      (name === "garage" && !(GARAGE_VALUES as readonly string[]).includes(stored)) ||
      (name === "property_type" && !(PROPERTY_TYPES as readonly string[]).includes(stored))
    )
      verbatim.add(name);
    const error =
      name === "state"
        ? stateError(value, faults)
        : name === "template"
          ? templateOnCreateError(value, faults)
          : numericError(name, value);
    if (error !== undefined) return { ok: false, error };
    values.set(name, stored);
  }
  if (faults.on("create-drops-year-built-and-parking")) {
    values.delete("year_built");
    values.delete("parking_spaces");
  }
  return { ok: true, values, verbatim, numbers };
}

const EDIT_IGNORED: Array<[Parameters<Faults["on"]>[0], string[]]> = [
  ["edit-drops-premise-and-country", ["premise", "country"]],
  ["edit-drops-listing-fields", ["listing_status", "intent", "lot_size_units", "mls_id"]],
  ["edit-drops-media-ids", ["main_image", "logo", "edit_access", "show_on_property"]],
];

/** Fields the create table types integer (4.1 endpoint 3), by their 2.1 names: an edit may send that integer too. */
const INTEGERS_ON_CREATE = new Set(Object.values(CREATE_INTEGERS));

/**
 * Endpoint 4: every value is a string (the document says so), or for a field the create table types integer,
 * that integer (unless edit-refuses-numbers); the lenient reading takes any number as its text. Values keep the
 * rules 2.1 gives the field; garage may also be a count and property_type its compact form, since that is what
 * retrieve shows. Names that are not settable fields of 2.1 (nid, uid, the structures, unknown names) are ignored.
 */
export function readEdit(body: unknown, faults: Faults): PropertyInput {
  if (!isObject(body)) return { ok: false, error: "body must be a JSON object" };
  const values = new Map<string, string>();
  const numbers = new Set<string>();
  for (const [given, sent] of Object.entries(body)) {
    const name = given === "square feet" ? "square_feet" : given;
    if (!(SETTABLE_FIELDS as readonly string[]).includes(name)) continue;
    // The lenient reading computes website_url (a derived field) and ignores what an edit sends for it.
    if (name === "website_url" && faults.chooses("lenient-types")) continue;
    const integer =
      typeof sent === "number" &&
      Number.isInteger(sent) &&
      INTEGERS_ON_CREATE.has(name) &&
      !faults.chooses("edit-refuses-numbers")
        ? String(sent)
        : sent;
    const value = faults.chooses("edit-refuses-numbers") ? sent : asText(name, integer, faults, numbers);
    if (typeof value !== "string") return { ok: false, error: `${given} must be a string on edit` };
    crashes(name, value, faults);
    const error =
      (REQUIRED as readonly string[]).includes(name) && value.trim() === ""
        ? `${name} cannot be emptied`
        : name === "state"
          ? stateError(value, faults, true)
          : name === "garage" && faults.chooses("edit-takes-retrieve-forms") && !/^\d+$/.test(value)
            ? "garage must be a count on edit"
            : name === "garage" && !(GARAGE_VALUES as readonly string[]).includes(value) && !/^\d+$/.test(value)
              ? "garage must be Attached, Detached, None or a count"
              : name === "property_type" &&
                  faults.chooses("edit-takes-retrieve-forms") &&
                  !PROPERTY_TYPES.some((t) => compact(t) === value)
                ? "property_type must be a compact type on edit"
                : name === "property_type" && !PROPERTY_TYPES.some((t) => t === value || compact(t) === value)
                  ? "property_type must be one of the documented types"
                  : name === "template" &&
                      !(CATALOGUE_NAMES as readonly string[]).includes(value) &&
                      !faults.on("edit-accepts-template-outside-catalogue")
                    ? `template "${value}" is not in the catalogue`
                    : numericError(name, value);
    if (error !== undefined) return { ok: false, error };
    values.set(name, value);
  }
  for (const [variant, fields] of EDIT_IGNORED) {
    if (faults.on(variant)) for (const field of fields) values.delete(field);
  }
  return { ok: true, values, verbatim: new Set(), numbers };
}
