import { JsonBytes } from "../json-bytes.ts";
import { AnswerArena } from "./answer-arena.ts";
import { IdIndex } from "./id-index.ts";
import type { RetrievedParts } from "./encode-retrieved-property.ts";
import { lazyDatabase, propertySourceOf, type PropertySource } from "./lazy-properties.ts";
import type { Database, DocumentRecord, PropertyRecord } from "./records.ts";

/** Encodes a property's retrieve answer, saying where the record's own members lie in it when they do. */
export type AnswerEncoder = (record: PropertyRecord, documents: readonly DocumentRecord[]) => RetrievedParts;

const utf8Decoder = new TextDecoder();

/**
 * The properties of the store, each held once (issue 32). At 100,000 properties the records as objects took
 * about 129 MiB and their encoded retrieve answers, kept for the GETs, about as much again. A property is held
 * here as one of:
 *
 * - **its encoded retrieve answer**, in an {@link AnswerArena}, with where the record's own members lie in it:
 *   the record is read back from those bytes when something needs it as an object;
 * - **its text in the state's source** (a fixtures file as scanned at start, lazy-properties.ts), until its
 *   answer is encoded (on its first GET, or ahead of it between requests);
 * - **an object**, once something has asked for one (a write, a raw lookup, the auto-login page), or when its
 *   record is not laid out as the mock lays records out (its answer is then not made from its text). An object
 *   is let go again when its answer is encoded and holds it.
 *
 * The order of the properties (the order `/__db` lists them in) is their ids in an array. Once anything asks
 * for the whole collection as an array (`/__db`, through the state's lazy `properties`), every property is built
 * as an object and the array held: the store is then as it was before issue 32, its answers kept beside the
 * records (`arrayMode`).
 */
export class PropertyTable {
  readonly #documentsOf: (id: number) => DocumentRecord[];
  #encode: AnswerEncoder;
  /** The properties built as objects, by id; every one of them once an array is asked for. */
  #objects = new Map<number, PropertyRecord>();
  /** The properties still held as text in the source, by id: their index there. */
  #inSource = new IdIndex();
  #source: PropertySource | undefined;
  /** The encoded answers; for a property neither in `#objects` nor in `#inSource`, its only copy. */
  #answers = new AnswerArena((bytes) => new JsonBytes(bytes));
  /** The `published` text of properties held as answers, where it is not `"1"`. */
  #published = new Map<number, string>();
  /** The ids in order; undefined once `#array` holds the records. */
  #order: number[] | undefined = [];
  #positions: Map<number, number> | undefined;
  /** The records in order, once the collection was asked for as an array (then `#order` is undefined). */
  #array: PropertyRecord[] | undefined;
  #arrayPositions: Map<PropertyRecord, number> | undefined;

  /**
   * @param documentsOf a property's documents (its answer lists its floorplans).
   * @param encode the answer's encoder (a service profile's extra members spliced in, encoded-retrievals.ts).
   */
  constructor(documentsOf: (id: number) => DocumentRecord[], encode: AnswerEncoder) {
    this.#documentsOf = documentsOf;
    this.#encode = encode;
  }

  /** Encodes answers this way from now on; every answer kept is dropped (each property first built, if it is held only so). */
  useEncoder(encode: AnswerEncoder): void {
    this.#encode = encode;
    for (const id of this.ids()) this.dropAnswer(id);
  }

