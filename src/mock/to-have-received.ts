import type { JournalEntry } from "./services/request-journal.ts";

/**
 * What a test expects the mock to have received. Every field is optional and may be an asymmetric matcher
 * (`expect.objectContaining(...)`). `method`, `path`, `status` and `body` compare whole; `headers` and `query`
 * check only the names given (header names in any case).
 */
export interface ReceivedPattern {
  method?: unknown;
  path?: unknown;
  query?: unknown;
  headers?: unknown;
  body?: unknown;
  status?: unknown;
  fault?: unknown;
  /** `true` for a request a handler of the test's own answered instead of the mock (an MSW override). */
  overridden?: unknown;
}

/** `times`: how many requests must match exactly (by default, at least one). */
export interface ReceivedOptions {
  times?: number;
}

/** The part of vitest's matcher context the matcher uses. */
interface MatcherContext {
  isNot: boolean;
  equals(a: unknown, b: unknown): boolean;
  utils: {
    diff(a: unknown, b: unknown, options?: Record<string, unknown>): string | null | undefined;
    stringify(value: unknown): string;
  };
}

/** A mock (`mock.requests()`), the entries it returned, or the body of `GET /__admin/requests`. */
export type ReceivedSource = { requests(): JournalEntry[] } | JournalEntry[] | { requests: JournalEntry[] };

const SUBSET_FIELDS = new Set(["headers", "query"]);

/**
 * The matcher `expect(mock).toHaveReceived(pattern, { times })`, in the shape `expect.extend` takes. When it
 * fails it lists what was received and diffs the pattern against the closest request.
 */
export function toHaveReceived(
  this: MatcherContext,
  received: unknown,
  pattern: ReceivedPattern,
  options: ReceivedOptions = {},
) {
  const entries = entriesOf(received);
  const expected = normalizePattern(pattern);
  const keys = Object.keys(expected) as Array<keyof ReceivedPattern>;
  const matches = (entry: JournalEntry) =>
    keys.every((key) => this.equals(project(entry, key, expected[key]), expected[key]));
  const matching = entries.filter(matches);
  const pass = options.times === undefined ? matching.length > 0 : matching.length === options.times;
  const wanted =
    options.times === undefined ? "a request" : `exactly ${options.times} request${options.times === 1 ? "" : "s"}`;
  const shown = this.utils.stringify(expected).replace(/\n/g, "\n  ");

  return {
    pass,
    message: () => {
      if (this.isNot) {
        return (
          `expected the mock not to have received ${wanted} matching\n  ${shown}\nbut ${matching.length} ` +
          `did:\n${list(matching, entries)}`
        );
      }
      const lines = [
        `expected the mock to have received ${wanted} matching\n  ${shown}\nbut ${matching.length} of the ` +
          `${entries.length} received did.`,
      ];
      if (entries.length === 0)
        return `${lines[0]} The journal is empty: did the client call this mock, and was it reset since?`;
      lines.push(`Received, oldest first:\n${list(entries, entries)}`);
      const closest = closestEntry(entries, keys, (entry, key) =>
        this.equals(project(entry, key, expected[key]), expected[key]),
      );
      if (closest && matching.length === 0) {
        const actual = Object.fromEntries(keys.map((key) => [key, project(closest, key, expected[key])]));
        const diff = this.utils.diff(expected, actual, {
          aAnnotation: "Expected",
          bAnnotation: `Received (#${entries.indexOf(closest) + 1})`,
        });
        lines.push(`Closest, #${entries.indexOf(closest) + 1}:\n${diff ?? this.utils.stringify(actual)}`);
      }
      const unreported = entries.filter((entry) => entry.overridden && entry.status === null).length;
      if (unreported > 0)
        lines.push(
          `${unreported} overridden request${unreported === 1 ? " has" : "s have"} no status yet: in a page, MSW ` +
            "reports your handler's answer after the fetch resolves. `await mock.settled()` before this expect.",
        );
      return lines.join("\n\n");
    },
  };
}

function entriesOf(received: unknown): JournalEntry[] {
  if (Array.isArray(received)) return received as JournalEntry[];
  if (received !== null && typeof received === "object" && "requests" in received) {
    const requests = received.requests;
    if (typeof requests === "function") return (requests as () => JournalEntry[]).call(received);
    if (Array.isArray(requests)) return requests as JournalEntry[];
  }
  throw new TypeError(
    "toHaveReceived expects the mock (createMockServer), its requests(), or the body of GET /__admin/requests",
  );
}

/** Upper-cases a method and lower-cases header names given as plain values, as the journal holds them. */
function normalizePattern(pattern: ReceivedPattern): ReceivedPattern {
  const result: ReceivedPattern = { ...pattern };
  if (typeof result.method === "string") result.method = result.method.toUpperCase();
  if (isPlainObject(result.headers)) {
    result.headers = Object.fromEntries(
      Object.entries(result.headers).map(([name, value]) => [name.toLowerCase(), value]),
    );
  }
  return result;
}

/** The entry's field as compared: for headers and query given as a plain object, only the names given. */
function project(entry: JournalEntry, key: keyof ReceivedPattern, expected: unknown): unknown {
  const value = entry[key];
  if (!SUBSET_FIELDS.has(key) || !isPlainObject(expected) || !isPlainObject(value)) return value;
  return Object.fromEntries(
    Object.keys(expected)
      .filter((name) => Object.hasOwn(value, name))
      .map((name) => [name, value[name]]),
  );
}

function closestEntry(
  entries: JournalEntry[],
  keys: Array<keyof ReceivedPattern>,
  same: (entry: JournalEntry, key: keyof ReceivedPattern) => boolean,
) {
  let best: JournalEntry | undefined;
  let bestScore = -1;
  for (const entry of entries) {
    // Method and path weigh most: the request the test meant is the one to the same place.
    const score = keys.reduce(
      (sum, key) => sum + (same(entry, key) ? (key === "path" || key === "method" ? 10 : 1) : 0),
      0,
    );
    if (score >= bestScore) {
      best = entry;
      bestScore = score;
    }
  }
  return best;
}

function list(shown: JournalEntry[], all: JournalEntry[]): string {
  const limit = 20;
  const lines = shown.slice(-limit).map((entry) => {
    const body =
      entry.body === null ? "" : `  ${clip(typeof entry.body === "string" ? entry.body : JSON.stringify(entry.body))}`;
    return (
      `  #${all.indexOf(entry) + 1} ${entry.method} ${entry.path} → ` +
      `${entry.status ?? "no answer"}${entry.overridden ? " (overridden)" : ""}${body}`
    );
  });
  if (shown.length > limit) lines.unshift(`  … ${shown.length - limit} earlier not shown`);
  return lines.join("\n");
}

function clip(text: string): string {
  return text.length > 120 ? `${text.slice(0, 120)}…` : text;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}
