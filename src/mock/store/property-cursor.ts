import { CLOSE_BRACE, CLOSE_BRACKET, COLON, COMMA, decoder, GiveUp, JsonCursor, MINUS, NINE, OPEN_BRACE, OPEN_BRACKET, QUOTE, ZERO } from "./json-cursor.ts";
import type { PropertySpans } from "./scan-state-text.ts";

/**
 * One property of a state file, scanned from its bytes (scan-state-text.ts): its id and owner read from its first
 * members as the mock writes them (`{"id":1001,"uid":1,`), its external id and the nids of its tours and videos
 * (which feed the store's nid sequence) found as the rest of it is checked. A property laid out otherwise gives
 * up, and the file is parsed whole.
 */
export class PropertyCursor extends JsonCursor {
  /** One property: its first members read as the mock writes them (`{"id":1001,"uid":1,`), the rest scanned. */
  protected property(spans: PropertySpans, index: number): void {
    this.expect(OPEN_BRACE);
    this.space();
    if (!this.literal('"id"')) throw new GiveUp();
    this.space();
    this.expect(COLON);
    this.space();
    spans.id[index] = this.plainInteger();
    this.space();
    this.expect(COMMA);
    this.space();
    if (!this.literal('"uid"')) throw new GiveUp();
    this.space();
    this.expect(COLON);
    this.space();
    spans.uid[index] = this.plainInteger();
    this.space();
    let externalId: string | undefined;
    let tours = 0;
    let videos = 0;
    if (this.peek() === COMMA) {
      for (;;) {
        this.expect(COMMA);
        this.space();
        const keyStart = this.at;
        this.string();
        const keyLength = this.at - keyStart;
        // A second "id" or "uid" would be the one JSON.parse keeps: such a property is not read from its head.
        if ((keyLength === 4 || keyLength === 5) && (this.keyIs(keyStart, '"id"') || this.keyIs(keyStart, '"uid"'))) throw new GiveUp();
        const isExternalId = keyLength === 13 && this.keyIs(keyStart, '"external_id"');
        const isTours = keyLength === 15 && this.keyIs(keyStart, '"virtual_tours"');
        const isVideos = keyLength === 17 && this.keyIs(keyStart, '"property_videos"');
        this.space();
        this.expect(COLON);
        this.space();
        const valueStart = this.at;
        // As mock-store.ts reads them: tours in an object (not an array), videos in an object or an array.
        if (isTours) tours = this.nestedNids(false);
        else if (isVideos) videos = this.nestedNids(true);
        else {
          this.value(2);
          if (isExternalId) externalId = this.externalId(valueStart);
        }
        this.space();
        if (this.peek() !== COMMA) break;
      }
    }
    this.expect(CLOSE_BRACE);
    spans.externalId[index] = externalId;
    spans.nestedId[index] = Math.max(tours, videos);
  }

  /**
   * A property's tours or videos, scanned, and the largest `nid` among its members (or elements, for videos) that
   * are objects: each one's last `nid` member, as `JSON.parse` keeps it, counted when it is a positive integer
   * below 2^52; 0 for any other value.
   */
  protected nestedNids(elementsToo: boolean): number {
    const bytes = this.bytes;
    const first = bytes[this.at];
    const isObject = first === OPEN_BRACE;
    if (!isObject && !(elementsToo && first === OPEN_BRACKET)) {
      this.value(2);
      return 0;
    }
    const close = isObject ? CLOSE_BRACE : CLOSE_BRACKET;
    let max = 0;
    this.at++;
    this.space();
    if (bytes[this.at] === close) {
      this.at++;
      return 0;
    }
    for (;;) {
      this.space();
      if (isObject) {
        this.string();
        this.space();
        this.expect(COLON);
        this.space();
      }
      if (bytes[this.at] === OPEN_BRACE) {
        const nid = this.lastNid();
        if (nid > max && nid < FEED_LIMIT) max = nid;
      } else this.value(3);
      this.space();
      const next = bytes[this.at++];
      if (next === COMMA) continue;
      if (next === close) return max;
      throw new GiveUp();
    }
  }

  /** An object, scanned: its last `nid` member if that is a positive integer, else 0. */
  protected lastNid(): number {
    const bytes = this.bytes;
    let nid = 0;
    this.at++;
    this.space();
    if (bytes[this.at] === CLOSE_BRACE) {
      this.at++;
      return 0;
    }
    for (;;) {
      this.space();
      const keyStart = this.at;
      this.string();
      const isNid = this.at - keyStart === 5 && this.keyIs(keyStart, '"nid"');
      this.space();
      this.expect(COLON);
      this.space();
      const valueStart = this.at;
      this.value(4);
      if (isNid) nid = nidValue(bytes, valueStart, this.at);
      this.space();
      const next = bytes[this.at++];
      if (next === COMMA) continue;
      if (next === CLOSE_BRACE) return nid;
      throw new GiveUp();
    }
  }

  /** An external id as the index keys it: a string, or none for null (any other value gives up). */
  protected externalId(start: number): string | undefined {
    if (this.bytes[start] === QUOTE) return JSON.parse(decoder.decode(this.bytes.subarray(start, this.at))) as string;
    if (this.at - start === 4 && this.keyIs(start, "null")) return undefined;
    throw new GiveUp();
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

