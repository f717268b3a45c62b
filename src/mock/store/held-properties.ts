import type { Database, PropertyRecord } from "./records.ts";
import { largerId, largerNestedId } from "./sequence-ids.ts";

/**
 * A property of a state read from JSON Lines, held as its line until first read. Each line is parsed at start to
 * check it, but keeping every record of a large state as an object made V8 move and mark them all at start, and
 * most may never be asked for. A held property is a record of its first two members, `id` and `uid` (so arrays,
 * positions and indexes hold it as any record), filled in place on first read: `Object.assign` adds the other
 * members after those two, in the line's order, so the filled record is the parsed line, member for member. The
 * store fills a record before it hands it out (mock-store.ts); nothing else sees one unfilled.
 */
interface Held {
  line: string;
  /** What the indexes need: the external id, and the largest of its nid and its tours' and videos' nids. */
  externalId: PropertyRecord["external_id"];
  maxId: number;
}

const held = new WeakMap<object, Held>();

/**
 * What to put in a state for a property parsed from `line`: a held record, or the record itself when its members
 * do not start with `id` and `uid` or it has one `Object.assign` would not copy as a member (`__proto__`).
 */
export function holdProperty(record: PropertyRecord, line: string): PropertyRecord {
  const keys = Object.keys(record);
  if (keys[0] !== "id" || keys[1] !== "uid" || Object.hasOwn(record, "__proto__")) return record;
  const shell = { id: record.id, uid: record.uid } as PropertyRecord;
  held.set(shell, { line, externalId: record.external_id, maxId: largerNestedId(largerId(0, record.id), record) });
  return shell;
}

/** What the indexes need of a held property, or undefined when the record is not held. */
export function heldFields(record: object): Readonly<Held> | undefined {
  return held.get(record);
}

/** The record, filled from its line if it was held (in place: the same object, from then on a plain record). */
export function filled<T extends object | undefined>(record: T): T {
  const entry = record === undefined ? undefined : held.get(record);
  if (entry !== undefined && held.delete(record!)) Object.assign(record!, (JSON.parse(entry.line) as { properties: object }).properties);
  return record;
}

/** The state with every held property filled, for what reads the whole state. */
export function filledState(state: Database): Database {
  for (const property of state.properties) filled(property);
  return state;
}

