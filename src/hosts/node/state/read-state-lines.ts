import { crc32 } from "node:zlib";
import { MAX_RECORD_DEPTH, recordFault, recordProblem, RecordRefused } from "../../../mock/store/record-fault.ts";
import { COLLECTIONS, type CollectionName, type Database } from "../../../mock/store/records.ts";
import { StateFileError } from "../../../mock/store/state-file-error.ts";
import { isTrailer, type StateTrailer } from "../../../mock/store/state-lines.ts";
import { fileHead, fileLines } from "./file-lines.ts";

/** A state read from its lines, with its meta (unknown: the caller checks it) and the line it was on. */
export interface StateFromLines {
  state: Database;
  /** The `$meta` line's value, trailer fields included; undefined when the file has none. */
  meta: unknown;
  metaLine: number;
  /** The `$meta` line was the file's last line (blank lines aside). */
  metaLast: boolean;
  /** The `$meta` line carried the counts and checksum of a trailer, and they were checked. */
  sealed: boolean;
  /** The number of the file's last line. */
  lines: number;
}

/**
 * How a JSON Lines state begins: a collection's name and a record with members (a state in one JSON text holds
 * arrays there, or spans lines).
 */
const FIRST_LINE = /^\s*\{\s*"(?:accounts|properties|agents|documents|\$meta)"\s*:\s*\{\s*"/;

/** Whether a file's first line reads as a line of a JSON Lines state. */
export function looksLikeStateLines(path: string): boolean {
  return FIRST_LINE.test(fileHead(path));
}

/**
 * Reads a state file written as JSON Lines, or gives undefined when it is not one (its first line does not read
 * as a state's line: it is then read as one JSON text). Each record is checked as it is read (record-fault.ts):
 * one the store cannot hold is refused with a {@link RecordRefused} naming `source` and its line; a line that is
 * not JSON, or not a state's, with a {@link StateFileError} naming them. A `$meta` line that carries a trailer
 * (state-lines.ts) is checked: it must be the last line, and the records and bytes before it must be the ones it
 * counts; the caller decides whether a file without one is whole.
 */
export function readStateLines(path: string, source: string): StateFromLines | undefined {
  if (!looksLikeStateLines(path)) return undefined;
  const state: Database = { accounts: [], properties: [], agents: [], documents: [] };
  let meta: unknown;
  let metaLine = 0;
  let number = 0;
  let lastFilled = 0;
  // The checksum of every byte before the line at hand, as the writer took it (the `$meta` line's own are not in it).
  let checksum = 0;
  let through = 0;
  for (const line of fileLines(path, (bytes) => {
    checksum = through;
    through = crc32(bytes, through);
  })) {
    number += 1;
    if (line.trim() === "") continue;
    lastFilled = number;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      if (number === 1) return undefined;
      throw new StateFileError(
        `${source} line ${number} is not valid JSON (${(error as Error).message}): ` +
          "the file is cut short or damaged, and is left as it is.",
      );
    }
    const keys = value !== null && typeof value === "object" && !Array.isArray(value) ? Object.keys(value) : [];
    const key = keys[0];
    if (keys.length !== 1 || (key !== "$meta" && !(COLLECTIONS as readonly string[]).includes(key!))) {
      if (number === 1) return undefined;
      throw new StateFileError(
        `${source} line ${number} is not a line of a mock state: ` +
          `one member, a collection's name (${COLLECTIONS.join(", ")}) and one of its records, or "$meta".`,
      );
    }
    const member = (value as Record<string, unknown>)[key!];
    if (meta !== undefined && isTrailer(meta)) {
      throw new StateFileError(
        `${source} line ${number} follows the state's last line ("$meta", line ${metaLine}): ` +
          "the file is damaged, and is left as it is.",
      );
    }
    if (key === "$meta") {
      meta = member;
      metaLine = number;
      if (isTrailer(member)) checkTrailer(source, number, member, state, checksum);
      continue;
    }
    const collection = key as CollectionName;
    const records = state[collection] as unknown[];
    const problem = recordProblem(collection, member, opensFewer(line, MAX_RECORD_DEPTH));
    if (problem !== undefined)
      throw new RecordRefused(`${source} line ${number}`, recordFault(collection, records.length, member, problem));
    records.push(member);
  }
  if (number === 0) return undefined;
  return {
    state,
    meta,
    metaLine,
    metaLast: meta !== undefined && metaLine === lastFilled,
    sealed: meta !== undefined && isTrailer(meta),
    lines: number,
  };
}

/** Refuses a trailer whose counts or checksum are not those of the lines before it. */
function checkTrailer(source: string, line: number, trailer: StateTrailer, state: Database, checksum: number): void {
  const short = COLLECTIONS.filter((name) => trailer.records[name] !== state[name].length);
  if (short.length > 0) {
    const counts = short.map((name) => `${name} ${state[name].length} of ${trailer.records[name]}`).join(", ");
    throw new StateFileError(
      `${source} line ${line}: the lines before it do not hold the records it counts (${counts}): ` +
        "the file is damaged, and is left as it is.",
    );
  }
  if (trailer.crc32 !== checksum) {
    throw new StateFileError(
      `${source} line ${line}: the lines before it do not match its checksum: ` +
        "the file is damaged, and is left as it is.",
    );
  }
}

/**
 * Whether the line opens fewer than `levels` objects and arrays, counting brackets in texts too: then what it
 * holds nests less deep, and the walk of its nesting is skipped.
 */
export function opensFewer(line: string, levels: number): boolean {
  let opened = 0;
  for (const bracket of ["{", "["])
    for (let at = line.indexOf(bracket); at !== -1 && opened < levels; at = line.indexOf(bracket, at + 1)) opened += 1;
  return opened < levels;
}
