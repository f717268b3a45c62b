/**
 * What a request the document rules out did, once the service took it. No sentence of the
 * interface document says invalid input is refused (section 7 shows no error of these operations), so a refusal
 * is never required; what the service then stores and answers is documented. A taken request is judged by the
 * property a retrieve shows afterwards: every fact of 2.1 that the schema of the answer does not already state
 * must hold (the answer itself is held to the schema, which states the string scalars, the 2-character state and
 * the catalogue's template names), and how the field it broke was kept is reported at the assumption tier.
 */
import { isDeepStrictEqual } from "node:util";
import { resolvePointer } from "../../spec/json-pointer.ts";
import type { Contract } from "../create-contract.ts";
import { compactKey, isNumericStringOf, show, type Json } from "./steps/step-support.ts";

/** A documented fact a stored property breaks: the fact in words, the section stating it, and where it broke. */
export interface BrokenFact {
  fact: string;
  section: string;
  message: string;
}

/** The lists 2.1 holds stored values to, read from the contract (section 4.1's property types). */
export interface PropertyVocabulary {
  /** The compact keys of the property types of endpoint 3: a stored type is a compact form of one of them. */
  propertyTypes: ReadonlySet<string>;
}

/** Reads the property types from the contract (`#/components/schemas/PropertyType`), not from a copy of the list. */
export function propertyVocabulary(contract: Contract): PropertyVocabulary {
  const types = resolvePointer(contract.document, "/components/schemas/PropertyType/enum");
  return {
    propertyTypes: new Set(
      (Array.isArray(types) ? types : []).filter((value): value is string => typeof value === "string").map(compactKey),
    ),
  };
}

/** Fields section 2.1 lets be an empty string. */
const EMPTY_ALLOWED = new Set(["premise"]);

/** Fields whose value is a structure, not a scalar (section 2.1). */
const STRUCTURES = new Set(["open_houses", "virtual_tours", "property_videos", "floorplans"]);

/**
 * The facts of section 2.1 a retrieved property breaks that its schema does not state (the schema, held on the
 * retrieve, fails a garage that is no numeric string and a property type with a space): garage a count (digits
 * only, not "-1" or "1.5"), property_type a compact form of a type of endpoint 3's list (the schema's list is our
 * reading of the compact form, an assumption), and no empty string but in premise (absent values come back as null).
 * Fields the request set to `""` are left out of the last: the request named that value.
 */
export function brokenFacts(
  property: Json,
  vocabulary: PropertyVocabulary,
  sentEmpty: ReadonlySet<string> = new Set(),
): BrokenFact[] {
  const broken: BrokenFact[] = [];
  const { garage, property_type: type } = property;
  // What the schema already fails (a value that is no numeric string, a type with a space) is its finding, not one more
  // here.
  if (typeof garage === "string" && /^-?[0-9]+(\.[0-9]+)?$/.test(garage) && !/^[0-9]+$/.test(garage)) {
    broken.push({
      fact: "garage comes back as a count-like numeric string",
      section: "2.1",
      message: `garage is ${show(garage)}, not a count-like numeric string`,
    });
  }
  if (typeof type === "string" && !/ /.test(type) && !vocabulary.propertyTypes.has(compactKey(type))) {
    broken.push({
      fact: "property_type comes back in a compact form without spaces of a type of the list",
      section: "2.1",
      message: `property_type is ${show(type)}, not the compact form of a property type of endpoint 3 (section 4.1)`,
    });
  }
  const empty = Object.keys(property).filter(
    (field) => property[field] === "" && !EMPTY_ALLOWED.has(field) && !STRUCTURES.has(field) && !sentEmpty.has(field),
  );
  if (empty.length > 0) {
    broken.push({
      fact: "absent values come back as null",
      section: "2.1",
      message: `${empty.join(", ")} ${empty.length === 1 ? "is" : "are"} "", which section 2.1 allows for premise only`,
    });
  }
  return broken;
}

/**
 * How a taken request kept one field it sent, in words: the documented form of the value, nothing, or another value.
 */
export type Kept = "documented form" | "ignored" | "other value";

/**
 * How a field sent in a request the document rules out came back: in the documented form of what was sent (an
 * integer 3 as "3", a number in a free-text field as its text, the same text), ignored (the value before, or
 * null on a new property), or as another value.
 */
export function keptAs(sent: unknown, got: unknown, before: unknown): Kept {
  if (sent === undefined)
    return got === null || got === undefined || isDeepStrictEqual(got, before) ? "ignored" : "other value";
  if (typeof sent === "number" && isNumericStringOf(got, sent)) return "documented form";
  if (typeof sent === "number" && got === String(sent)) return "documented form";
  if (
    typeof sent === "string" &&
    typeof got === "string" &&
    sent.normalize("NFC").trim() === got.normalize("NFC").trim()
  )
    return "documented form";
  if (got === null || got === undefined || isDeepStrictEqual(got, before)) return "ignored";
  return "other value";
}

/** A sentence on how a taken request kept the field it broke, for the assumption-tier warning. */
export function describeKept(field: string, sent: unknown, got: unknown, before: unknown): string {
  const kept = keptAs(sent, got, before);
  const value = sent === undefined ? `without ${field}` : `${field} ${show(sent)}`;
  switch (kept) {
    case "documented form":
      return `taken, and ${value} stored in the documented form (${show(got)})`;
    case "ignored":
      return sent === undefined
        ? `taken ${value}, which comes back ${show(got)}`
        : `taken, and ${value} ignored (${field} is ${show(got)})`;
    case "other value":
      return `taken, and ${value} stored as ${show(got)}`;
  }
}
