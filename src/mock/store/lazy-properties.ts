import type { Database, PropertyRecord } from "./records.ts";
import type { PropertySpans } from "./scan-state-text.ts";

/**
 * Properties held as JSON text rather than as objects (issue 32): a state file's, found by a scan
 * (scan-state-text.ts), or a store's, held once as their encoded answers (property-table.ts).
 */
export interface PropertySource {
  readonly count: number;
  idAt(index: number): number;
  uidAt(index: number): number;
  /** The external id the index finds the property by, if it has one. */
  externalIdAt(index: number): string | undefined;
  /** The largest nid of its virtual tours and videos, which feed the nid sequence, or 0. */
  nestedIdAt(index: number): number;
  /** The property's JSON object text (`JSON.parse` of it is the record), or undefined if it was removed since. */
  textAt(index: number): string | undefined;
}

const LAZY = Symbol("properties held as text");

interface Lazy {
  source: PropertySource;
  materialize: () => PropertyRecord[];
}

type LazyDatabase = Database & { [LAZY]?: Lazy };

/**
 * A state whose `properties` are built as objects only when something reads them: the store takes the source
 * as it is ({@link propertySourceOf}), and a snapshot writes its texts; anything else that reads `properties`
 * (json-server's router, a named state made from the seed, `JSON.stringify` of the state) gets the array, built
 * once by `materialize` (by default each text parsed), and from then on the state is a plain one.
 *
 * @param members the state's other members, in the order they are written, `properties` among them (its value unused).
 */
export function lazyDatabase(members: Record<string, unknown>, source: PropertySource, materialize: () => PropertyRecord[] = () => parseAll(source)): Database {
  const database = {} as LazyDatabase;
  const settle = (array: PropertyRecord[]) => {
    Object.defineProperty(database, "properties", { value: array, writable: true, enumerable: true, configurable: true });
    delete database[LAZY];
    return array;
  };
  for (const key of Object.keys(members)) {
    if (key !== "properties") (database as unknown as Record<string, unknown>)[key] = members[key];
    else
      Object.defineProperty(database, "properties", {
        get: () => settle(materialize()),
        set: (array: PropertyRecord[]) => settle(array),
        enumerable: true,
        configurable: true,
      });
  }
  Object.defineProperty(database, LAZY, { value: { source, materialize }, enumerable: false, configurable: true });
  return database;
}

/** The texts a state's properties are held as, while they are not built as objects; undefined for a plain state. */
export function propertySourceOf(database: Database): PropertySource | undefined {
  return Object.hasOwn(database, LAZY) ? (database as LazyDatabase)[LAZY]!.source : undefined;
}

/** A state with some members replaced, its properties still held as text if they were (a spread would build them). */
export function withStateMembers(database: Database, members: Partial<Database>): Database {
  const lazy = Object.hasOwn(database, LAZY) ? (database as LazyDatabase)[LAZY]! : undefined;
  if (!lazy || "properties" in members) return { ...database, ...members };
  const all: Record<string, unknown> = {};
  for (const key of Object.keys(database)) all[key] = key === "properties" ? undefined : (database as unknown as Record<string, unknown>)[key];
  Object.assign(all, members);
  return lazyDatabase(all, lazy.source, lazy.materialize);
}

/** Every text of a source parsed, in order. */
export function parseAll(source: PropertySource): PropertyRecord[] {
  const records = new Array<PropertyRecord>(source.count);
  let count = 0;
  for (let index = 0; index < source.count; index++) {
    const text = source.textAt(index);
    if (text !== undefined) records[count++] = JSON.parse(text) as PropertyRecord;
  }
  records.length = count;
  return records;
}

const decoder = new TextDecoder();

/** The properties of a state's text as a scan found them: each one's text read from the bytes when asked for. */
export function scannedProperties(bytes: Uint8Array, spans: PropertySpans): PropertySource {
  return {
    count: spans.count,
    idAt: (index) => spans.id[index]!,
    uidAt: (index) => spans.uid[index]!,
    externalIdAt: (index) => spans.externalId[index],
    nestedIdAt: (index) => spans.nestedId[index]!,
    textAt: (index) => decoder.decode(bytes.subarray(spans.start[index], spans.end[index])),
  };
}
