import { isJsonMediaType } from "../../contract/build-contract.ts";
import type { AppliedRule } from "./fault-rules.ts";
import type { Preferences } from "./parse-prefer.ts";

const text = new TextDecoder("utf-8");

/** What the mock did to a request on purpose: the fault rule, the `Prefer` header, `--latency`. */
export interface AppliedFaults {
  rule?: AppliedRule;
  prefer?: Preferences;
  /** Milliseconds of `--latency` drawn for this request. */
  latency?: number;
  /** While a service's answers are served: `service` answered it, or it was `not-covered` and the mock answered. */
  answers?: "service" | "not-covered";
}

/**
 * An answer as the journal keeps it: the reply itself (kept by reference: nobody changes a reply once sent), with
 * its content-type, the headers the mock set, and its body as sent (encoded JSON bytes, a text) or as the value
 * it was built from (a problem, small: its fields are capped); a body longer than the cap is kept as the bytes of
 * its start.
 */
export interface JournalAnswer {
  contentType: string;
  /** The content-type header as sent, where it is not the content-type's own (a service profile's). */
  mediaType?: string | undefined;
  headers?: Record<string, string> | undefined;
  body: unknown;
}

/** A journaled call as its readers see it (the console's live journal): read-only, read at once, never kept. */
export interface JournaledCall {
  /** Numbers the calls in arrival order, from 1, across clears. */
  readonly id: number;
  readonly method: string;
  readonly url: string;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly bytes: Uint8Array | undefined;
  readonly bodySize: number;
  readonly contentType: string | undefined;
  readonly arrived: number;
  readonly status: number | null;
  readonly durationMs: number | null;
  readonly applied: AppliedFaults | null;
  readonly operationId: string | undefined;
  readonly uid: number | undefined;
  readonly answered: JournalAnswer | undefined;
  /** Set when the answer's body was longer than the journal keeps: `answered.body` is then the bytes of its start. */
  readonly answerSize: number | undefined;
  /** Answered by a test's own MSW handler, not by the mock. */
  readonly overridden: boolean;
}

/** One API request as the journal shows it (WireMock's request journal is the model). */
export interface JournalEntry {
  method: string;
  /** The path without the query. */
  path: string;
  query: Record<string, string | string[]>;
  /** Lower-case names, as Node reads them (repeated headers joined by Node's rules). */
  headers: Record<string, string | string[]>;
  /** The parsed JSON of a JSON body, else its text; `null` without a body or when the mock did not read it. */
  body: unknown;
  /** Set when the body was longer than {@link MAX_JOURNAL_BODY_BYTES}: `body` is then the text of its start. */
  bodyTruncated?: true;
  /** The size of a truncated body, in bytes. */
  bodySize?: number;
  /**
   * The status answered; `null` while the answer is pending, or when there was none (a dropped connection, a client
   * that left).
   */
  status: number | null;
  /** When the request arrived (ISO 8601). */
  time: string;
  /** From arrival to the end of the answer; `null` while pending. */
  durationMs: number | null;
  /** What the mock did to this request on purpose, or `null`. */
  fault: AppliedFaults | null;
  /**
   * Set when a handler of the test's own answered the request instead of the mock (an MSW override,
   * `server.use(http.get(...))`, seen by `mock.observe(server)`): `status` is then what that handler answered,
   * `null` in a page until MSW's worker has reported it (`await mock.settled()`).
   */
  overridden?: true;
}

/** A journaled call as `requests()` and `GET /__admin/requests` show it: the path and query apart, the body parsed. */
export function journalEntryOf(slot: JournaledCall, path: string, query: string): JournalEntry {
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(slot.headers)) {
    if (value !== undefined)
      Object.defineProperty(headers, name, { value, enumerable: true, writable: true, configurable: true });
  }
  const entry: JournalEntry = {
    method: slot.method,
    path,
    query: parseQuery(query),
    headers,
    body: null,
    status: slot.status,
    time: new Date(slot.arrived).toISOString(),
    durationMs: slot.durationMs,
    fault: slot.applied === null ? null : structuredClone(slot.applied),
  };
  if (slot.overridden) entry.overridden = true;
  if (slot.bytes !== undefined && slot.bytes.length > 0) {
    const body = text.decode(slot.bytes);
    if (slot.bodySize > slot.bytes.length) {
      entry.body = body;
      entry.bodyTruncated = true;
      entry.bodySize = slot.bodySize;
    } else {
      entry.body = isJsonMediaType(slot.contentType) ? parseOrText(body) : body;
    }
  }
  return entry;
}

function parseOrText(body: string): unknown {
  try {
    return JSON.parse(body) as unknown;
  } catch {
    return body;
  }
}

/** The query as an object; a repeated name gives an array. Names such as `__proto__` stay plain fields. */
function parseQuery(query: string): Record<string, string | string[]> {
  const result: Record<string, string | string[]> = {};
  if (query === "") return result;
  for (const [name, value] of new URLSearchParams(query)) {
    const existing = Object.hasOwn(result, name) ? result[name] : undefined;
    if (Array.isArray(existing)) existing.push(value);
    else
      Object.defineProperty(result, name, {
        value: existing === undefined ? value : [existing, value],
        enumerable: true,
        writable: true,
        configurable: true,
      });
  }
  return result;
}
