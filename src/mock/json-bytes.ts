/**
 * A JSON answer already encoded. The HTTP layer writes it as it is instead of calling `JSON.stringify` on a
 * value: for the largest answer (a user's whole list of properties) the encoding of each item is kept between
 * answers (`services/encoded-property-lists.ts`), and joining bytes is several times faster than stringifying
 * tens of thousands of objects again; an answer checked by `--validate-responses` is encoded once, and the text
 * checked is the text sent.
 */
export class JsonBytes {
  /** @param encoded one JSON value: its UTF-8 bytes, or its text. */
  constructor(readonly encoded: Uint8Array | string) {}

  /**
   * The value the bytes encode, for what needs the value rather than the text (checking the answer against the
   * contract).
   */
  value(): unknown {
    return JSON.parse(this.text());
  }

  /** The JSON text. */
  text(): string {
    return typeof this.encoded === "string" ? this.encoded : utf8Decoder.decode(this.encoded);
  }

  /** `JSON.stringify` of a `JsonBytes` gives the same JSON as its bytes. */
  toJSON(): unknown {
    return this.value();
  }
}

const utf8Encoder = new TextEncoder();
const utf8Decoder = new TextDecoder();

/** The UTF-8 bytes of a text, in any host (`Buffer.from` is Node's only). */
export function utf8Bytes(text: string): Uint8Array {
  return utf8Encoder.encode(text);
}
