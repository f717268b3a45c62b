/** The rules of the interface document a generated invalid case can break, one at a time. */
export const BROKEN_RULES = {
  "missing-required": "a required field is missing",
  "wrong-type": "a field of another JSON type than the document gives",
  fraction: "a fraction where an integer is documented",
  "outside-enum": "a value outside the documented list",
  length: "a state that is not 2 characters",
  "not-numeric": "a value a retrieve could not show as the numeric string section 2.1 gives the field",
  "path-not-integer": "a path parameter that is not an integer",
} as const;

export type BrokenRule = keyof typeof BROKEN_RULES;

/** One generated request: valid (the document allows it) or breaking one documented rule. */
export interface FuzzCase {
  operation: string;
  /** The path parameters, as sent (not yet encoded). */
  params: Record<string, string>;
  body?: Record<string, unknown>;
  /** Set on an invalid case: which rule it breaks, on which field, and the section that states the rule. */
  broken?: { rule: BrokenRule; field: string; section: string };
}

/** What a case is, for a message: `valid` or `invalid (a fraction where an integer is documented: year_built)`. */
export function describeCase(fuzzCase: FuzzCase): string {
  return fuzzCase.broken ? `invalid: ${BROKEN_RULES[fuzzCase.broken.rule]} (${fuzzCase.broken.field})` : "valid";
}
