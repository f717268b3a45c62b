import { existsSync, readFileSync } from "node:fs";
import { recordFault, recordProblem, RecordRefused, type RecordFault } from "../../../mock/store/record-fault.ts";
import { COLLECTIONS, type CollectionName } from "../../../mock/store/records.ts";
import type { StateChange } from "../../../mock/store/state-change.ts";
import { StateFileError } from "./state-files.ts";

/**
 * The journal's lines, one per change, each a JSON object ending in a newline:
 *
 * ```text
 * {"s":41,"m":{"id":2051,"uid":3,"tok":17},"put":"properties","r":{…the whole record…}}
 * {"s":42,"m":{"id":2051,"uid":3,"tok":17},"remove":"agents","id":1003}
 * {"s":43,"m":{"id":2051,"uid":3,"tok":17},"reset":true}
 * ```
 *
 * `s` is the change's sequence number (replay skips what the snapshot already holds), `m` the id sequences and
 * auto-login token count when the line was written.
 *
 * A snapshot without a meta of its own (a `db.json` a person wrote) has no auto-login secret: the mock draws one,
 * and the first write to the journal begins with it, `{"s":0,"secret":"…"}`, so that the tokens of the changes
 * after it stay valid across a restart; the next compaction puts it in the snapshot's meta.
 */
export interface JournalEntry {
  seq: number;
  sequences: LineSequences;
  change: StateChange;
}

/** The counters each line carries. */
export interface LineSequences {
  nextId: number;
  nextUid: number;
  tokensIssued: number;
}

/** The part of a line that says what changed, serialized when the change is made. */
export function changeText(change: StateChange): string {
  switch (change.kind) {
    case "put":
      return `"put":${JSON.stringify(change.collection)},"r":${JSON.stringify(change.record)}`;
    case "remove":
      return `"remove":${JSON.stringify(change.collection)},"id":${change.id}`;
    case "reset":
      return `"reset":true`;
  }
}

/** The counters' part of the lines of one write. */
export function sequencesText(sequences: LineSequences): string {
  return `{"id":${sequences.nextId},"uid":${sequences.nextUid},"tok":${sequences.tokensIssued}}`;
}

/** A whole line. */
export function journalLine(seq: number, sequences: string, change: string): string {
  return `{"s":${seq},"m":${sequences},${change}}\n`;
}

/** A journal file as read: its entries, and how many of its bytes hold them (a torn last line is not counted). */
export interface ReadJournal {
  entries: JournalEntry[];
  /** Bytes up to the end of the last whole line; anything after it is a torn line to cut off. */
  goodBytes: number;
  /** The torn last line was present (a crash in the middle of an append, never acknowledged). */
  torn: boolean;
  /** The auto-login secret a line gave, for a snapshot that has none. */
  secret?: string;
}

/** The line that gives a state without a meta its auto-login secret. */
export function secretLine(secret: string): string {
  return `{"s":0,"secret":${JSON.stringify(secret)}}\n`;
}

/**
 * Reads a journal. The last line may be torn (a crash in the middle of an append): it is ignored, since it was
 * never acknowledged. Any other line that is not an entry is refused with the file and the line; a whole line
 * that puts a record the store cannot hold (record-fault.ts), wherever it is, with a {@link RecordRefused}.
 */
export function readJournal(path: string): ReadJournal {
  if (!existsSync(path)) return { entries: [], goodBytes: 0, torn: false };
  const bytes = readFileSync(path);
  const entries: JournalEntry[] = [];
  let secret: string | undefined;
  let start = 0;
  let line = 1;
  while (start < bytes.length) {
    const end = bytes.indexOf(10, start);
    const last = end === -1 || end === bytes.length - 1;
    const text = bytes.toString("utf8", start, end === -1 ? bytes.length : end);
    const entry = end === -1 ? undefined : parseLine(text);
    // A line that parsed whole was not cut short: its record is refused, not ignored as a torn line.
    if (entry !== undefined && typeof entry === "object" && "problem" in entry)
      throw new RecordRefused(`${path} line ${line}`, entry);
    if (entry === undefined || typeof entry === "string") {
      // A line without its newline was cut short; a last line with one that does not parse was cut short by the disk.
      if (last) return { entries, goodBytes: start, torn: true, ...(secret ? { secret } : {}) };
      throw new StateFileError(
        `${path} line ${line}: ${entry ?? "not a journal entry"}; the journal is left as it is.`,
      );
    }
    if ("secret" in entry) secret = entry.secret;
    else entries.push(entry);
    start = end + 1;
    line += 1;
  }
  return { entries, goodBytes: start, torn: false, ...(secret ? { secret } : {}) };
}

/** An entry, or what is wrong with the line, or with the record it puts. */
function parseLine(text: string): JournalEntry | { secret: string } | string | RecordFault {
  let value: Record<string, unknown>;
  try {
    value = JSON.parse(text) as Record<string, unknown>;
  } catch (error) {
    return `not valid JSON (${(error as Error).message})`;
  }
  if (value === null || typeof value !== "object") return "not a journal entry";
  if (value.s === 0 && typeof value.secret === "string" && value.secret.length >= 32) return { secret: value.secret };
  const m = value.m as Record<string, unknown> | undefined;
  if (!isCount(value.s) || value.s === 0 || !m || !isCount(m.id) || !isCount(m.uid) || !isCount(m.tok)) {
    return 'not a journal entry (it needs "s" and "m")';
  }
  const sequences = { nextId: m.id, nextUid: m.uid, tokensIssued: m.tok };
  if (value.reset === true) return { seq: value.s, sequences, change: { kind: "reset" } };
  if (isCollection(value.put)) {
    const record = value.r as { id?: unknown } | null;
    if (record === null || typeof record !== "object" || Array.isArray(record) || !isCount(record.id))
      return `the record of "put" has no id`;
    const problem = recordProblem(value.put, record);
    if (problem !== undefined) return recordFault(value.put, undefined, record, problem);
    return {
      seq: value.s,
      sequences,
      change: { kind: "put", collection: value.put, record: record as { id: number } },
    };
  }
  if (isCollection(value.remove)) {
    if (!isCount(value.id)) return `"remove" has no id`;
    return { seq: value.s, sequences, change: { kind: "remove", collection: value.remove, id: value.id } };
  }
  return `it names no change ("put", "remove" or "reset" of ${COLLECTIONS.join(", ")})`;
}

function isCount(value: unknown): value is number {
  return Number.isSafeInteger(value) && (value as number) >= 0;
}

function isCollection(value: unknown): value is CollectionName {
  return typeof value === "string" && (COLLECTIONS as readonly string[]).includes(value);
}
