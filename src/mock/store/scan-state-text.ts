/**
 * A state file's structure found from its bytes, without building it (issue 32): where each top-level member's
 * value lies, and where each property of `properties` lies with the few fields the store indexes it by. At
 * 100,000 properties `JSON.parse` of the whole text took most of a start (1.9 s) and built every property as an
 * object, which the mock then kept beside each property's encoded answer; a scan finds the same structure in a
 * fraction of that time and lets the store hold each property once, as text.
 *
 * The scan checks the whole grammar of JSON (RFC 8259), so a text it accepts is one `JSON.parse` accepts. It
 * gives up (undefined) on anything it does not expect: a text that is not an object, a `properties` that is not
 * an array of objects, a property that does not begin with its `id` and `uid` as plain integers, invalid JSON.
 * The caller then parses the text as before, so that such a file is read, or refused, exactly as it was.
 */

/** Where a top-level member's value lies: `bytes.subarray(start, end)` is its JSON text. */
export interface MemberSpan {
  key: string;
  start: number;
  end: number;
}

/** Each property of `properties`, in order: its object's text, its id, its owner and its external id. */
export interface PropertySpans {
  count: number;
  start: Uint32Array;
  end: Uint32Array;
  id: Float64Array;
  uid: Float64Array;
  /** The external id where the property has one (a string), else undefined (null or no such member). */
  externalId: Array<string | undefined>;
  /**
   * The largest numeric `nid` of the property's virtual tours and videos (nodes of the nid sequence, which the
   * store's sequence steps over), or 0.
   */
  nestedId: Float64Array;
}

/** A state file's structure: its members but `properties` (each to be parsed), and the properties' places. */
export interface ScannedState {
  members: MemberSpan[];
  properties: PropertySpans;
  /** Where the value of `properties` begins, to keep it in its place among the members. */
  propertiesStart: number;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const MINUS = 0x2d;
const ZERO = 0x30;
const NINE = 0x39;

const decoder = new TextDecoder();

/** The scan gave up: the caller parses the text instead. */
class GiveUp extends Error {}

/** The structure of a state's JSON text (its UTF-8 bytes), or undefined when it must be parsed as a whole. */
export function scanStateText(bytes: Uint8Array): ScannedState | undefined {
  try {
    return new Scanner(bytes).state();
  } catch (error) {
    if (error instanceof GiveUp || error instanceof RangeError) return undefined;
    throw error;
  }
}

class Scanner {
  readonly #bytes: Uint8Array;
  #at = 0;

  constructor(bytes: Uint8Array) {
    this.#bytes = bytes;
  }

