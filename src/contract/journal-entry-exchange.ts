import type { HeaderBag } from "./build-contract.ts";

/** What `toSatisfyContract` reads of a request journal entry (`mock.requests()`, `GET /__admin/requests`). */
interface JournalEntryLike {
  method: string;
  path: string;
  query: Record<string, string | string[]>;
  headers: HeaderBag;
  body: unknown;
  bodyTruncated?: true;
  status: number | null;
  time: string;
  durationMs: number | null;
  /** An answer the entry carries besides its status, when a caller adds it: judged too. */
  response?: { status: number; headers?: HeaderBag; body?: unknown };
}

/** The exchange of one journal entry: the request it holds, and the answer when the entry carries it. */
export interface JournalExchange {
  request: { method: string; path: string; headers: HeaderBag; body?: unknown };
  response?: { status: number; headers?: HeaderBag; body?: unknown };
}

/**
 * A journal entry is the record of a request, with the status it was answered but not the answer: read as a
 * response, its `body` (the request's) would be judged against the answer's schema. It is told apart by the
 * fields only the journal writes (`time`, `durationMs`, `query`), so a plain `{ method, path, status, body }`
 * stays a response.
 */
export function isJournalEntry(value: Record<string, unknown>): value is Record<string, unknown> & JournalEntryLike {
  return (
    typeof value.method === "string" &&
    typeof value.path === "string" &&
    typeof value.time === "string" &&
    "durationMs" in value &&
    value.query !== null &&
    typeof value.query === "object" &&
    (value.status === null || typeof value.status === "number")
  );
}

/**
 * The request of a journal entry as the service received it: its path with its query again, its headers, and its
 * body (`null` in the journal means none was sent; a body the journal cut is left unjudged rather than judged cut).
 */
export function journalExchange(entry: JournalEntryLike): JournalExchange {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(entry.query)) {
    for (const one of Array.isArray(value) ? value : [value]) search.append(name, one);
  }
  const query = search.toString();
  const request: JournalExchange["request"] = {
    method: entry.method,
    path: query === "" ? entry.path : `${entry.path}?${query}`,
    headers: entry.headers,
  };
  if (entry.body !== null && !entry.bodyTruncated) request.body = entry.body;
  const exchange: JournalExchange = { request };
  if (entry.response && typeof entry.response === "object" && typeof entry.response.status === "number")
    exchange.response = entry.response;
  return exchange;
}
