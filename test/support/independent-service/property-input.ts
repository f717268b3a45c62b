/**
 * Reads the body of property create (section 4.1, endpoint 3) and edit (endpoint 4) into stored string
 * values, refusing what the document rules out. The near-miss variants each let one refused value through.
 */
import { CATALOGUE_NAMES, CREATE_TEMPLATES } from "./template-catalogue.ts";
import type { Faults } from "./variants.ts";

/** The scalar fields of 2.1 a client may set (everything but nid, uid and the nested structures). */
export const SETTABLE_FIELDS = [
  "street", "premise", "city", "state", "zip", "country", "title", "description", "amenities", "list_price",
  "display_price", "square_feet", "lot_size", "lot_size_units", "stories", "bedrooms", "baths", "half_baths",
  "garage", "parking_spaces", "listing_status", "property_type", "year_built", "subdomain", "custom_domain",
  "mls_id", "template", "api_author", "main_image", "edit_access", "show_on_property", "logo", "external_id",
  "skip_zlookup", "intent", "sns_id", "listtrack_property_id", "website_url",
] as const;

/** Fields 2.1 types as "string (numeric)" or as numeric ids. */
const NUMERIC_FIELDS = new Set([
  "list_price", "square_feet", "stories", "bedrooms", "baths", "half_baths", "year_built", "parking_spaces",
  "main_image", "edit_access", "show_on_property", "logo",
]);

/** Integer fields of the create table; "square feet" is spelled with a space there. */
const CREATE_INTEGERS: Record<string, string> = {
  "square feet": "square_feet", square_feet: "square_feet", bedrooms: "bedrooms", baths: "baths",
  list_price: "list_price", stories: "stories", parking_spaces: "parking_spaces", year_built: "year_built",
};

/** The garage values of endpoint 3, case sensitive. */
export const GARAGE_VALUES = ["Attached", "Detached", "None"] as const;

/** The property types of endpoint 3, case sensitive. */
export const PROPERTY_TYPES = [
  "Single Family", "Duplex", "Triplex", "Quad-Plex", "Condo", "Co-op", "Mobile Home", "Multi Family",
  "Timeshare", "Town House", "Miscellaneous", "Residential Land",
] as const;

const REQUIRED = ["street", "city", "state", "zip"] as const;

/** Stored values by 2.1 field name, or the reason the body was refused. */
export type PropertyInput = { ok: true; values: Map<string, string> } | { ok: false; error: string };

function isObject(body: unknown): body is Record<string, unknown> {
  return typeof body === "object" && body !== null && !Array.isArray(body);
}

const compact = (value: string): string => value.replace(/\s+/g, "");

function stateError(value: string, faults: Faults, onEdit = false): string | undefined {
  if (/^[A-Za-z]{2}$/.test(value)) return undefined;
  if (onEdit && faults.on("edit-accepts-3-char-state") && value.length === 3) return undefined;
  if (faults.on("accepts-3-char-state") && value.length === 3) return undefined;
  if (faults.on("accepts-1-char-state") && value.length === 1) return undefined;
  return "state must be a 2-character abbreviation";
}

function garageOnCreateError(value: string, faults: Faults): string | undefined {
  if ((GARAGE_VALUES as readonly string[]).includes(value)) return undefined;
  if (faults.on("accepts-lowercase-garage") && GARAGE_VALUES.some((g) => g.toLowerCase() === value.toLowerCase())) return undefined;
  return `garage must be one of ${GARAGE_VALUES.join(", ")}`;
}

function typeOnCreateError(value: string, faults: Faults): string | undefined {
  if ((PROPERTY_TYPES as readonly string[]).includes(value)) return undefined;
  if (faults.on("accepts-compact-property-type") && PROPERTY_TYPES.some((t) => compact(t) === value)) return undefined;
  if (faults.on("accepts-lowercase-property-type") && PROPERTY_TYPES.some((t) => t.toLowerCase() === value.toLowerCase())) return undefined;
  return "property_type must be one of the documented types";
}

function templateOnCreateError(value: string, faults: Faults): string | undefined {
  if (CREATE_TEMPLATES.includes(value)) return undefined;
  if (faults.on("accepts-template-syd") && value === "syd") return undefined;
  if (faults.on("accepts-template-intra") && value === "intra") return undefined;
  return `template "${value}" cannot be chosen on create`;
}

/** A JSON number where a string is documented, taken as its text by the variant that accepts one. */
function lenient(value: unknown, faults: Faults): unknown {
  return typeof value === "number" && faults.on("accepts-number-for-string") ? String(value) : value;
}

/** The crashes of the variants that break on a class of input (a bug, answered 500 by the HTTP layer). */
function crashes(name: string, value: string, faults: Faults): void {
  if (name === "street" && faults.on("crash-on-non-ascii-street") && /[^\u0000-\u007f]/.test(value)) throw new Error("street is not ASCII");
  if (name === "city" && faults.on("crash-on-long-city") && [...value].length > 100) throw new Error("city overflows its column");
}

