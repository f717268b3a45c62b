import { Buffer } from "node:buffer";
import { closeSync, openSync, readSync } from "node:fs";
import { JSONParser } from "@streamparser/json";
import {
  firstRecordFault,
  MAX_RECORD_DEPTH,
  recordFault,
  recordProblem,
  RecordRefused,
} from "../../../mock/store/record-fault.ts";
import { COLLECTIONS, type CollectionName, type Database } from "../../../mock/store/records.ts";
import { StateFileError } from "../../../mock/store/state-file-error.ts";
import { opensFewer } from "./read-state-lines.ts";

/** A state read from one JSON document, with its `$meta` member (unknown: the caller checks it) and its line. */
export interface StateFromDocument {
  state: Database;
  meta: unknown;
  /** The line of `$meta`, counted when asked (only a refusal names it). */
  metaLine: () => number;
}

/**
 * Reads a state written as one JSON document, json-server's `db.json` (`{"accounts":[…],"properties":[…],…}`),
 * a record at a time: neither the file's text nor a second copy of the state is held beside the records.
 *
 * Any document is read by a streaming JSON parser (`@streamparser/json`), which sees every byte: a document cut
 * short or damaged anywhere is refused, naming the file and the line. It takes about four times node's own
 * `JSON.parse` of the same text, so the two layouts the mock and `npm run fixtures` write (a record a line, as
 * the mock writes a `.json` state, or `JSON.stringify(…, null, 2)`'s, as `fixtures/db.json` is) are first read a
 * line at a time, each record's lines given to `JSON.parse`. The document's own lines (`{`, `"accounts": [`,
 * `],`, `}`) must then be exactly where that layout has them, and each record's text must parse whole; anything
 * else, a hand edit included, sends the file to the streaming parser from its start, which then decides.
 *
 * Records are checked as record-fault.ts says: one the store cannot hold is refused with a {@link RecordRefused}.
 */
export function readStateDocument(path: string, source: string): StateFromDocument {
  let read: StateFromDocument | undefined;
  // The collections whose records were checked, nesting included, as they were read.
  const checked: CollectionName[] = [];
  try {
    read = readLaidOut(path, source, checked);
  } catch (error) {
    if (!(error instanceof NotLaidOut)) throw error;
    checked.length = 0;
  }
  read ??= readStreamed(path, source);
  assertDatabase(read.state, source);
  const fault = firstRecordFault(read.state, checked);
  if (fault) throw new RecordRefused(source, fault);
  return read;
}

/** The layout the line reader expected was not there: the streaming parser reads the file instead. */
class NotLaidOut extends Error {}

const MEMBER = /^"((?:[^"\\]|\\.)*)"\s*:\s*(.*)$/;

/**
 * A file read a chunk at a time, as lines or as a value's text up to the line that closes it. Each result's place
 * is its first byte's offset in the file: a line number is counted only when one is to be shown.
 */
class ChunkedFile {
  readonly #fd: number;
  #buffer = Buffer.allocUnsafe(CHUNK_BYTES);
  #start = 0;
  #filled = 0;
  #ended = false;
  /** The file's offset of the buffer's first byte. */
  #base = 0;

  constructor(path: string) {
    this.#fd = openSync(path, "r");
  }

