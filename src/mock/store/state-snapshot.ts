import { closeSync, existsSync, fsyncSync, openSync, writeSync } from "node:fs";
import { readTextFile } from "../read-text-file.ts";
import { open } from "node:fs/promises";
import { setImmediate as nextTurn } from "node:timers/promises";
import { propertySourceOf } from "./lazy-properties.ts";
import { scanStateFile, scannedDatabase, scannedMember } from "./read-scanned-state.ts";
import { firstRecordFault, RecordRefused } from "./record-fault.ts";
import { COLLECTIONS, type Database } from "./records.ts";
import { StateFileError } from "./state-files.ts";

/** What a snapshot keeps beside the records, under the key `$meta`. */
export interface StateMeta {
  /** The snapshot holds every change of the journal up to this sequence number (maybe some after it). */
  seq: number;
  /** The id sequences, so an id is never handed out twice, even after its record was removed. */
  nextId: number;
  nextUid: number;
  /** The secret auto-login tokens are signed with, and how many were issued. */
  autologin: { secret: string; issued: number };
}

/** Records serialized between two turns of the event loop while a snapshot is written in the background. */
const RECORDS_PER_TURN = 500;
/**
 * Characters of a chunk past which it is written before its turn's records are all in it: a text of more than
 * about 128 KiB is made in V8's large-object space, which only a full collection frees, and the chunks of a
 * snapshot of 100,000 properties (about 650 KiB each) piled up there to 130 MiB while it was written (issue 32).
 */
const CHUNK_CHARACTERS = 64 * 1024;

/** The snapshot's text, in chunks of a few hundred records: `{"$meta": …, "accounts": [one record per line …], …}`. */
function* snapshotChunks(state: Database, meta: () => StateMeta): Generator<string, string> {
  // The arrays of this moment: records added later are in the journal after `seq`, which replay adds again.
  // Properties held as text (lazy-properties.ts) are written from their texts, never built as objects.
  const collections = COLLECTIONS.map((name) => [name, name === "properties" ? (propertySourceOf(state) ?? state[name].slice()) : state[name].slice()] as const);
  let chunk = "{";
  for (const [name, records] of collections) {
    chunk += `\n  ${JSON.stringify(name)}: [`;
    let written = 0;
    const count = "count" in records ? records.count : records.length;
    for (let at = 0; at < count; at += 1) {
      const text = "count" in records ? oneLine(records.textAt(at)) : JSON.stringify(records[at]);
      if (text === undefined) continue;
      chunk += `${written === 0 ? "" : ","}\n    ${text}`;
      written += 1;
      if ((at + 1) % RECORDS_PER_TURN === 0 || chunk.length >= CHUNK_CHARACTERS) {
        yield chunk;
        chunk = "";
      }
    }
    chunk += written === 0 ? "]," : "\n  ],";
  }
  // The meta comes last, read once every record is written: its sequences then cover every id in the file.
  return `${chunk}\n  "$meta": ${JSON.stringify(meta())}\n}\n`;
}

/** A record's text on one line, as the snapshot writes each record (a text from a file may span lines). */
function oneLine(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  return text.includes("\n") || text.includes("\r") ? JSON.stringify(JSON.parse(text)) : text;
}

/**
 * Writes a snapshot to `path` and syncs it, a few hundred records per turn of the event loop so that a large
 * state does not hold up requests. `aborted` is asked between chunks; when it says yes the write stops and
 * resolves false. The caller renames the file into place.
 */
export async function writeSnapshot(path: string, state: Database, meta: () => StateMeta, aborted: () => boolean = () => false): Promise<boolean> {
  const file = await open(path, "w");
  try {
    const chunks = snapshotChunks(state, meta);
    for (;;) {
      const next = chunks.next();
      await file.write(next.value);
      if (next.done) break;
      await nextTurn();
      if (aborted()) return false;
    }
    await file.datasync();
    return true;
  } finally {
    await file.close();
  }
}

/** The same, all at once: at start-up, before the mock answers anything. */
export function writeSnapshotNow(path: string, state: Database, meta: StateMeta): void {
  const fd = openSync(path, "w");
  try {
    const chunks = snapshotChunks(state, () => meta);
    for (;;) {
      const next = chunks.next();
      writeSync(fd, next.value);
      if (next.done) break;
    }
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** A snapshot as read: the state, and its meta unless the file was written by an earlier version of the mock. */
export interface ReadSnapshot {
  state: Database;
  meta: StateMeta | undefined;
}

/**
 * Reads a snapshot, or undefined when there is none: scanned as a fixtures file is (its properties held as
 * text, issue 32), else parsed whole. A file that is not a state is refused with a message
 * naming the file and the line at fault; one holding a record the store cannot hold (record-fault.ts), with a
 * {@link RecordRefused} naming the record. The file is left as it is.
 */
export function readSnapshot(path: string): ReadSnapshot | undefined {
  if (!existsSync(path)) return undefined;
  const scanned = readScannedSnapshot(path);
  if (scanned) return scanned;
  const text = readTextFile(path);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    const message = (error as Error).message;
    const position = /at position ([0-9]+)/.exec(message);
    const line = position ? ` line ${lineAt(text, Number(position[1]))}:` : "";
    throw new StateFileError(`${path}${line} is not valid JSON: ${message}`);
  }
  assertDatabase(parsed, path);
  const fault = firstRecordFault(parsed);
  if (fault) throw new RecordRefused(path, fault);
  const { $meta, ...state } = parsed as Database & { $meta?: unknown };
  if ($meta !== undefined && !isMeta($meta)) {
    throw new StateFileError(`${path} line ${lineAt(text, text.lastIndexOf('"$meta"'))}: "$meta" is not the meta of a mock state.`);
  }
  return { state, meta: $meta };
}

/**
 * A snapshot scanned rather than parsed whole, as a fixtures file is (read-scanned-state.ts): its properties held
 * as text, each record bounded and checked as the scan goes (record-fault.ts). Undefined when the scan does not
 * take it, or its `$meta` is not right: it is then parsed whole, and refused with the line at fault.
 */
function readScannedSnapshot(path: string): ReadSnapshot | undefined {
  const scanned = scanStateFile(path);
  if (!scanned) return undefined;
  const meta = scannedMember(scanned, "$meta");
  if (meta !== undefined && !isMeta(meta)) return undefined;
  const state = scannedDatabase({ ...scanned, members: scanned.members.filter((member) => member.key !== "$meta") }, path);
  return state && { state, meta };
}

/** Throws unless the value has the four collections of a state. */
export function assertDatabase(value: unknown, source: string): asserts value is Database {
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new StateFileError(`${source} does not hold a mock state (an object with ${COLLECTIONS.join(", ")}).`);
  }
  for (const name of COLLECTIONS) {
    if (!Array.isArray((value as Record<string, unknown>)[name])) {
      throw new StateFileError(`${source} does not hold a mock state: "${name}" must be an array.`);
    }
  }
}

function isMeta(value: unknown): value is StateMeta {
  const meta = value as Partial<StateMeta> | null;
  return (
    typeof meta === "object" &&
    meta !== null &&
    [meta.seq, meta.nextId, meta.nextUid, meta.autologin?.issued].every((number) => Number.isSafeInteger(number) && number! >= 0) &&
    typeof meta.autologin?.secret === "string" &&
    meta.autologin.secret.length >= 32
  );
}

/** The 1-based line of a character position. */
export function lineAt(text: string, position: number): number {
  let line = 1;
  for (let at = text.indexOf("\n"); at !== -1 && at < position; at = text.indexOf("\n", at + 1)) line += 1;
  return line;
}
