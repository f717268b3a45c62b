import { Buffer } from "node:buffer";
import { closeSync, openSync, readSync } from "node:fs";
import { MAX_RECORD_DEPTH, recordFault, recordProblem, RecordRefused } from "../../../mock/store/record-fault.ts";
import { COLLECTIONS, type CollectionName, type Database } from "../../../mock/store/records.ts";
import { StateFileError } from "../../../mock/store/state-file-error.ts";

/** A state read from its lines, with its meta (unknown: the caller checks it) and the line it was on. */
export interface StateFromLines {
  state: Database;
  meta: unknown;
  metaLine: number;
}

/**
 * How a JSON Lines state begins: a collection's name and a record with members (a state in one JSON text holds
 * arrays there, or spans lines).
 */
const FIRST_LINE = /^\s*\{\s*"(?:accounts|properties|agents|documents|\$meta)"\s*:\s*\{\s*"/;

/** Bytes read at a time. */
const CHUNK_BYTES = 1024 * 1024;

/**
 * Reads a state file written as JSON Lines, or gives undefined when it is not one (its first line does not read
 * as a state's line: it is then parsed whole, as before). Each record is checked as it is read
 * (record-fault.ts): one the store cannot hold is refused with a {@link RecordRefused} naming `source` and its
 * line; a line that is not JSON, or not a state's, with a {@link StateFileError} naming them.
 */
export function readStateLines(path: string, source: string): StateFromLines | undefined {
  if (!FIRST_LINE.test(head(path))) return undefined;
  const state: Database = { accounts: [], properties: [], agents: [], documents: [] };
  let meta: unknown;
  let metaLine = 0;
  let number = 0;
  for (const line of fileLines(path)) {
    number += 1;
    if (line.trim() === "") continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      if (number === 1) return undefined;
      throw new StateFileError(`${source} line ${number} is not valid JSON: ${(error as Error).message}`);
    }
    const keys = value !== null && typeof value === "object" && !Array.isArray(value) ? Object.keys(value) : [];
    const key = keys[0];
    if (keys.length !== 1 || (key !== "$meta" && !(COLLECTIONS as readonly string[]).includes(key!))) {
      if (number === 1) return undefined;
      throw new StateFileError(`${source} line ${number} is not a line of a mock state: one member, a collection's name (${COLLECTIONS.join(", ")}) and one of its records, or "$meta".`);
    }
    const member = (value as Record<string, unknown>)[key!];
    if (key === "$meta") {
      meta = member;
      metaLine = number;
      continue;
    }
    const collection = key as CollectionName;
    const records = state[collection] as unknown[];
    const problem = recordProblem(collection, member, opensFewer(line, MAX_RECORD_DEPTH));
    if (problem !== undefined) throw new RecordRefused(`${source} line ${number}`, recordFault(collection, records.length, member, problem));
    records.push(member);
  }
  return number === 0 ? undefined : { state, meta, metaLine };
}

/**
 * Whether the line opens fewer than `levels` objects and arrays, counting brackets in texts too: then what it
 * holds nests less deep, and the walk of its nesting is skipped.
 */
function opensFewer(line: string, levels: number): boolean {
  let opened = 0;
  for (const bracket of ["{", "["]) for (let at = line.indexOf(bracket); at !== -1 && opened < levels; at = line.indexOf(bracket, at + 1)) opened += 1;
  return opened < levels;
}

/** The file's first bytes, enough for {@link FIRST_LINE}. */
function head(path: string): string {
  const fd = openSync(path, "r");
  try {
    const bytes = new Uint8Array(256);
    return new TextDecoder().decode(bytes.subarray(0, readSync(fd, bytes, 0, bytes.length, 0)));
  } finally {
    closeSync(fd);
  }
}

/**
 * A file's lines, read a chunk at a time. Each line is decoded on its own (a line end's byte is never part of
 * another character in UTF-8), so that one character beyond Latin-1 makes its own line a two-byte string, not
 * its whole chunk; the rest of a chunk is carried to the next.
 */
function* fileLines(path: string): Generator<string> {
  const fd = openSync(path, "r");
  try {
    let buffer = Buffer.allocUnsafe(CHUNK_BYTES);
    let held = 0;
    for (;;) {
      if (held === buffer.length) buffer = Buffer.concat([buffer, Buffer.allocUnsafe(buffer.length)]); // a line longer than the chunk
      const read = readSync(fd, buffer, held, buffer.length - held, null);
      const filled = held + read;
      let start = 0;
      for (let at = buffer.indexOf(LINE_END, 0); at !== -1 && at < filled; at = buffer.indexOf(LINE_END, start)) {
        yield buffer.toString("utf8", start, at);
        start = at + 1;
      }
      if (read === 0) {
        if (start < filled) yield buffer.toString("utf8", start, filled);
        break;
      }
      buffer.copy(buffer, 0, start, filled);
      held = filled - start;
    }
  } finally {
    closeSync(fd);
  }
}

const LINE_END = 0x0a;
