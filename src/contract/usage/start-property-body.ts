/**
 * The bodies that make on a service the property a test of a consumer's usage started from, as the mock held it:
 * endpoint 3's (section 4.1) with every field it takes, from the record's answer form (section 2.1: scalars as
 * strings, the property type in its compact form) back to the create's types; then endpoint 4's with the fields
 * create cannot take, each as the string the record held. So the service answers the fields the client read with
 * values, not with the `null` of a field never set. A value that does not convert is left out rather than guessed.
 */

import { CREATE_TEMPLATES, PROPERTY_TYPES, type Json } from "../runner/steps/step-support.ts";

/** Endpoint 3's property types (section 4.1), by their compact form of section 2.1 (spaces removed). */
const BY_COMPACT = new Map(PROPERTY_TYPES.map((type) => [type.replace(/ /g, ""), type]));
/** The templates endpoint 3 takes (section 4.1). */
const CREATABLE_TEMPLATES = new Set(CREATE_TEMPLATES);
/** Record fields answered as numeric strings, and the create field each comes from. */
const INTEGERS: Array<[record: string, create: string]> = [
  ["square_feet", "square feet"],
  ["bedrooms", "bedrooms"],
  ["baths", "baths"],
  ["list_price", "list_price"],
  ["stories", "stories"],
  ["parking_spaces", "parking_spaces"],
  ["year_built", "year_built"],
];

const text = (value: unknown): string | undefined =>
  typeof value === "string" && value.trim() !== "" ? value : undefined;

/**
 * The fields of section 2.1 that endpoint 3 does not take and endpoint 4 sets, each a string (a service that
 * makes `website_url` from the subdomain may ignore it). Left out: `external_id`, which a client sets to find
 * the record again and the replay makes unique itself. The subdomain is made unique to the run.
 */
const EDIT_ONLY = [
  "premise",
  "country",
  "title",
  "amenities",
  "display_price",
  "lot_size_units",
  "half_baths",
  "listing_status",
  "mls_id",
  "custom_domain",
  "api_author",
  "main_image",
  "edit_access",
  "show_on_property",
  "logo",
  "skip_zlookup",
  "intent",
  "sns_id",
  "listtrack_property_id",
  "website_url",
] as const;
/** Fields endpoint 4 takes only as numeric strings (section 4.1's edit, the contract's `PropertyEdit`). */
const NUMERIC_EDIT = new Set(["half_baths", "main_image", "edit_access", "show_on_property", "logo"]);

/** Endpoint 3's body for a start property. */
export function startPropertyBody(source: Json | undefined): Json {
  const body: Json = {
    street: text(source?.street) ?? "1 Replay Way",
    city: text(source?.city) ?? "Austin",
    state: typeof source?.state === "string" && /^[A-Z]{2}$/.test(source.state) ? source.state : "TX",
    zip: text(source?.zip) ?? "78701",
  };
  for (const [field, create] of INTEGERS) {
    const value = source?.[field];
    if (typeof value === "string" && /^-?[0-9]{1,15}$/.test(value)) body[create] = Number(value);
  }
  for (const field of ["lot_size", "description"])
    if (text(source?.[field]) !== undefined) body[field] = source![field];
  const type = typeof source?.property_type === "string" ? BY_COMPACT.get(source.property_type) : undefined;
  if (type) body.property_type = type;
  if (typeof source?.template === "string" && CREATABLE_TEMPLATES.has(source.template)) body.template = source.template;
  return body;
}

/**
 * Endpoint 4's body that gives a start property, once created, the fields create cannot take, as the mock held
 * them (a garage as its count); `undefined` when the record set none of them.
 */
export function startPropertyEdit(source: Json | undefined, tag: string): Json | undefined {
  const body: Json = {};
  if (typeof source?.subdomain === "string" && source.subdomain !== "") {
    const subdomain = `${source.subdomain}-${tag}`
      .toLowerCase()
      .replace(/[^a-z0-9-]+/g, "-")
      .replace(/^-+|-+$/g, "");
    if (subdomain !== "") body.subdomain = subdomain;
  }
  for (const field of EDIT_ONLY) {
    const value = source?.[field];
    if (typeof value !== "string") continue;
    if (NUMERIC_EDIT.has(field) && !/^[0-9]{1,15}$/.test(value)) continue;
    body[field] = value;
  }
  if (typeof source?.garage === "string" && /^[0-9]{1,15}$/.test(source.garage)) body.garage = source.garage;
  return Object.keys(body).length > 0 ? body : undefined;
}
