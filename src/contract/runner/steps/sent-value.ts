/**
 * Whether a value that comes back is the value a step sent, at the two tiers. The fact tier
 * holds only what every reasonable reading of the document shares: a number is the same number in any numeric
 * text, a URL the same URL after normalisation, a comma-separated list the same items, a phone number the same
 * digits, and a field a service may compute from others (a site address from the subdomain) anything the
 * schema allows. The text exactly as sent is our expectation, checked at the assumption tier.
 */
import { isDeepStrictEqual } from "node:util";
import { show, type Json } from "./step-support.ts";

/** How a field may come back and still hold the value sent. */
export type Sameness = "text" | "number" | "url" | "list" | "phone" | "computed";

/** The verdict on one field: the text sent, an equivalent text (fact holds, our reading does not), or another value. */
export type Verdict = "same" | "equivalent" | "different";

/** Property fields (section 2.1) compared otherwise than as text, and why. */
export const PROPERTY_SAMENESS: Readonly<Record<string, Sameness>> = {
  // "string (numeric)" and numeric ids: the number is the fact, its text ("1300000" or "1300000.00") is not.
  list_price: "number",
  square_feet: "number",
  stories: "number",
  bedrooms: "number",
  baths: "number",
  half_baths: "number",
  parking_spaces: "number",
  year_built: "number",
  main_image: "number",
  edit_access: "number",
  show_on_property: "number",
  logo: "number",
  // "Comma-separated list": the items are the fact, the spacing after each comma is not.
  amenities: "list",
  // The site's address: a service may compute it from subdomain or custom_domain (2.1 types it only as a URL;
  // 4.1 endpoint 4 does not say every field is writable).
  website_url: "computed",
};

/** Agent fields (section 2.2) compared otherwise than as text. */
export const AGENT_SAMENESS: Readonly<Record<string, Sameness>> = {
  website: "url",
  headshot_url: "url",
  agency_profile: "number",
  phone: "phone",
};

/** Document fields (section 2.3) compared otherwise than as text. */
export const DOCUMENT_SAMENESS: Readonly<Record<string, Sameness>> = { file_url: "url" };

/** A URL in a form that ignores what normalisers change: host case, default port, a trailing slash. */
export function normalUrl(value: unknown): string | undefined {
  if (typeof value !== "string") return undefined;
  try {
    const url = new URL(value);
    url.pathname = url.pathname.replace(/\/+$/, "");
    return url.href.replace(/\/+(?=$|[?#])/, "");
  } catch {
    return undefined;
  }
}

/** The verdict on one field that came back as `got` after `sent` was sent. */
export function compareSent(kind: Sameness, sent: unknown, got: unknown): Verdict {
  if (isDeepStrictEqual(sent, got)) return "same";
  switch (kind) {
    case "text":
      return "different";
    case "number":
      return typeof got === "string" && /^-?[0-9]+(\.[0-9]+)?$/.test(got) && Number(got) === Number(sent)
        ? "equivalent"
        : "different";
    case "url": {
      const a = normalUrl(sent);
      return a !== undefined && a === normalUrl(got) ? "equivalent" : "different";
    }
    case "list": {
      const items = (value: unknown) =>
        typeof value === "string"
          ? value
              .split(",")
              .map((item) => item.trim())
              .filter(Boolean)
          : undefined;
      return isDeepStrictEqual(items(sent), items(got)) && items(got) !== undefined ? "equivalent" : "different";
    }
    case "phone": {
      const digits = (value: unknown) => (typeof value === "string" ? value.replace(/[^0-9]/g, "") : undefined);
      return digits(got) !== undefined && digits(got) !== "" && digits(got) === digits(sent)
        ? "equivalent"
        : "different";
    }
    case "computed":
      return "equivalent";
  }
}

/**
 * The fields of an answer set against what was sent: differences that break a fact, and those that break only our
 * reading.
 */
export interface SentComparison {
  facts: string[];
  readings: string[];
}

/** Compares every field sent with the answer, by the table given (text for fields it does not name). */
export function compareFields(actual: Json, sent: Json, table: Readonly<Record<string, Sameness>>): SentComparison {
  const out: SentComparison = { facts: [], readings: [] };
  for (const [field, value] of Object.entries(sent)) {
    const kind = table[field] ?? "text";
    const verdict = compareSent(kind, value, actual[field]);
    if (verdict === "different") out.facts.push(`${field} is ${show(actual[field])}, expected ${show(value)}`);
    if (verdict === "equivalent") {
      out.readings.push(
        kind === "computed"
          ? `${field} is ${show(actual[field])}, sent ${show(value)} (a service may compute it)`
          : `${field} is ${show(actual[field])}, sent ${show(value)} (the same ` +
              `${kind === "list" ? "items" : kind === "phone" ? "digits" : kind}, in other text)`,
      );
    }
  }
  return out;
}
