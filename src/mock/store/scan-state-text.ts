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

/** Consecutive text within one piece: `pieces[piece].subarray(start, end)`. */
export interface TextRun {
  piece: number;
  start: number;
  end: number;
}

/**
 * Where a top-level member's value lies: the JSON text of a value other than an array (`whole`), or the elements
 * of an array, as runs of consecutive elements (their texts joined with commas, in brackets, are the array).
 */
export interface MemberSpan {
  key: string;
  runs: TextRun[];
  whole?: boolean;
  /** Where the value begins in the whole text. */
  position: number;
}

/** Each property of `properties`, in order: its object's text (in a piece), its id, its owner and its external id. */
export interface PropertySpans {
  count: number;
  piece: Uint32Array;
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
  /** Where the value of `properties` begins in the text, to keep it in its place among the members. */
  propertiesStart: number;
  /** The text, in the pieces it was read in (each value, and each property, lies within one of them). */
  pieces: Uint8Array[];
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

/** A state's text read a piece at a time (a file): `read` fills `into` from `position` on, and answers how much it read. */
export interface TextReader {
  size: number;
  read(into: Uint8Array, position: number): number;
}

/** Bytes from the end of a piece within which an element is checked to end in it before it is scanned. */
const NEAR_END = 1 << 20;

/** Bytes read at a time: pieces this large are each their own mapping, given back whole once let go. */
const PIECE_BYTES = 32 << 20;

/**
 * The structure of a state's JSON text, or undefined when it must be parsed as a whole. A text given as a reader
 * is read in pieces of 32 MiB ({@link ScannedState.pieces}): what lies across the end of one piece is scanned
 * again with the next, so that no value, and no property, is split between two pieces.
 */
export function scanStateText(text: Uint8Array | TextReader, pieceBytes = PIECE_BYTES): ScannedState | undefined {
  const reader: TextReader = text instanceof Uint8Array ? { size: text.length, read: (into, position) => copyInto(text, into, position) } : text;
  try {
    return new Scanner(reader, pieceBytes).state();
  } catch (error) {
    if (error instanceof GiveUp || error instanceof RangeError) return undefined;
    throw error;
  }
}

function copyInto(text: Uint8Array, into: Uint8Array, position: number): number {
  const part = text.subarray(position, position + into.length);
  into.set(part);
  return part.length;
}

class Scanner {
  readonly #reader: TextReader;
  readonly #pieceBytes: number;
  readonly #pieces: Uint8Array[] = [];
  /** The piece scanned, and where in it. */
  #bytes: Uint8Array = new Uint8Array(0);
  #at = 0;
  /** Where the text not read yet begins. */
  #read = 0;

  constructor(reader: TextReader, pieceBytes: number) {
    this.#reader = reader;
    this.#pieceBytes = pieceBytes;
  }

