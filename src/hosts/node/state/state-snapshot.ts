import { closeSync, existsSync, fsyncSync, openSync, readFileSync, writeSync } from "node:fs";
import { open } from "node:fs/promises";
import { setImmediate as nextTurn } from "node:timers/promises";
import { firstRecordFault, RecordRefused } from "../../../mock/store/record-fault.ts";
import { COLLECTIONS, type Database } from "../../../mock/store/records.ts";
import { StateFileError } from "./state-files.ts";
import { stateLine } from "../../../mock/store/state-lines.ts";
import { readStateLines } from "./read-state-lines.ts";
import type { StateMeta } from "../../../mock/store/state-persistence.ts";

/** Records written between two turns of the event loop while a snapshot is written in the background. */
const RECORDS_PER_TURN = 500;

/**
 * The snapshot's text in JSON Lines (state-lines.ts), a few hundred records a chunk, its meta last: read once
 * every record is written, its sequences then cover every id in the file.
 */
function* snapshotChunks(state: Database, meta: () => StateMeta): Generator<string, string> {
  // The arrays of this moment: records added later are in the journal after `seq`, which replay adds again.
  const collections = COLLECTIONS.map((name) => [name, state[name].slice()] as const);
  let chunk = "";
  let written = 0;
  for (const [name, records] of collections) {
    for (const record of records) {
      chunk += stateLine(name, record);
      if (++written % RECORDS_PER_TURN === 0) {
        yield chunk;
        chunk = "";
      }
    }
  }
  return chunk + stateLine("$meta", meta());
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
 * Reads a snapshot, or undefined when there is none: line by line when it is in JSON Lines (as the mock writes
 * it), else parsed whole (as an earlier version wrote it). A file that is not a state is refused with a message
 * naming the file and the line at fault; one holding a record the store cannot hold (record-fault.ts), with a
 * {@link RecordRefused} naming the record. The file is left as it is.
 */
export function readSnapshot(path: string): ReadSnapshot | undefined {
  if (!existsSync(path)) return undefined;
  const lines = readStateLines(path, path);
  if (lines) {
    if (lines.meta !== undefined && !isMeta(lines.meta)) throw new StateFileError(`${path} line ${lines.metaLine}: "$meta" is not the meta of a mock state.`);
    return { state: lines.state, meta: lines.meta as StateMeta | undefined };
  }
  const text = readFileSync(path).toString("utf8");
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