  close(): void {
    closeSync(this.#fd);
  }

  /** The offset of the next byte to be read. */
  get offset(): number {
    return this.#base + this.#start;
  }

  /** The next line without its line end, or undefined at the end of the file. */
  line(): string | undefined {
    let from = this.#start;
    for (;;) {
      const at = this.#buffer.indexOf(LINE_END, from);
      if (at !== -1 && at < this.#filled) {
        const line = this.#buffer.toString("utf8", this.#start, at);
        this.#start = at + 1;
        return line;
      }
      from = this.#filled;
      if (!this.#more()) {
        if (this.#start === this.#filled) return undefined;
        const line = this.#buffer.toString("utf8", this.#start, this.#filled);
        this.#start = this.#filled;
        return line;
      }
      from -= this.#shifted;
    }
  }

  /** The text up to and including `closer`, consumed; undefined when the file ends first. */
  through(closer: Buffer): string | undefined {
    let from = this.#start;
    for (;;) {
      const at = this.#buffer.indexOf(closer, from);
      if (at !== -1 && at + closer.length <= this.#filled) {
        const text = this.#buffer.toString("utf8", this.#start, at + closer.length);
        this.#start = at + closer.length;
        return text;
      }
      from = Math.max(this.#start, this.#filled - closer.length + 1);
      if (!this.#more()) return undefined;
      from -= this.#shifted;
    }
  }

  /** How far the last {@link #more} moved the held bytes towards the buffer's start. */
  #shifted = 0;

  /** Reads more of the file after what is held, growing the buffer when it is full; false at the end. */
  #more(): boolean {
    if (this.#ended) return false;
    this.#shifted = this.#start;
    this.#buffer.copy(this.#buffer, 0, this.#start, this.#filled);
    this.#base += this.#start;
    this.#filled -= this.#start;
    this.#start = 0;
    if (this.#filled === this.#buffer.length)
      this.#buffer = Buffer.concat([this.#buffer, Buffer.allocUnsafe(this.#buffer.length)]);
    const read = readSync(this.#fd, this.#buffer, this.#filled, this.#buffer.length - this.#filled, null);
    if (read === 0) this.#ended = true;
    this.#filled += read;
    return read > 0;
  }
}

/** The 1-based line of a byte offset of a file, counted only when a line is to be named. */
export function lineOfOffset(path: string, offset: number): number {
  let line = 1;
  const fd = openSync(path, "r");
  try {
    const buffer = Buffer.allocUnsafe(CHUNK_BYTES);
    for (let done = 0; done < offset; ) {
      const read = readSync(fd, buffer, 0, Math.min(buffer.length, offset - done), null);
      if (read === 0) break;
      line += newlines(buffer, read);
      done += read;
    }
  } finally {
    closeSync(fd);
  }
  return line;
}

function readLaidOut(path: string, source: string, checked: CollectionName[]): StateFromDocument {
  const state: Record<string, unknown> = {};
  let meta: unknown;
  let metaOffset = 0;
  let phase: "open" | "members" | "records" | "closed" = "open";
  /** A comma ended the last member or record: another must follow. */
  let more = false;
  let collection: CollectionName | undefined;
  let records: unknown[] = [];

  const take = (key: string | undefined, text: string, offset: number): boolean => {
    const comma = text.endsWith(",");
    let value: unknown;
    try {
      value = JSON.parse(comma ? text.slice(0, -1) : text);
    } catch {
      throw new NotLaidOut();
    }
    if (key === undefined) {
      const problem = collection ? recordProblem(collection, value, opensFewer(text, MAX_RECORD_DEPTH)) : undefined;
      if (problem !== undefined)
        throw new RecordRefused(
          `${source} line ${lineOfOffset(path, offset)}`,
          recordFault(collection!, records.length, value, problem),
        );
      records.push(value);
    } else if (key === "$meta") {
      meta = value;
      metaOffset = offset;
    } else {
      state[key] = value;
      // Taken whole (or taken again): its records are checked after.
      if (checked.includes(key as CollectionName)) checked.splice(checked.indexOf(key as CollectionName), 1);
    }
    return comma;
  };

  const file = new ChunkedFile(path);
  try {
    /**
     * A value whose first line opens it alone (`{`, or `"key": {`): the rest of its text, through the line that
     * closes it at the same indent (JSON.stringify's layout; any other fails to parse, and the file is streamed).
     */
    const spanning = (opening: string, line: string, key: string | undefined, offset: number): boolean => {
      const indent = line.length - line.trimStart().length;
      const rest = file.through(Buffer.from(`\n${line.slice(0, indent)}${opening === "{" ? "}" : "]"}`));
      if (rest === undefined) throw new NotLaidOut();
      // The closing line's end: a comma, or nothing.
      const after = file.line()?.trimEnd();
      if (after !== "" && after !== "," && after !== undefined) throw new NotLaidOut();
      return take(key, `${opening}${rest}${after ?? ""}`, offset);
    };
    for (;;) {
      const offset = file.offset;
      const line = file.line();
      if (line === undefined) break;
      const text = line.trim();
      if (text === "") continue;
      switch (phase) {
        case "open":
          if (text !== "{") throw new NotLaidOut();
          phase = "members";
          more = true;
          break;
        case "members": {
          if (text === "}") {
            if (more && Object.keys(state).length + (meta === undefined ? 0 : 1) > 0) throw new NotLaidOut();
            phase = "closed";
            break;
          }
          const member = MEMBER.exec(text);
          if (!member || !more) throw new NotLaidOut();
          const key = JSON.parse(`"${member[1]}"`) as string;
          const rest = member[2]!;
          if (rest === "[" && (COLLECTIONS as readonly string[]).includes(key)) {
            collection = key as CollectionName;
            records = [];
            state[key] = records;
            checked.push(collection);
            phase = "records";
            more = true;
          } else if (rest === "{" || rest === "[") {
            more = spanning(rest, line, key, offset);
          } else {
            more = take(key, rest, offset);
          }
          break;
        }
        case "records":
          if (text === "]" || text === "],") {
            if (more && records.length > 0) throw new NotLaidOut();
            more = text.endsWith(",");
            collection = undefined;
            phase = "members";
          } else if (!more) {
            throw new NotLaidOut();
          } else if (text === "{") {
            more = spanning("{", line, undefined, offset);
          } else {
            more = take(undefined, text, offset);
          }
          break;
        case "closed":
          throw new NotLaidOut();
      }
    }
  } finally {
    file.close();
  }
  if (phase !== "closed") throw new NotLaidOut();
  return { state: state as unknown as Database, meta, metaLine: () => lineOfOffset(path, metaOffset) };
}

/** Bytes given to the streaming parser at a time. */
const CHUNK_BYTES = 1024 * 1024;

/**
 * Reads the document with the streaming parser, each member of the top-level object handed over whole once
 * parsed (a collection's array is the state's own: it is not copied).
 */
function readStreamed(path: string, source: string): StateFromDocument {
  const state: Record<string, unknown> = {};
  let meta: unknown;
  let metaLine = 0;
  let notAnObject = false;
  const parser = new JSONParser({ paths: ["$.*"], keepStack: false });
  let linesBefore = 0;
  let chunk = Buffer.alloc(0);
  parser.onValue = ({ value, key }) => {
    if (typeof key !== "string") {
      notAnObject = true;
      return;
    }
    if (key === "$meta") {
      meta = value;
      metaLine = linesBefore + 1;
    } else state[key] = value;
  };
  const fd = openSync(path, "r");
  try {
    const buffer = Buffer.allocUnsafe(CHUNK_BYTES);
    let consumed = 0;
    for (;;) {
      const read = readSync(fd, buffer, 0, buffer.length, null);
      if (read === 0) break;
      chunk = buffer.subarray(0, read);
      if (parser.isEnded) {
        const extra = chunk.findIndex((byte) => !WHITESPACE.has(byte));
        if (extra !== -1)
          throw new StateFileError(
            `${source} line ${linesBefore + newlines(chunk, extra) + 1}: ` +
              "text follows the end of the JSON document; the file is left as it is.",
          );
      } else {
        try {
          parser.write(chunk);
        } catch (error) {
          const position = /absolute position "([0-9]+)"/.exec((error as Error).message);
          const line =
            linesBefore +
            (position ? newlines(chunk, Number(position[1]) - consumed) : newlines(chunk, chunk.length)) +
            1;
          throw new StateFileError(
            `${source} line ${line} is not valid JSON (${(error as Error).message}): ` +
              "the file is cut short or damaged, and is left as it is.",
          );
        }
      }
      consumed += read;
      linesBefore += newlines(chunk, chunk.length);
    }
    if (!parser.isEnded) {
      throw new StateFileError(
        `${source} line ${linesBefore + 1}: the JSON document ends before it is closed: ` +
          "the file is cut short, and is left as it is.",
      );
    }
  } finally {
    closeSync(fd);
  }
  if (notAnObject)
    throw new StateFileError(`${source} does not hold a mock state (an object with ${COLLECTIONS.join(", ")}).`);
  return { state: state as unknown as Database, meta, metaLine: () => metaLine };
}

const WHITESPACE = new Set([0x20, 0x09, 0x0a, 0x0d]);

const LINE_END = 0x0a;

/** The line ends among a chunk's first `length` bytes. */
function newlines(chunk: Uint8Array, length: number): number {
  let count = 0;
  for (let at = chunk.indexOf(0x0a); at !== -1 && at < length; at = chunk.indexOf(0x0a, at + 1)) count += 1;
  return count;
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