/** Endpoint 3: the required fields, the integer fields and the case-sensitive enums. */
export function readCreate(body: unknown, faults: Faults): PropertyInput {
  if (!isObject(body)) return { ok: false, error: "body must be a JSON object" };
  const values = new Map<string, string>();
  for (const field of REQUIRED) {
    const value = lenient(body[field], faults);
    const excused = (field === "zip" && faults.on("accepts-missing-zip")) || (field === "street" && faults.on("accepts-missing-street"));
    if (value === undefined && excused) continue;
    if (typeof value !== "string" || value.trim() === "") return { ok: false, error: `${field} is required` };
  }
  for (const [name, given] of Object.entries(body)) {
    const integerField = CREATE_INTEGERS[name];
    if (integerField !== undefined) {
      if (faults.on("crash-on-fraction-in-integer") && typeof given === "number" && !Number.isInteger(given)) throw new Error(`cannot store ${given} in an integer column`);
      if (typeof given !== "number" || !Number.isInteger(given)) return { ok: false, error: `${name} must be an integer` };
      if (faults.on("crash-on-negative-year-built") && integerField === "year_built" && given < 0) throw new Error("year out of range");
      values.set(integerField, String(given));
      continue;
    }
    if (!(SETTABLE_FIELDS as readonly string[]).includes(name)) continue; // unknown names are ignored
    const value = lenient(given, faults);
    if (typeof value !== "string") return { ok: false, error: `${name} must be a string` };
    crashes(name, value, faults);
    const error =
      name === "state" ? stateError(value, faults)
      : name === "garage" ? garageOnCreateError(value, faults)
      : name === "property_type" ? typeOnCreateError(value, faults)
      : name === "template" ? templateOnCreateError(value, faults)
      : NUMERIC_FIELDS.has(name) && !/^\d+(\.\d+)?$/.test(value) ? `${name} must be numeric`
      : undefined;
    if (error !== undefined) return { ok: false, error };
    values.set(name, value);
  }
  if (faults.on("create-drops-year-built-and-parking")) {
    values.delete("year_built");
    values.delete("parking_spaces");
  }
  return { ok: true, values };
}

const EDIT_IGNORED: Array<[Parameters<Faults["on"]>[0], string[]]> = [
  ["edit-drops-premise-and-country", ["premise", "country"]],
  ["edit-drops-listing-fields", ["listing_status", "intent", "lot_size_units", "mls_id"]],
  ["edit-drops-media-ids", ["main_image", "logo", "edit_access", "show_on_property"]],
];

/**
 * Endpoint 4: every value is a string (the document says so). Values keep the rules 2.1 gives the field;
 * on edit, garage may also be a count and property_type its compact form, since that is what retrieve shows.
 */
export function readEdit(body: unknown, faults: Faults): PropertyInput {
  if (!isObject(body)) return { ok: false, error: "body must be a JSON object" };
  const values = new Map<string, string>();
  for (const [given, sent] of Object.entries(body)) {
    const name = given === "square feet" ? "square_feet" : given;
    if (!(SETTABLE_FIELDS as readonly string[]).includes(name)) continue;
    const value = lenient(sent, faults);
    if (typeof value !== "string") return { ok: false, error: `${given} must be a string on edit` };
    crashes(name, value, faults);
    const error =
      (REQUIRED as readonly string[]).includes(name) && value.trim() === "" ? `${name} cannot be emptied`
      : name === "state" ? stateError(value, faults, true)
      : name === "garage" && faults.chooses("edit-takes-retrieve-forms") && !/^\d+$/.test(value) ? "garage must be a count on edit"
      : name === "garage" && !(GARAGE_VALUES as readonly string[]).includes(value) && !/^\d+$/.test(value) ? "garage must be Attached, Detached, None or a count"
      : name === "property_type" && faults.chooses("edit-takes-retrieve-forms") && !PROPERTY_TYPES.some((t) => compact(t) === value) ? "property_type must be a compact type on edit"
      : name === "property_type" && !PROPERTY_TYPES.some((t) => t === value || compact(t) === value) ? "property_type must be one of the documented types"
      : name === "template" && !(CATALOGUE_NAMES as readonly string[]).includes(value) && !faults.on("edit-accepts-template-outside-catalogue") ? `template "${value}" is not in the catalogue`
      : NUMERIC_FIELDS.has(name) && !/^\d+(\.\d+)?$/.test(value) ? `${name} must be numeric`
      : undefined;
    if (error !== undefined) return { ok: false, error };
    values.set(name, value);
  }
  for (const [variant, fields] of EDIT_IGNORED) {
    if (faults.on(variant)) for (const field of fields) values.delete(field);
  }
  return { ok: true, values };
}
