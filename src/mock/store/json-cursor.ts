/**
 * A place in a JSON text's UTF-8 bytes and the grammar of JSON (RFC 8259) checked from it, value by value: what
 * the scan of a state file (scan-state-text.ts) stands on. A check that fails throws {@link GiveUp}; so does one
 * that runs off the end of the bytes, which the scan then reads on.
 */

export const QUOTE = 0x22;
export const BACKSLASH = 0x5c;
export const COMMA = 0x2c;
export const COLON = 0x3a;
export const OPEN_BRACE = 0x7b;
export const CLOSE_BRACE = 0x7d;
export const OPEN_BRACKET = 0x5b;
export const CLOSE_BRACKET = 0x5d;
export const MINUS = 0x2d;
export const ZERO = 0x30;
export const NINE = 0x39;

export const decoder = new TextDecoder();

/** The scan gave up: the caller parses the text instead. */
export class GiveUp extends Error {}

/**
 * A value nested deeper than the scan takes ({@link JsonCursor.depthLimit}): the scan gives up at once, without
 * reading on (more of the text would not make it shallower), and the caller parses the text and says where.
 */
export class TooDeep extends Error {}

/** Checks JSON from a place in its bytes: each method scans one token or value from `at` and moves past it. */
export class JsonCursor {
  /** The bytes scanned, and where in them. */
  protected bytes: Uint8Array = new Uint8Array(0);
  protected at = 0;
  /**
   * The deepest an object or array may lie ({@link value}'s `depth`); deeper throws {@link TooDeep}, so that a
   * hostile nesting stops the scan instead of overflowing its stack.
   */
  protected depthLimit = 1_000;

  protected keyIs(start: number, key: string): boolean {
    for (let offset = 0; offset < key.length; offset++) if (this.bytes[start + offset] !== key.charCodeAt(offset)) return false;
    return true;
  }

  protected literal(text: string): boolean {
    for (let offset = 0; offset < text.length; offset++) if (this.bytes[this.at + offset] !== text.charCodeAt(offset)) return false;
    this.at += text.length;
    return true;
  }

  /** A positive integer in plain decimal of at most 15 digits (exact as a number). */
  protected plainInteger(): number {
    const bytes = this.bytes;
    const start = this.at;
    let value = 0;
    while (bytes[this.at]! >= ZERO && bytes[this.at]! <= NINE) value = value * 10 + (bytes[this.at++]! - ZERO);
    const digits = this.at - start;
    if (digits === 0 || digits > 15 || bytes[start] === ZERO) throw new GiveUp();
    return value;
  }

  /** Any JSON value, checked; `depth` is how deep it lies (a record of a state being 1), bounded by {@link depthLimit}. */
  protected value(depth: number): void {
    const bytes = this.bytes;
    const first = bytes[this.at];
    if (first === QUOTE) return this.string();
    if (first === OPEN_BRACE) {
      if (depth > this.depthLimit) throw new TooDeep();
      this.at++;
      this.space();
      if (bytes[this.at] === CLOSE_BRACE) {
        this.at++;
        return;
      }
      for (;;) {
        this.space();
        this.string();
        this.space();
        this.expect(COLON);
        this.space();
        this.value(depth + 1);
        this.space();
        const next = bytes[this.at++];
        if (next === COMMA) continue;
        if (next === CLOSE_BRACE) return;
        throw new GiveUp();
      }
    }
    if (first === OPEN_BRACKET) {
      if (depth > this.depthLimit) throw new TooDeep();
      this.at++;
      this.space();
      if (bytes[this.at] === CLOSE_BRACKET) {
        this.at++;
        return;
      }
      for (;;) {
        this.space();
        this.value(depth + 1);
        this.space();
        const next = bytes[this.at++];
        if (next === COMMA) continue;
        if (next === CLOSE_BRACKET) return;
        throw new GiveUp();
      }
    }
    if (first === MINUS || (first !== undefined && first >= ZERO && first <= NINE)) return this.number();
    if (this.literal("true") || this.literal("false") || this.literal("null")) return;
    throw new GiveUp();
  }

  /** A string: no raw control character, escapes as RFC 8259 lists them. */
  protected string(): void {
    const bytes = this.bytes;
    if (bytes[this.at] !== QUOTE) throw new GiveUp();
    let at = this.at + 1;
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
    this.at = at;
  }

  /** `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?` */
  protected number(): void {
    const bytes = this.bytes;
    if (bytes[this.at] === MINUS) this.at++;
    if (bytes[this.at] === ZERO) this.at++;
    else if (!this.digits()) throw new GiveUp();
    if (bytes[this.at] === 0x2e) {
      this.at++;
      if (!this.digits()) throw new GiveUp();
    }
    if (bytes[this.at] === 0x65 || bytes[this.at] === 0x45) {
      this.at++;
      if (bytes[this.at] === 0x2b || bytes[this.at] === MINUS) this.at++;
      if (!this.digits()) throw new GiveUp();
    }
  }

  protected digits(): boolean {
    const start = this.at;
    while (this.bytes[this.at]! >= ZERO && this.bytes[this.at]! <= NINE) this.at++;
    return this.at > start;
  }

  protected space(): void {
    const bytes = this.bytes;
    for (;;) {
      const byte = bytes[this.at];
      if (byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09) this.at++;
      else return;
    }
  }

  protected peek(): number | undefined {
    return this.bytes[this.at];
  }

  protected expect(byte: number): void {
    if (this.bytes[this.at] !== byte) throw new GiveUp();
    this.at++;
  }
}

function isHexDigit(byte: number | undefined): boolean {
  return byte !== undefined && ((byte >= ZERO && byte <= NINE) || (byte >= 0x41 && byte <= 0x46) || (byte >= 0x61 && byte <= 0x66));
}

