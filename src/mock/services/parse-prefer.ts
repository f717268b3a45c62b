import { failure, success, type Outcome } from "../problems.ts";
import { MAX_DELAY_MS } from "./delay-limit.ts";

/** What a `Prefer` header asks of the mock. */
export interface Preferences {
  /** Answer this status instead of running the operation (`Prefer: code=503`). */
  code?: number;
  /** Wait this many milliseconds before answering (`Prefer: delay=250`). */
  delay?: number;
}

/**
 * Reads the mock's preferences from a `Prefer` header (RFC 7240), the way Prism reads them
 * (`@stoplight/prism-http-server`, `getHttpConfigFromRequest`, with `parse-prefer-header`): preferences are
 * separated by commas outside quotes, each is `name[=value]` followed by `;`-parameters that are ignored, names
 * are case-insensitive, values may be quoted, and the first of a repeated preference counts (RFC 7240 §2).
 * Preferences the mock does not know (`return=minimal`, Prism's `example` and `dynamic`) are ignored, as §2
 * asks. A known preference with a value the mock cannot honour is a failure, not silently ignored: a test that
 * asks for `code=5o3` must hear that it got nothing.
 *
 * `code` is three digits, as in Prism, from 200 to 599 (a 1xx cannot end an exchange); `delay` is Prism's
 * missing piece, whole milliseconds up to {@link MAX_DELAY_MS}.
 */
export function parsePrefer(header: string | string[] | undefined): Outcome<Preferences> {
  if (header === undefined) return success({});
  const text = Array.isArray(header) ? header.join(",") : header;
  const preferences: Preferences = {};
  const seen = new Set<string>();
  for (const preference of splitOutsideQuotes(text, ",")) {
    const [head = ""] = splitOutsideQuotes(preference, ";");
    const equals = head.indexOf("=");
    const name = (equals < 0 ? head : head.slice(0, equals)).trim().toLowerCase();
    if ((name !== "code" && name !== "delay") || seen.has(name)) continue;
    seen.add(name);
    const value = unquote(equals < 0 ? "" : head.slice(equals + 1).trim());
    if (name === "code") {
      if (!/^[0-9]{3}$/.test(value) || Number(value) < 200 || Number(value) > 599) {
        return invalid(`Prefer: code must be a status from 200 to 599, got "${clip(value)}".`);
      }
      preferences.code = Number(value);
    } else {
      if (!/^[0-9]{1,6}$/.test(value) || Number(value) > MAX_DELAY_MS) {
        return invalid(`Prefer: delay must be whole milliseconds from 0 to ${MAX_DELAY_MS}, got "${clip(value)}".`);
      }
      preferences.delay = Number(value);
    }
  }
  return success(preferences);
}

/** The `Preference-Applied` header (RFC 7240 §3) naming what the mock honoured, or undefined when nothing. */
export function preferenceApplied(preferences: Preferences): string | undefined {
  const applied: string[] = [];
  if (preferences.code !== undefined) applied.push(`code=${preferences.code}`);
  if (preferences.delay !== undefined) applied.push(`delay=${preferences.delay}`);
  return applied.length === 0 ? undefined : applied.join(", ");
}

function invalid(detail: string): Outcome<never> {
  return failure("invalidPreference", detail, [{ in: "header", pointer: "/prefer", detail }]);
}

function splitOutsideQuotes(text: string, separator: string): string[] {
  const parts: string[] = [];
  let start = 0;
  let quoted = false;
  for (let index = 0; index < text.length; index++) {
    const char = text[index];
    if (char === '"') quoted = !quoted;
    else if (char === separator && !quoted) {
      parts.push(text.slice(start, index));
      start = index + 1;
    }
  }
  parts.push(text.slice(start));
  return parts;
}

function unquote(value: string): string {
  return value.length >= 2 && value.startsWith('"') && value.endsWith('"') ? value.slice(1, -1) : value;
}

/** A value as quoted in a message: a header can be 16 KiB, a message should not. */
function clip(value: string): string {
  return value.length > 40 ? `${value.slice(0, 40)}…` : value;
}
