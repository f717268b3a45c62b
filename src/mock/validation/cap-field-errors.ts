import type { FieldError } from "../problems.ts";
import { clip } from "../clip.ts";

/** Errors listed in one answer; the rest are counted. */
export const MAX_LISTED_ERRORS = 50;
/** Longest pointer or message of one listed error, in characters: a key or value sent can be long. */
export const MAX_ERROR_TEXT = 300;

/** The errors an answer lists, and the sentence that says how many there were. */
export interface CappedFieldErrors {
  errors: FieldError[];
  detail: string;
}

/**
 * Bounds an error answer: the first {@link MAX_LISTED_ERRORS} errors, each pointer and message cut to
 * {@link MAX_ERROR_TEXT} characters, so the answer stays far below 64 KiB whatever was sent.
 *
 * @param subject what broke the rules: "The request breaks the contract", "The record breaks its stored shape".
 * @param atLeast the errors were found in a bounded copy of the body, so there may be more.
 */
export function capFieldErrors(all: readonly FieldError[], subject: string, atLeast = false): CappedFieldErrors {
  const errors = all.slice(0, MAX_LISTED_ERRORS).map((error) => ({
    ...error,
    pointer: clip(error.pointer, MAX_ERROR_TEXT),
    detail: clip(error.detail, MAX_ERROR_TEXT),
  }));
  const total = all.length;
  const count = `${atLeast ? "at least " : ""}${total} ${total === 1 ? "place" : "places"}`;
  const listed = total > errors.length ? `; the first ${errors.length} are listed` : "";
  return { errors, detail: `${subject} in ${count}${listed}.` };
}
