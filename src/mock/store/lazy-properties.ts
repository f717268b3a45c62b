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
  /** The store holds this property otherwise now: what its text is read from may be let go once no text needs it. */
  forget?(index: number): void;
  /** Lets go of what the texts are read from: the store that took them holds each property otherwise now. */
  release?(): void;
}

const LAZY = Symbol("properties held as text");

interface Lazy {
  /** The source as of now (a store's properties change: each snapshot reads them as they are when it starts). */
  source: () => PropertySource;
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
export function lazyDatabase(members: Record<string, unknown>, source: () => PropertySource, materialize: () => PropertyRecord[] = () => parseAll(source())): Database {
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
  return Object.hasOwn(database, LAZY) ? (database as LazyDatabase)[LAZY]!.source() : undefined;
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

/**
 * The properties of a state's text as a scan found them: each one's text read from its piece when asked for. A
 * piece is let go once every property in it is held otherwise ({@link PropertySource.forget}).
 */
export function scannedProperties(pieces: readonly Uint8Array[], spans: PropertySpans): PropertySource {
  const held: Array<Uint8Array | undefined> = [...pieces];
  const remaining = new Array<number>(pieces.length).fill(0);
  for (let index = 0; index < spans.count; index++) remaining[spans.piece[index]!]! += 1;
  // Pieces no property lies in (the other members') are let go at once.
  for (let piece = 0; piece < held.length; piece++) if (remaining[piece] === 0) held[piece] = undefined;
  let released = false;
  return {
    count: spans.count,
    idAt: (index) => spans.id[index]!,
    uidAt: (index) => spans.uid[index]!,
    externalIdAt: (index) => spans.externalId[index],
    nestedIdAt: (index) => spans.nestedId[index]!,
    textAt: (index) => {
      const piece = released ? undefined : held[spans.piece[index]!];
      if (!piece) throw new Error("A state's text was read after the store that took it let it go");
      return decoder.decode(piece.subarray(spans.start[index], spans.end[index]));
    },
    forget: (index) => {
      const piece = spans.piece[index]!;
      if (--remaining[piece]! === 0) held[piece] = undefined;
    },
    release: () => {
      released = true;
      held.length = 0;
    },
  };
}