  state(): ScannedState {
    const members: MemberSpan[] = [];
    let properties: PropertySpans | undefined;
    let propertiesStart = 0;
    this.#space();
    this.#expect(OPEN_BRACE);
    this.#space();
    if (this.#peek() !== CLOSE_BRACE) {
      for (;;) {
        this.#space();
        const keyStart = this.#at;
        this.#string();
        const key = JSON.parse(decoder.decode(this.#bytes.subarray(keyStart, this.#at))) as string;
        if (key === "__proto__") throw new GiveUp();
        this.#space();
        this.#expect(COLON);
        this.#space();
        const start = this.#at;
        if (key === "properties") {
          propertiesStart = start;
          properties = this.#properties();
          // A later "properties" member would win in JSON.parse; an earlier one is forgotten like it.
          for (let index = members.length - 1; index >= 0; index--) if (members[index]!.key === key) members.splice(index, 1);
          members.push({ key, start, end: this.#at });
        } else {
          this.#value(0);
          members.push({ key, start, end: this.#at });
        }
        this.#space();
        if (this.#peek() === COMMA) {
          this.#at++;
          continue;
        }
        break;
      }
    }
    this.#expect(CLOSE_BRACE);
    this.#space();
    if (this.#at !== this.#bytes.length || !properties) throw new GiveUp();
    return { members: members.filter((member) => member.key !== "properties"), properties, propertiesStart };
  }

  /** The `properties` array: each element an object whose first members are `"id":<integer>,"uid":<integer>`. */
  #properties(): PropertySpans {
    const bytes = this.#bytes;
    let capacity = 1024;
    let spans: PropertySpans = { count: 0, start: new Uint32Array(capacity), end: new Uint32Array(capacity), id: new Float64Array(capacity), uid: new Float64Array(capacity), externalId: [], nestedId: new Float64Array(capacity) };
    this.#expect(OPEN_BRACKET);
    this.#space();
    if (this.#peek() === CLOSE_BRACKET) {
      this.#at++;
      return spans;
    }
    for (;;) {
      this.#space();
      if (spans.count === capacity) {
        capacity *= 2;
        spans = { ...spans, start: grown(spans.start, new Uint32Array(capacity)), end: grown(spans.end, new Uint32Array(capacity)), id: grown(spans.id, new Float64Array(capacity)), uid: grown(spans.uid, new Float64Array(capacity)), nestedId: grown(spans.nestedId, new Float64Array(capacity)) };
      }
      const index = spans.count++;
      spans.start[index] = this.#at;
      this.#property(spans, index);
      spans.end[index] = this.#at;
      this.#space();
      const next = bytes[this.#at++];
      if (next === COMMA) continue;
      if (next === CLOSE_BRACKET) break;
      throw new GiveUp();
    }
    return spans;
  }

  /** One property: its first members read as the mock writes them (`{"id":1001,"uid":1,`), the rest scanned. */
  #property(spans: PropertySpans, index: number): void {
    this.#expect(OPEN_BRACE);
    this.#space();
    if (!this.#literal('"id"')) throw new GiveUp();
    this.#space();
    this.#expect(COLON);
    this.#space();
    spans.id[index] = this.#plainInteger();
    this.#space();
    this.#expect(COMMA);
    this.#space();
    if (!this.#literal('"uid"')) throw new GiveUp();
    this.#space();
    this.#expect(COLON);
    this.#space();
    spans.uid[index] = this.#plainInteger();
    this.#space();
    let externalId: string | undefined;
    let tours = 0;
    let videos = 0;
    if (this.#peek() === COMMA) {
      for (;;) {
        this.#expect(COMMA);
        this.#space();
        const keyStart = this.#at;
        this.#string();
        const keyLength = this.#at - keyStart;
        // A second "id" or "uid" would be the one JSON.parse keeps: such a property is not read from its head.
        if ((keyLength === 4 || keyLength === 5) && (this.#keyIs(keyStart, '"id"') || this.#keyIs(keyStart, '"uid"'))) throw new GiveUp();
        const isExternalId = keyLength === 13 && this.#keyIs(keyStart, '"external_id"');
        const isTours = keyLength === 15 && this.#keyIs(keyStart, '"virtual_tours"');
        const isVideos = keyLength === 17 && this.#keyIs(keyStart, '"property_videos"');
        this.#space();
        this.#expect(COLON);
        this.#space();
        const valueStart = this.#at;
        this.#value(2);
        if (isExternalId) externalId = this.#externalId(valueStart);
        // As mock-store.ts reads them: tours in an object (not an array), videos in an object or an array.
        else if (isTours) tours = this.#bytes[valueStart] === OPEN_BRACE ? largestNid(this.#bytes, valueStart, this.#at) : 0;
        else if (isVideos) videos = this.#bytes[valueStart] === OPEN_BRACE || this.#bytes[valueStart] === OPEN_BRACKET ? largestNid(this.#bytes, valueStart, this.#at) : 0;
        this.#space();
        if (this.#peek() !== COMMA) break;
      }
    }
    this.#expect(CLOSE_BRACE);
    spans.externalId[index] = externalId;
    spans.nestedId[index] = Math.max(tours, videos);
  }

  /** An external id as the index keys it: a string, or none for null (any other value gives up). */
  #externalId(start: number): string | undefined {
    if (this.#bytes[start] === QUOTE) return JSON.parse(decoder.decode(this.#bytes.subarray(start, this.#at))) as string;
    if (this.#at - start === 4 && this.#keyIs(start, "null")) return undefined;
    throw new GiveUp();
  }

  #keyIs(start: number, key: string): boolean {
    for (let offset = 0; offset < key.length; offset++) if (this.#bytes[start + offset] !== key.charCodeAt(offset)) return false;
    return true;
  }

  #literal(text: string): boolean {
    for (let offset = 0; offset < text.length; offset++) if (this.#bytes[this.#at + offset] !== text.charCodeAt(offset)) return false;
    this.#at += text.length;
    return true;
  }

  /** A positive integer in plain decimal of at most 15 digits (exact as a number). */
  #plainInteger(): number {
    const bytes = this.#bytes;
    const start = this.#at;
    let value = 0;
    while (bytes[this.#at]! >= ZERO && bytes[this.#at]! <= NINE) value = value * 10 + (bytes[this.#at++]! - ZERO);
    const digits = this.#at - start;
    if (digits === 0 || digits > 15 || bytes[start] === ZERO) throw new GiveUp();
    return value;
  }

  /** Any JSON value, checked; `depth` is how deep it lies, so that a hostile nesting gives up instead of overflowing. */
  #value(depth: number): void {
    if (depth > 1_000) throw new GiveUp();
    const bytes = this.#bytes;
    const first = bytes[this.#at];
    if (first === QUOTE) return this.#string();
    if (first === OPEN_BRACE) {
      this.#at++;
      this.#space();
      if (bytes[this.#at] === CLOSE_BRACE) {
        this.#at++;
        return;
      }
      for (;;) {
        this.#space();
        this.#string();
        this.#space();
        this.#expect(COLON);
        this.#space();
        this.#value(depth + 1);
        this.#space();
        const next = bytes[this.#at++];
        if (next === COMMA) continue;
        if (next === CLOSE_BRACE) return;
        throw new GiveUp();
      }
    }
    if (first === OPEN_BRACKET) {
      this.#at++;
      this.#space();
      if (bytes[this.#at] === CLOSE_BRACKET) {
        this.#at++;
        return;
      }
      for (;;) {
        this.#space();
        this.#value(depth + 1);
        this.#space();
        const next = bytes[this.#at++];
        if (next === COMMA) continue;
        if (next === CLOSE_BRACKET) return;
        throw new GiveUp();
      }
    }
    if (first === MINUS || (first !== undefined && first >= ZERO && first <= NINE)) return this.#number();
    if (this.#literal("true") || this.#literal("false") || this.#literal("null")) return;
    throw new GiveUp();
  }

  /** A string: no raw control character, escapes as RFC 8259 lists them. */
  #string(): void {
    const bytes = this.#bytes;
    if (bytes[this.#at] !== QUOTE) throw new GiveUp();
    let at = this.#at + 1;
    for (;;) {
      const byte = bytes[at++];
      if (byte === QUOTE) break;
      if (byte === undefined || byte < 0x20) throw new GiveUp();
      if (byte === BACKSLASH) {
        const escaped = bytes[at++];
        if (escaped === 0x75) {
          for (let digit = 0; digit < 4; digit++) if (!isHexDigit(bytes[at++])) throw new GiveUp();
        } else if (!(escaped === QUOTE || escaped === BACKSLASH || escaped === 0x2f || escaped === 0x62 || escaped === 0x66 || escaped === 0x6e || escaped === 0x72 || escaped === 0x74)) {
          throw new GiveUp();
        }
      }
    }
    this.#at = at;
  }

  /** `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?` */
  #number(): void {
    const bytes = this.#bytes;
    if (bytes[this.#at] === MINUS) this.#at++;
    if (bytes[this.#at] === ZERO) this.#at++;
    else if (!this.#digits()) throw new GiveUp();
    if (bytes[this.#at] === 0x2e) {
      this.#at++;
      if (!this.#digits()) throw new GiveUp();
    }
    if (bytes[this.#at] === 0x65 || bytes[this.#at] === 0x45) {
      this.#at++;
      if (bytes[this.#at] === 0x2b || bytes[this.#at] === MINUS) this.#at++;
      if (!this.#digits()) throw new GiveUp();
    }
  }

  #digits(): boolean {
    const start = this.#at;
    while (this.#bytes[this.#at]! >= ZERO && this.#bytes[this.#at]! <= NINE) this.#at++;
    return this.#at > start;
  }

  #space(): void {
    const bytes = this.#bytes;
    for (;;) {
      const byte = bytes[this.#at];
      if (byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09) this.#at++;
      else return;
    }
  }

  #peek(): number | undefined {
    return this.#bytes[this.#at];
  }

  #expect(byte: number): void {
    if (this.#bytes[this.#at] !== byte) throw new GiveUp();
    this.#at++;
  }
}

/** Ids from here on never feed the sequences (mock-store.ts, SEQUENCE_FEED_LIMIT). */
const FEED_LIMIT = 2 ** 52;

/**
 * The largest `nid` among the members (or elements) of a tours or videos value that are objects: each one's
 * last `nid` member, as `JSON.parse` keeps it, counted when it is a positive integer below 2^52. Rare and
 * small, so parsed.
 */
function largestNid(bytes: Uint8Array, start: number, end: number): number {
  const value = JSON.parse(decoder.decode(bytes.subarray(start, end))) as Record<string, { nid?: unknown } | null>;
  let max = 0;
  for (const key of Object.keys(value)) {
    const nid = value[key]?.nid;
    if (Number.isSafeInteger(nid) && (nid as number) > max && (nid as number) < FEED_LIMIT) max = nid as number;
  }
  return max;
}

function isHexDigit(byte: number | undefined): boolean {
  return byte !== undefined && ((byte >= ZERO && byte <= NINE) || (byte >= 0x41 && byte <= 0x46) || (byte >= 0x61 && byte <= 0x66));
}

function grown<T extends Uint32Array | Float64Array>(from: T, to: T): T {
  to.set(from);
  return to;
}
