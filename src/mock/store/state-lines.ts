import { COLLECTIONS, type CollectionName, type Database } from "./records.ts";

/**
 * A state in JSON Lines: one member per line, a collection's name and one of its records (`{"properties":{…}}`),
 * or `$meta` and a snapshot's meta, last. A large state (a fixtures file, a `--db` snapshot) is read so line by
 * line, as a stream: the file's text and a second copy of the state are never held at once, as they are when a
 * file is parsed whole. The Node host reads them (src/hosts/node/state/read-state-lines.ts); a state in one JSON
 * text it reads whole.
 */

/** The line of one record. */
export function stateLine(collection: CollectionName | "$meta", value: unknown): string {
  return `{${JSON.stringify(collection)}:${JSON.stringify(value)}}\n`;
}

/** Every line of a state, records in the order of {@link COLLECTIONS}, its meta last when it has one. */
export function* stateLines(state: Database, meta?: () => unknown): Generator<string> {
  for (const collection of COLLECTIONS) for (const record of state[collection]) yield stateLine(collection, record);
  if (meta) yield stateLine("$meta", meta());
}
