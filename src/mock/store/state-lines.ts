import { COLLECTIONS, type CollectionName, type Database } from "./records.ts";

/**
 * A state in JSON Lines: one member per line, a collection's name and one of its records (`{"properties":{…}}`),
 * or `$meta` and a snapshot's meta, last. A large state (a fixtures file, a `--db` snapshot) is read so line by
 * line, as a stream: the file's text and a second copy of the state are never held at once, as they are when a
 * file is parsed whole. The Node host reads them (src/hosts/node/state/read-state-lines.ts).
 *
 * A snapshot the mock writes ends with its trailer: the `$meta` line carries, beside the meta, the number of
 * records of each collection before it (`records`) and the CRC-32 of every byte before it (`crc32`). A file cut
 * at a line's end loses it, one cut inside a line or damaged disagrees with it: either is refused, not loaded as
 * a smaller state. A file a person writes (fixtures) needs none.
 */

/** What a snapshot's last line proves of the lines before it. */
export interface StateTrailer {
  records: Record<CollectionName, number>;
  crc32: number;
}

/** Whether a `$meta` line's value carries a trailer. */
export function isTrailer(value: unknown): value is StateTrailer {
  if (value === null || typeof value !== "object") return false;
  const { records, crc32 } = value as Partial<StateTrailer>;
  return (
    Number.isSafeInteger(crc32) &&
    records !== null &&
    typeof records === "object" &&
    COLLECTIONS.every((name) => Number.isSafeInteger(records[name]) && records[name] >= 0)
  );
}

/** The line of one record. */
export function stateLine(collection: CollectionName | "$meta", value: unknown): string {
  return `{${JSON.stringify(collection)}:${JSON.stringify(value)}}\n`;
}

/** Every line of a state, records in the order of {@link COLLECTIONS}, its meta last when it has one. */
export function* stateLines(state: Database, meta?: () => unknown): Generator<string> {
  for (const collection of COLLECTIONS) for (const record of state[collection]) yield stateLine(collection, record);
  if (meta) yield stateLine("$meta", meta());
}
