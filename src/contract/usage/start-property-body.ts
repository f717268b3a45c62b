/**
 * The create body (section 4.1, endpoint 3) that makes on a service the property a test of a consumer's usage
 * started from, as the mock held it: every field endpoint 3 takes, from the record's answer form (section 2.1:
 * scalars as strings, the property type in its compact form) back to the create's types, so that the service
 * answers the fields the client read with values, not with the `null` of a field never set. A value that does not
 * convert is left out rather than guessed.
 */

import { CREATE_TEMPLATES, PROPERTY_TYPES, type Json } from "../runner/steps/step-support.ts";

/** Endpoint 3's property types (section 4.1), by their compact form of section 2.1 (spaces removed). */
const BY_COMPACT = new Map(PROPERTY_TYPES.map((type) => [type.replace(/ /g, ""), type]));
/** The templates endpoint 3 takes (section 4.1). */
const CREATABLE_TEMPLATES = new Set(CREATE_TEMPLATES);
/** Record fields answered as numeric strings, and the create field each comes from. */
const INTEGERS: Array<[record: string, create: string]> = [
  ["square_feet", "square feet"], ["bedrooms", "bedrooms"], ["baths", "baths"], ["list_price", "list_price"],
  ["stories", "stories"], ["parking_spaces", "parking_spaces"], ["year_built", "year_built"],
];

const text = (value: unknown): string | undefined => (typeof value === "string" && value.trim() !== "" ? value : undefined);

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
  for (const field of ["lot_size", "description"]) if (text(source?.[field]) !== undefined) body[field] = source![field];
  const type = typeof source?.property_type === "string" ? BY_COMPACT.get(source.property_type) : undefined;
  if (type) body.property_type = type;
  if (typeof source?.template === "string" && CREATABLE_TEMPLATES.has(source.template)) body.template = source.template;
  return body;
}