  /**
   * Takes the properties of a state: held as text if the state holds them so (and their ids are unique), else its
   * array as it is. Calls `each` with each property's id, owner, external id and largest nested nid, for the
   * indexes and the sequences.
   */
  load(state: Database, each: (id: number, uid: number, externalId: string | undefined, record: PropertyRecord | undefined, nestedId: number) => void): void {
    this.#objects = new Map();
    this.#inSource = new IdIndex();
    this.#answers.clear();
    this.#published = new Map();
    this.#positions = undefined;
    this.#arrayPositions = undefined;
    this.#letSourceGo();
    const source = propertySourceOf(state);
    if (source && uniqueIds(source)) {
      this.#source = source;
      this.#array = undefined;
      const order = (this.#order = new Array<number>(source.count));
      for (let index = 0; index < source.count; index++) {
        const id = source.idAt(index);
        order[index] = id;
        this.#inSource.set(id, index);
        each(id, source.uidAt(index), source.externalIdAt(index), undefined, source.nestedIdAt(index));
      }
      if (source.count === 0) this.#letSourceGo();
      return;
    }
    this.#order = undefined;
    const array = (this.#array = state.properties);
    source?.release?.();
    for (const record of array) {
      this.#objects.set(record.id, record);
      each(record.id, record.uid, record.external_id ?? undefined, record, 0);
    }
  }

  /** The state's `properties` as the store serves it: the array, or one built from this table when it is asked for. */
  stateWith(members: Record<string, unknown>): Database {
    if (this.#array) return { ...members, properties: this.#array } as unknown as Database;
    return lazyDatabase(members, () => this.#view(), () => this.toArray());
  }

  /** Every property as an object, in order: from now on the table holds the array (`/__db`, a whole state read). */
  toArray(): PropertyRecord[] {
    if (this.#array) return this.#array;
    const order = this.#order!;
    const array = new Array<PropertyRecord>(order.length);
    for (let index = 0; index < order.length; index++) array[index] = this.get(order[index]!)!;
    this.#array = array;
    this.#order = undefined;
    this.#positions = undefined;
    this.#letSourceGo();
    this.#inSource = new IdIndex();
    this.#published = new Map();
    return array;
  }

  get size(): number {
    return this.#array ? this.#array.length : this.#order!.length;
  }

  has(id: number): boolean {
    return this.#objects.has(id) || this.#inSource.has(id) || (!this.#array && this.#answers.has(id));
  }

  /** The ids in order. */
  *ids(): Generator<number> {
    if (this.#array) for (const record of this.#array) yield record.id;
    else yield* this.#order!.slice();
  }

  /**
   * The property as an object, kept as the property from now on (until its answer is encoded and holds it): what
   * a change is made to. The same object each time while it is kept.
   */
  get(id: number): PropertyRecord | undefined {
    const held = this.#objects.get(id);
    if (held !== undefined || this.#array) return held;
    const record = this.peek(id);
    if (record !== undefined) {
      this.#objects.set(id, record);
      this.#forgetText(id);
    }
    return record;
  }

  /** The property as an object to read, without keeping it (a list's items, a search): a new one unless it is kept. */
  peek(id: number): PropertyRecord | undefined {
    const held = this.#objects.get(id);
    if (held !== undefined || this.#array) return held;
    const index = this.#inSource.get(id);
    if (index !== undefined) return JSON.parse(this.#source!.textAt(index)!) as PropertyRecord;
    const text = this.#recordText(id);
    return text === undefined ? undefined : (JSON.parse(text) as PropertyRecord);
  }

  /** The property's owner, without building it. */
  ownerOf(id: number): number | undefined {
    const held = this.#objects.get(id);
    if (held !== undefined || this.#array) return held?.uid;
    const index = this.#inSource.get(id);
    if (index !== undefined) return this.#source!.uidAt(index);
    return this.#answers.read(id, ownerInAnswer);
  }

  /** The property's retrieve answer: the one kept, or encoded now and kept. */
  answer(id: number): JsonBytes | undefined {
    const kept = this.#answers.get(id);
    if (kept !== undefined) return kept;
    if (!this.has(id)) return undefined;
    this.#encodeAnswer(id);
    return this.#answers.get(id);
  }

  /** Whether the property's answer is kept. */
  hasAnswer(id: number): boolean {
    return this.#answers.has(id);
  }

  /** Encodes the property's answer unless it is kept. */
  encode(id: number): void {
    if (!this.#answers.has(id) && this.has(id)) this.#encodeAnswer(id);
  }

  /** The property's answer is stale (a floorplan changed): it is dropped, the property built first if it was its only copy. */
  dropAnswer(id: number): void {
    if (!this.#answers.has(id)) return;
    if (!this.#array && !this.#objects.has(id) && !this.#inSource.has(id)) this.get(id);
    this.#answers.delete(id);
    this.#published.delete(id);
  }

  /** Adds a property at the end. */
  append(record: PropertyRecord): void {
    this.#objects.set(record.id, record);
    if (this.#array) {
      this.#arrayPositions?.set(record, this.#array.length);
      this.#array.push(record);
    } else {
      this.#positions?.set(record.id, this.#order!.length);
      this.#order!.push(record.id);
    }
  }

  /** Puts a record in the place of the property with its id (a raw write); false if that property is not where the table has it. */
  replace(existing: PropertyRecord, record: PropertyRecord): boolean {
    if (this.#array) {
      const positions = this.#arrayPositionMap();
      const at = positions.get(existing);
      if (at === undefined || this.#array[at] !== existing) return false;
      this.#array[at] = record;
      positions.delete(existing);
      positions.set(record, at);
    }
    this.#forget(record.id);
    this.#objects.set(record.id, record);
    return true;
  }

  /** The record changed in place (an edit): it is the property from now on, its answer dropped. */
  changed(record: PropertyRecord): void {
    this.#forget(record.id);
    this.#objects.set(record.id, record);
  }

  /** Removes a property: the last one of the order takes its place. */
  remove(record: PropertyRecord): void {
    if (this.#array) {
      const positions = this.#arrayPositionMap();
      const at = positions.get(record);
      if (at === undefined || this.#array[at] !== record) return;
      const last = this.#array.pop()!;
      if (last !== record) {
        this.#array[at] = last;
        positions.set(last, at);
      }
      positions.delete(record);
    } else {
      const order = this.#order!;
      const positions = this.#positionMap();
      const at = positions.get(record.id);
      if (at === undefined) return;
      const last = order.pop()!;
      if (last !== record.id) {
        order[at] = last;
        positions.set(last, at);
      }
      positions.delete(record.id);
    }
    this.#forget(record.id);
    this.#objects.delete(record.id);
  }

  /** Whether the table holds the array of the collection (`/__db` asked for it). */
  get arrayMode(): boolean {
    return this.#array !== undefined;
  }

  #encodeAnswer(id: number): void {
    const index = this.#inSource.get(id);
    const record = this.#objects.get(id) ?? (index !== undefined ? (JSON.parse(this.#source!.textAt(index)!) as PropertyRecord) : undefined);
    if (record === undefined) return;
    const parts = this.#encode(record, this.#documentsOf(id));
    if (!parts.record || this.#array) {
      this.#answers.set(id, parts.text);
      if (!this.#array && !this.#objects.has(id)) {
        this.#objects.set(id, record);
        this.#forgetText(id);
      }
      return;
    }
    const { fieldsFrom, fieldsTo, published } = parts.record;
    this.#answers.set(id, parts.text, fieldsFrom, utf8Length(parts.text, fieldsTo));
    if (published === '"1"') this.#published.delete(id);
    else this.#published.set(id, published);
    // The answer holds the property now: its object or text is let go.
    this.#objects.delete(id);
    this.#forgetText(id);
  }

  /** The record's JSON text read back from its answer. */
  #recordText(id: number): string | undefined {
    const part = this.#answers.part(id);
    const uid = this.ownerOf(id);
    if (part === undefined || uid === undefined) return undefined;
    return `{"id":${id},"uid":${uid},${utf8Decoder.decode(part)},"published":${this.#published.get(id) ?? '"1"'}}`;
  }

  /** Lets go of the property's text in the source (it is held otherwise now); the source goes with its last text. */
  #forgetText(id: number): void {
    const index = this.#inSource.get(id);
    if (index === undefined) return;
    this.#inSource.delete(id);
    if (this.#inSource.size === 0) this.#letSourceGo();
    else this.#source!.forget?.(index);
  }

  #letSourceGo(): void {
    this.#source?.release?.();
    this.#source = undefined;
  }

  /** Drops the answer and the text of a property whose record is given anew. */
  #forget(id: number): void {
    this.#answers.delete(id);
    this.#published.delete(id);
    this.#forgetText(id);
  }

  #positionMap(): Map<number, number> {
    if (this.#positions) return this.#positions;
    const positions = new Map<number, number>();
    this.#order!.forEach((id, index) => positions.set(id, index));
    return (this.#positions = positions);
  }

  #arrayPositionMap(): Map<PropertyRecord, number> {
    if (this.#arrayPositions) return this.#arrayPositions;
    const positions = new Map<PropertyRecord, number>();
    this.#array!.forEach((record, index) => positions.set(record, index));
    return (this.#arrayPositions = positions);
  }

  /** The table as a source of texts (a snapshot writes them), in the order of this moment. */
  #view(): PropertySource {
    const order = this.#order!.slice();
    const textOf = (id: number): string | undefined => {
      const held = this.#objects.get(id);
      if (held !== undefined) return JSON.stringify(held);
      const index = this.#inSource.get(id);
      if (index !== undefined) return this.#source!.textAt(index);
      return this.#recordText(id);
    };
    return {
      count: order.length,
      idAt: (index) => order[index]!,
      uidAt: (index) => this.ownerOf(order[index]!) ?? 0,
      externalIdAt: (index) => this.peek(order[index]!)?.external_id ?? undefined,
      nestedIdAt: () => 0,
      textAt: (index) => textOf(order[index]!),
    };
  }
}

/** The uid of an answer's head, `{"nid":"1001","uid":"7",`, read from its bytes (on every GET: no text made). */
function ownerInAnswer(bytes: Uint8Array, offset: number, length: number): number | undefined {
  const end = offset + length;
  let at = offset + NID_PREFIX.length;
  while (at < end && bytes[at] !== QUOTE) at++;
  for (let index = 0; index < UID_PREFIX.length; index++) if (bytes[at + index] !== UID_PREFIX.charCodeAt(index)) return undefined;
  at += UID_PREFIX.length;
  const start = at;
  let uid = 0;
  for (; at < end && bytes[at]! >= 0x30 && bytes[at]! <= 0x39; at++) uid = uid * 10 + (bytes[at]! - 0x30);
  return at > start && at < end && bytes[at] === QUOTE ? uid : undefined;
}

const QUOTE = 0x22;
const NID_PREFIX = '{"nid":"';
const UID_PREFIX = '","uid":"';

/** The UTF-8 length of `text` from `from` on. */
function utf8Length(text: string, from: number): number {
  let length = 0;
  for (let at = from; at < text.length; at++) {
    const code = text.charCodeAt(at);
    if (code < 0x80) length += 1;
    else if (code < 0x800) length += 2;
    else if (code >= 0xd800 && code <= 0xdbff && at + 1 < text.length && (text.charCodeAt(at + 1) & 0xfc00) === 0xdc00) {
      length += 4;
      at++;
    } else length += 3;
  }
  return length;
}

function uniqueIds(source: PropertySource): boolean {
  const seen = new Set<number>();
  for (let index = 0; index < source.count; index++) {
    const id = source.idAt(index);
    if (seen.has(id)) return false;
    seen.add(id);
  }
  return true;
}