  state(): ScannedState {
    const members: MemberSpan[] = [];
    let properties: PropertySpans | undefined;
    let propertiesStart = 0;
    this.#more(0);
    this.#step(() => {
      this.#space();
      this.#expect(OPEN_BRACE);
      this.#space();
      this.#peekSome();
    });
    if (this.#peek() !== CLOSE_BRACE) {
      for (;;) {
        let key = "";
        let start = 0;
        let end = 0;
        let array = false;
        // A member's key, then its value: an array element by element, any other value to the comma or brace
        // after it (so that a value cut by the end of a piece is never taken).
        this.#step(() => {
          this.#space();
          const keyStart = this.#at;
          this.#string();
          key = JSON.parse(decoder.decode(this.#bytes.subarray(keyStart, this.#at))) as string;
          if (key === "__proto__") throw new GiveUp();
          this.#space();
          this.#expect(COLON);
          this.#space();
          start = this.#at;
          array = this.#peekSome() === OPEN_BRACKET;
          if (!array) {
            this.#value(0);
            end = this.#at;
            this.#space();
            this.#peekSome();
          }
        });
        const position = this.#position(start);
        // A later member of the same name is the one JSON.parse keeps.
        for (let index = members.length - 1; index >= 0; index--) if (members[index]!.key === key) members.splice(index, 1);
        if (key === "properties") {
          if (!array) throw new GiveUp();
          propertiesStart = position;
          properties = this.#properties();
        } else if (array) {
          members.push({ key, runs: this.#array(), position });
        } else {
          members.push({ key, runs: [{ piece: this.#pieces.length - 1, start, end }], position, whole: true });
        }
        if (array) {
          this.#step(() => {
            this.#space();
            this.#peekSome();
          });
        }
        if (this.#peek() === COMMA) {
          this.#at++;
          continue;
        }
        break;
      }
    }
    this.#expect(CLOSE_BRACE);
    for (;;) {
      this.#space();
      if (this.#at < this.#bytes.length || !this.#more(this.#at)) break;
    }
    if (this.#at !== this.#bytes.length || !properties) throw new GiveUp();
    return { members, properties, propertiesStart, pieces: this.#pieces };
  }

  /** An array other than `properties`: its elements, as runs of consecutive elements within one piece each. */
  #array(): TextRun[] {
    const runs: TextRun[] = [];
    let run: TextRun | undefined;
    this.#elements(() => {
      const start = this.#at;
      this.#value(1);
      return start;
    }, (start, end) => {
      const piece = this.#pieces.length - 1;
      if (run?.piece === piece) run.end = end;
      else runs.push((run = { piece, start, end }));
    });
    return runs;
  }

  /**
   * The elements of an array, from its opening bracket to its closing one, each with the comma or bracket after
   * it in one piece: `scan` scans an element where the scan stands and answers where it began; `found` is told
   * of each element scanned (where it lies in the current piece).
   */
  #elements(scan: () => number, found: (start: number, end: number) => void): void {
    let done = false;
    this.#step(() => {
      this.#expect(OPEN_BRACKET);
      this.#space();
      done = this.#peekSome() === CLOSE_BRACKET;
    });
    if (done) {
      this.#at++;
      return;
    }
    let from = this.#at;
    while (!done) {
      let start: number;
      let end: number;
      // Near the end of the piece, an element cut by it is carried into the next piece before it is scanned: a
      // scan that fails there throws, and V8 then runs the scan unoptimized for a while (a third of the time of a
      // start at 100,000 properties, read in five pieces).
      if (this.#bytes.length - this.#at < NEAR_END && !this.#wholeAhead()) {
        if (!this.#more(this.#at)) throw new GiveUp();
        from = 0;
      }
      try {
        this.#space();
        start = scan();
        end = this.#at;
        this.#space();
        const next = this.#bytes[this.#at++];
        if (next === CLOSE_BRACKET) done = true;
        else if (next !== COMMA) throw new GiveUp();
      } catch (error) {
        // Cut by the end of the piece: scanned again from the element's start with the next piece.
        if (!(error instanceof GiveUp || error instanceof RangeError)) throw error;
        if (!this.#more(from)) throw error;
        from = 0;
        continue;
      }
      found(start, end);
      from = this.#at;
    }
  }

  /**
   * Whether the element at the scan's place, and the comma or bracket after it, lie within the piece: strings
   * and brackets followed, nothing checked (the scan that follows checks it).
   */
  #wholeAhead(): boolean {
    const bytes = this.#bytes;
    let at = this.#at;
    let depth = 0;
    for (;;) {
      const byte = bytes[at++];
      if (byte === undefined) return false;
      if (byte === QUOTE) {
        for (;;) {
          const inside = bytes[at++];
          if (inside === undefined) return false;
          if (inside === BACKSLASH) at++;
          else if (inside === QUOTE) break;
        }
      } else if (byte === OPEN_BRACE || byte === OPEN_BRACKET) depth++;
      else if (byte === CLOSE_BRACE || byte === CLOSE_BRACKET) {
        if (depth === 0) return true; // the array's closing bracket, after the element
        depth--;
      } else if (byte === COMMA && depth === 0) return true;
    }
  }

  /** The `properties` array: each element an object whose first members are `"id":<integer>,"uid":<integer>`. */
  #properties(): PropertySpans {
    let capacity = 1024;
    let spans: PropertySpans = {
      count: 0,
      piece: new Uint32Array(capacity),
      start: new Uint32Array(capacity),
      end: new Uint32Array(capacity),
      id: new Float64Array(capacity),
      uid: new Float64Array(capacity),
      externalId: [],
      nestedId: new Float64Array(capacity),
    };
    this.#elements(
      () => {
        if (spans.count === capacity) {
          capacity *= 2;
          spans = {
            ...spans,
            piece: grown(spans.piece, new Uint32Array(capacity)),
            start: grown(spans.start, new Uint32Array(capacity)),
            end: grown(spans.end, new Uint32Array(capacity)),
            id: grown(spans.id, new Float64Array(capacity)),
            uid: grown(spans.uid, new Float64Array(capacity)),
            nestedId: grown(spans.nestedId, new Float64Array(capacity)),
          };
        }
        const start = this.#at;
        this.#property(spans, spans.count);
        return start;
      },
      (start, end) => {
        const index = spans.count++;
        spans.piece[index] = this.#pieces.length - 1;
        spans.start[index] = start;
        spans.end[index] = end;
      },
    );
    return spans;
  }

  /**
   * Runs one step of the scan; when it fails and the text goes on past the piece, it runs again from the same
   * place on the rest of the piece followed by the next one. A step ends on a character it checked (a comma, a
   * bracket, a brace), so that a number or a literal cut by the end of a piece is never taken for a whole one.
   */
  #step(scan: () => void): void {
    let from = this.#at;
    for (;;) {
      try {
        scan();
        return;
      } catch (error) {
        if (!(error instanceof GiveUp || error instanceof RangeError)) throw error;
        if (!this.#more(from)) throw error;
        // The step begins the new piece.
        from = 0;
      }
    }
  }

  /** Reads the next piece, after the bytes of this one from `from` on; false at the end of the text. */
  #more(from: number): boolean {
    if (this.#read >= this.#reader.size) return false;
    const carried = this.#bytes.subarray(from);
    const piece = new Uint8Array(carried.length + Math.min(this.#pieceBytes, this.#reader.size - this.#read));
    piece.set(carried);
    for (let filled = carried.length; filled < piece.length; ) {
      const got = this.#reader.read(piece.subarray(filled), this.#read);
      if (got <= 0) throw new GiveUp();
      filled += got;
      this.#read += got;
    }
    // The bytes carried over belong to the new piece; the old one ends where they began.
    if (this.#pieces.length > 0) this.#pieces[this.#pieces.length - 1] = this.#bytes.subarray(0, from);
    this.#pieces.push(piece);
    this.#pieceStart = this.#read - piece.length;
    this.#bytes = piece;
    this.#at = 0;
    return true;
  }

  /** Where a place of the current piece lies in the whole text. */
  #position(at: number): number {
    return this.#pieceStart + at;
  }

  #pieceStart = 0;

  /** The next byte, which must be there (else the step runs again with more of the text). */
  #peekSome(): number {
    const byte = this.#bytes[this.#at];
    if (byte === undefined) throw new GiveUp();
    return byte;
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
        // As mock-store.ts reads them: tours in an object (not an array), videos in an object or an array.
        if (isTours) tours = this.#nestedNids(false);
        else if (isVideos) videos = this.#nestedNids(true);
        else {
          this.#value(2);
          if (isExternalId) externalId = this.#externalId(valueStart);
        }
        this.#space();
        if (this.#peek() !== COMMA) break;
      }
    }
    this.#expect(CLOSE_BRACE);
    spans.externalId[index] = externalId;
    spans.nestedId[index] = Math.max(tours, videos);
  }

  /**
   * A property's tours or videos, scanned, and the largest `nid` among its members (or elements, for videos) that
   * are objects: each one's last `nid` member, as `JSON.parse` keeps it, counted when it is a positive integer
   * below 2^52; 0 for any other value.
   */
  #nestedNids(elementsToo: boolean): number {
    const bytes = this.#bytes;
    const first = bytes[this.#at];
    const isObject = first === OPEN_BRACE;
    if (!isObject && !(elementsToo && first === OPEN_BRACKET)) {
      this.#value(2);
      return 0;
    }
    const close = isObject ? CLOSE_BRACE : CLOSE_BRACKET;
    let max = 0;
    this.#at++;
    this.#space();
    if (bytes[this.#at] === close) {
      this.#at++;
      return 0;
    }
    for (;;) {
      this.#space();
      if (isObject) {
        this.#string();
        this.#space();
        this.#expect(COLON);
        this.#space();
      }
      if (bytes[this.#at] === OPEN_BRACE) {
        const nid = this.#lastNid();
        if (nid > max && nid < FEED_LIMIT) max = nid;
      } else this.#value(3);
      this.#space();
      const next = bytes[this.#at++];
      if (next === COMMA) continue;
      if (next === close) return max;
      throw new GiveUp();
    }
  }

  /** An object, scanned: its last `nid` member if that is a positive integer, else 0. */
  #lastNid(): number {
    const bytes = this.#bytes;
    let nid = 0;
    this.#at++;
    this.#space();
    if (bytes[this.#at] === CLOSE_BRACE) {
      this.#at++;
      return 0;
    }
    for (;;) {
      this.#space();
      const keyStart = this.#at;
      this.#string();
      const isNid = this.#at - keyStart === 5 && this.#keyIs(keyStart, '"nid"');
      this.#space();
      this.#expect(COLON);
      this.#space();
      const valueStart = this.#at;
      this.#value(4);
      if (isNid) nid = nidValue(bytes, valueStart, this.#at);
      this.#space();
      const next = bytes[this.#at++];
      if (next === COMMA) continue;
      if (next === CLOSE_BRACE) return nid;
      throw new GiveUp();
    }
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

/** The value of a `nid` member's text when it is a positive integer that feeds the sequence (as mock-store.ts takes it), else 0. */
function nidValue(bytes: Uint8Array, start: number, end: number): number {
  const first = bytes[start]!;
  if (first !== MINUS && (first < ZERO || first > NINE)) return 0; // a string, a literal, an object: no number
  let value = 0;
  for (let at = start; at < end; at++) {
    const byte = bytes[at]!;
    if (byte < ZERO || byte > NINE || end - start > 15) {
      // Not plain digits: the number as JSON.parse reads it (1.5e3 is 1500).
      const number = Number(decoder.decode(bytes.subarray(start, end)));
      return Number.isSafeInteger(number) && number > 0 ? number : 0;
    }
    value = value * 10 + (byte - ZERO);
  }
  return value;
}

function isHexDigit(byte: number | undefined): boolean {
  return byte !== undefined && ((byte >= ZERO && byte <= NINE) || (byte >= 0x41 && byte <= 0x46) || (byte >= 0x61 && byte <= 0x66));
}

function grown<T extends Uint32Array | Float64Array>(from: T, to: T): T {
  to.set(from);
  return to;
}
