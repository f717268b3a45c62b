import { isDeepStrictEqual } from "node:util";
import type { Exchange } from "../http-exchange.ts";

/** Where every path of the service starts (section 1). */
export const API = "/api/v1/object";

export type Json = Record<string, unknown>;

/** The values of the enums of endpoint 3 (section 4.1), case sensitive, in the document's order. */
export const GARAGE_KINDS = ["Attached", "Detached", "None"];
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
];
export const CREATE_TEMPLATES = [
  "mak",
  "kit",
  "mot",
  "lnd",
  "karr",
  "stak",
  "north",
  "icon",
  "lux",
  "ryne",
  "dax",
  "bren",
  "eko",
  "rubik_v2",
  "arlo",
  "pipeline",
  "cobi",
  "focal",
  "rubik",
  "air",
  "saren",
];

/** What every step of one run needs to name its records: unique per run, even when a run id is reused. */
export interface RunNames {
  /** `<run id>-<random>`: part of every email, external id and title the run creates. */
  tag: string;
}

/** The JSON object of a 200 answer, or undefined. */
export function record(exchange: Exchange | undefined): Json | undefined {
  return exchange?.status === 200 &&
    exchange.body !== null &&
    typeof exchange.body === "object" &&
    !Array.isArray(exchange.body)
    ? (exchange.body as Json)
    : undefined;
}

/** Whether an answer refused the request (any status but 2xx). */
export function refused(exchange: Exchange | undefined): boolean {
  return exchange !== undefined && (exchange.status < 200 || exchange.status >= 300);
}

/** A value for a message. */
export function show(value: unknown): string {
  return value === undefined ? "missing" : JSON.stringify(value);
}

/** Compares fields of an answer with what was sent; one line per difference. */
export function differences(
  actual: Json,
  expected: Json,
  compare: (field: string, sent: unknown, got: unknown) => boolean = (_field, sent, got) =>
    isDeepStrictEqual(sent, got),
): string[] {
  return Object.entries(expected)
    .filter(([field, sent]) => !compare(field, sent, actual[field]))
    .map(([field, sent]) => `${field} is ${show(actual[field])}, expected ${show(sent)}`);
}

/** Whether a value is a JSON string holding the number: "2150" for 2150 (section 2.1, numbers as strings). */
export function isNumericStringOf(value: unknown, number: number): boolean {
  return typeof value === "string" && /^-?[0-9]+(\.[0-9]+)?$/.test(value) && Number(value) === number;
}

/** The letters and digits of a value, lower-cased: `Single Family` and `SingleFamily` are the same type. */
export function compactKey(value: string): string {
  return value.toLowerCase().replace(/[^a-z0-9]/g, "");
}
