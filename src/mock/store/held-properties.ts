import type { Database, PropertyRecord } from "./records.ts";
import { largerId, largerNestedId } from "./sequence-ids.ts";

/**
 * A property of a large state read from JSON Lines, held as its line until first read: parsing each line is
 * needed to check it, but a store of many properties that kept every record as an object paid for it again in
 * garbage collection at start (V8 moves and marks every object), and most of them may never be asked for.
 *
 * A held property is a record of its first two members, `id` and `uid` (so the arrays, the positions and the
 * indexes hold it as any record), whose line fills it in place on first read: `Object.assign` puts the other
 * members after those two, in the line's order, so the filled record is the parsed line, member for member. What
 * the indexes need beyond them (the external id, the largest nid it holds) is kept beside the line. The store
 * fills a record before it hands it out or changes it (mock-store.ts); nothing else sees one unfilled.
 */
interface Held {
  line: string;
  externalId: PropertyRecord["external_id"];
  /** The largest of its nid and the nids of its virtual tours and videos, for the id sequence. */
  maxId: number;
}

const held = new WeakMap<object, Held>();

/**
 * What to put in a state for a property just parsed from `line`: a held record, or the record itself when its
 * members do not start with `id` and `uid` (the filled record would not keep their order) or it has a member
 * `Object.assign` would not copy as a member (`__proto__`).
 */
export function holdProperty(record: PropertyRecord, line: string): PropertyRecord {
  let first: string | undefined;
  for (const key in record) {
    if (first !== undefined) {
      if (first !== "id" || key !== "uid" || Object.hasOwn(record, "__proto__")) return record;
      const shell = { id: record.id, uid: record.uid } as PropertyRecord;
      held.set(shell, { line, externalId: record.external_id, maxId: largerNestedId(largerId(0, record.id), record) });
      return shell;
    }
    first = key;
  }
  return record;
}

/** What the indexes need of a held property, or undefined when the record is not held. */
export function heldFields(record: object): Readonly<Held> | undefined {
  return held.get(record);
}

/** The record, filled from its line if it was held (in place: the same object, from then on a plain record). */
export function filled<T extends object | undefined>(record: T): T {
  const entry = record === undefined ? undefined : held.get(record);
  if (entry !== undefined) {
    held.delete(record!);
    Object.assign(record!, (JSON.parse(entry.line) as { properties: object }).properties);
  }
  return record;
}

/** The state with every held property filled (for what reads the whole state: a named state's build, say). */
export function filledState(state: Database): Database {
  for (const property of state.properties) filled(property);
  return state;
}
