import { MAX_DEPTH } from "../validation/bound-for-validation.ts";
import { COLLECTIONS, type CollectionName } from "./records.ts";

/**
 * What the store needs of every record of a whole state (a fixtures file, a `--db` snapshot or journal line, a
 * state given as an object) before it takes it, and the first record that falls short. A state's records are
 * otherwise taken as they are (unknown fields, and members beside the four collections, stay), but the store
 * and its encoder stand on three things, and a record without them was accepted at start and crashed the mock
 * later, when its answer was encoded between requests or on the first request that reached it:
 *
 * - **a record is a JSON object** (the store reads `record.id` of each; `null` threw at once, an array or a number
 *   was held under the id `undefined`);
 * - **the ids the store indexes it by are safe integers**: every record's `id`, and the owner (`uid`) of a
 *   property and of an agent card, which the indexes by owner key;
 * - **its nesting is bounded** by {@link MAX_RECORD_DEPTH}: `JSON.stringify` and `structuredClone` recurse, so a
 *   record nested some thousands of levels deep overflowed the stack when its answer was encoded.
 *
 * The host-neutral part: the hosts read the files and make the refusal a message (load-fixtures.ts,
 * state-snapshot.ts, journal-lines.ts).
 */

/**
 * The deepest a record may nest, the record itself being level 1: twice the {@link MAX_DEPTH} a request body may
 * nest. Every record the mock takes over HTTP (an API call, a raw write, `POST /__admin/state`) nests at most
 * MAX_DEPTH levels, so whatever the mock writes (a snapshot, a journal, `GET /__db/db` saved as a state) loads
 * again, and a file made by hand has as much room again; the records of the service nest three or four levels
 * deep. It stays two orders of magnitude below the depth at which `JSON.stringify` overflows the stack (some
 * thousands of levels), and keeps the walk of {@link recordFault} to a few dozen frames.
 */
export const MAX_RECORD_DEPTH = 2 * MAX_DEPTH;

/** A record the store cannot hold: where it is and what is wrong with it. */
export interface RecordFault {
  collection: CollectionName;
  /** Its place in the collection; none for a record given alone (a journal line's). */
  index?: number;
  /** The record's id, when it has one that can be shown. */
  id?: number;
  /** What is wrong, as a phrase after the place (`is an array, not an object`, `"id" is not an integer`). */
  problem: string;
}

/** The collections whose records name their owner by a `uid` the store indexes them by. */
const OWNED: ReadonlySet<CollectionName> = new Set(["properties", "agents"]);

/**
 * What is wrong with one record of a collection, or undefined when the store can hold it. `depthKnown` skips the
 * walk of its nesting (its line opens fewer brackets than it may nest, state-lines.ts).
 */
export function recordProblem(collection: CollectionName, record: unknown, depthKnown = false): string | undefined {
  if (record === null || typeof record !== "object" || Array.isArray(record))
    return `is ${kindOf(record)}, not an object`;
  const fields = record as Record<string, unknown>;
  const id = idProblem(fields, "id");
  if (id) return id;
  if (OWNED.has(collection)) {
    const uid = idProblem(fields, "uid");
    if (uid) return uid;
  }
  if (!depthKnown && deeperThan(record, MAX_RECORD_DEPTH - 1)) return `nesting deeper than ${MAX_RECORD_DEPTH} levels`;
  return undefined;
}

/**
 * The first record of a state the store cannot hold, in the order of {@link COLLECTIONS}, or undefined (a
 * collection that is not an array is not looked at: that is the caller's to refuse). `depthKnown` lists the
 * collections whose nesting a scan bounded.
 */
export function firstRecordFault(
  state: Readonly<Partial<Record<CollectionName, unknown>>>,
  depthKnown: readonly CollectionName[] = [],
): RecordFault | undefined {
  for (const collection of COLLECTIONS) {
    const records = state[collection];
    if (!Array.isArray(records)) continue;
    const known = depthKnown.includes(collection);
    for (let index = 0; index < records.length; index++) {
      const problem = recordProblem(collection, records[index], known);
      if (problem !== undefined) return recordFault(collection, index, records[index], problem);
    }
  }
  return undefined;
}

/** A fault of a record at a place, with its id when it has a safe integer one. */
export function recordFault(
  collection: CollectionName,
  index: number | undefined,
  record: unknown,
  problem: string,
): RecordFault {
  const id = record !== null && typeof record === "object" ? (record as { id?: unknown }).id : undefined;
  return {
    collection,
    ...(index === undefined ? {} : { index }),
    ...(Number.isSafeInteger(id) ? { id: id as number } : {}),
    problem,
  };
}

/**
 * The fault as a refusal shows it: `properties[0] is an array, not an object`, `properties[3] (id 17): nesting deeper
 * than 64 levels`.
 */
export function describeRecordFault(fault: RecordFault): string {
  const place =
    `${fault.index === undefined ? `a record of ${fault.collection}` : `${fault.collection}[${fault.index}]`}` +
    `${fault.id === undefined ? "" : ` (id ${fault.id})`}`;
  return `${place}${fault.problem.startsWith("is ") ? " " : ": "}${fault.problem}`;
}

function idProblem(fields: Record<string, unknown>, name: string): string | undefined {
  if (!Object.hasOwn(fields, name)) return `no "${name}"`;
  const value = fields[name];
  if (Number.isSafeInteger(value)) return undefined;
  if (Number.isInteger(value)) return `"${name}" is beyond 2^53-1, where a number is no longer exact`;
  return `"${name}" is not an integer (${typeof value === "number" ? String(value) : kindOf(value)})`;
}

/**
 * Whether a value holds objects or arrays more than `levels` deep below it, never walking further than that.
 * `Object.values` rather than `for…in`: a third faster over the 100,000 properties of a large `--db` snapshot.
 */
function deeperThan(value: object, levels: number): boolean {
  const items: readonly unknown[] = Array.isArray(value) ? value : Object.values(value);
  for (let index = 0; index < items.length; index++) {
    const item = items[index];
    if (item !== null && typeof item === "object" && (levels === 0 || deeperThan(item, levels - 1))) return true;
  }
  return false;
}

function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  switch (typeof value) {
    case "string":
      return "a string";
    case "number":
      return "a number";
    case "boolean":
      return "a boolean";
    case "undefined":
      return "missing";
    default:
      return "an object";
  }
}

/**
 * A whole state refused because a record of it cannot be held, at the point it enters the mock (a file read at
 * start, a reset that reads it again): one line naming the source and the record. The CLI prints it and exits 2.
 */
export class RecordRefused extends Error {
  override readonly name = "RecordRefused";

  constructor(
    /** What held the state: a file, with its line where one is at fault. */
    readonly source: string,
    readonly fault: RecordFault,
  ) {
    super(`${source} holds a record the mock cannot hold, and is refused: ${describeRecordFault(fault)}.`);
  }
}
