/**
 * A state file's structure found from its bytes, without building it (issue 32): where each top-level member's
 * value lies, and where each property of `properties` lies with the few fields the store indexes it by. At
 * 100,000 properties `JSON.parse` of the whole text took most of a start (1.9 s) and built every property as an
 * object, which the mock then kept beside each property's encoded answer; a scan finds the same structure in a
 * fraction of that time and lets the store hold each property once, as text.
 *
 * The scan checks the whole grammar of JSON (RFC 8259), so a text it accepts is one `JSON.parse` accepts. It
 * gives up (undefined) on anything it does not expect: a text that is not an object, a `properties` that is not
 * an array of objects, a property that does not begin with its `id` and `uid` as plain integers, a record of a
 * collection nested deeper than MAX_RECORD_DEPTH (record-fault.ts), invalid JSON.
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



import { CLOSE_BRACE, CLOSE_BRACKET, COLON, COMMA, decoder, GiveUp, OPEN_BRACE, OPEN_BRACKET, QUOTE, BACKSLASH, TooDeep } from "./json-cursor.ts";
import { PropertyCursor } from "./property-cursor.ts";
import { MAX_RECORD_DEPTH } from "./record-fault.ts";
import { COLLECTIONS } from "./records.ts";

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
    if (error instanceof GiveUp || error instanceof TooDeep || error instanceof RangeError) return undefined;
    throw error;
  }
}

/**
 * How deep a value may lie within a member other than the four collections (kept as the state's, never a
 * record): deep enough for anything, shallow enough for the scan's stack.
 */
const OTHER_MEMBER_DEPTH = 1_000;

function copyInto(text: Uint8Array, into: Uint8Array, position: number): number {
  const part = text.subarray(position, position + into.length);
  into.set(part);
  return part.length;
}

class Scanner extends PropertyCursor {
  readonly #reader: TextReader;
  readonly #pieceBytes: number;
  readonly #pieces: Uint8Array[] = [];
  /** Where the text not read yet begins. */
  #read = 0;

  constructor(reader: TextReader, pieceBytes: number) {
    super();
    this.#reader = reader;
    this.#pieceBytes = pieceBytes;
  }

  state(): ScannedState {
    const members: MemberSpan[] = [];
    let properties: PropertySpans | undefined;
    let propertiesStart = 0;
    this.#more(0);
    this.#step(() => {
      this.space();
      this.expect(OPEN_BRACE);
      this.space();
      this.#peekSome();
    });
    if (this.peek() !== CLOSE_BRACE) {
      for (;;) {
        let key = "";
        let start = 0;
        let end = 0;
        let array = false;
        // A member's key, then its value: an array element by element, any other value to the comma or brace
        // after it (so that a value cut by the end of a piece is never taken).
        this.#step(() => {
          this.space();
          const keyStart = this.at;
          this.string();
          key = JSON.parse(decoder.decode(this.bytes.subarray(keyStart, this.at))) as string;
          if (key === "__proto__") throw new GiveUp();
          // A record nested deeper than the store holds (record-fault.ts) stops the scan as it is met: the file
          // is then parsed whole, and refused naming the record.
          this.depthLimit = (COLLECTIONS as readonly string[]).includes(key) ? MAX_RECORD_DEPTH : OTHER_MEMBER_DEPTH;
          this.space();
          this.expect(COLON);
          this.space();
          start = this.at;
          array = this.#peekSome() === OPEN_BRACKET;
          if (!array) {
            this.value(0);
            end = this.at;
            this.space();
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
            this.space();
            this.#peekSome();
          });
        }
        if (this.peek() === COMMA) {
          this.at++;
          continue;
        }
        break;
      }
    }
    this.expect(CLOSE_BRACE);
    for (;;) {
      this.space();
      if (this.at < this.bytes.length || !this.#more(this.at)) break;
    }
    if (this.at !== this.bytes.length || !properties) throw new GiveUp();
    return { members, properties, propertiesStart, pieces: this.#pieces };
  }

  /** An array other than `properties`: its elements, as runs of consecutive elements within one piece each. */
  #array(): TextRun[] {
    const runs: TextRun[] = [];
    let run: TextRun | undefined;
    this.#elements(() => {
      const start = this.at;
      this.value(1);
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
      this.expect(OPEN_BRACKET);
      this.space();
      done = this.#peekSome() === CLOSE_BRACKET;
    });
    if (done) {
      this.at++;
      return;
    }
    let from = this.at;
    while (!done) {
      let start: number;
      let end: number;
      // Near the end of the piece, an element cut by it is carried into the next piece before it is scanned: a
      // scan that fails there throws, and V8 then runs the scan unoptimized for a while (a third of the time of a
      // start at 100,000 properties, read in five pieces).
      if (this.bytes.length - this.at < NEAR_END && !this.#wholeAhead()) {
        if (!this.#more(this.at)) throw new GiveUp();
        from = 0;
      }
      try {
        this.space();
        start = scan();
        end = this.at;
        this.space();
        const next = this.bytes[this.at++];
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
      from = this.at;
    }
  }

  /**
   * Whether the element at the scan's place, and the comma or bracket after it, lie within the piece: strings
   * and brackets followed, nothing checked (the scan that follows checks it).
   */
  #wholeAhead(): boolean {
    const bytes = this.bytes;
    let at = this.at;
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
        const start = this.at;
        this.property(spans, spans.count);
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
    let from = this.at;
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
    const carried = this.bytes.subarray(from);
    const piece = new Uint8Array(carried.length + Math.min(this.#pieceBytes, this.#reader.size - this.#read));
    piece.set(carried);
    for (let filled = carried.length; filled < piece.length; ) {
      const got = this.#reader.read(piece.subarray(filled), this.#read);
      if (got <= 0) throw new GiveUp();
      filled += got;
      this.#read += got;
    }
    // The bytes carried over belong to the new piece; the old one ends where they began.
    if (this.#pieces.length > 0) this.#pieces[this.#pieces.length - 1] = this.bytes.subarray(0, from);
    this.#pieces.push(piece);
    this.#pieceStart = this.#read - piece.length;
    this.bytes = piece;
    this.at = 0;
    return true;
  }

  /** Where a place of the current piece lies in the whole text. */
  #position(at: number): number {
    return this.#pieceStart + at;
  }

  #pieceStart = 0;

  /** The next byte, which must be there (else the step runs again with more of the text). */
  #peekSome(): number {
    const byte = this.bytes[this.at];
    if (byte === undefined) throw new GiveUp();
    return byte;
  }

}

function grown<T extends Uint32Array | Float64Array>(from: T, to: T): T {
  to.set(from);
  return to;
}
