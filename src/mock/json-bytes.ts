/**
 * A JSON answer already encoded as UTF-8. The HTTP layer writes its bytes as they are instead of calling
 * `JSON.stringify` on a value: for the largest answer (a user's whole list of properties) the encoding of each
 * item is kept between answers (`services/encoded-list-items.ts`), and joining bytes is several times faster than
 * stringifying tens of thousands of objects again.
 */
export class JsonBytes {
  /** @param bytes one JSON value, UTF-8. */
  constructor(readonly bytes: Buffer) {}

  /** The value the bytes encode, for what needs the value rather than the text (checking the answer against the contract). */
  value(): unknown {
    return JSON.parse(this.bytes.toString("utf8"));
  }

  /** `JSON.stringify` of a `JsonBytes` gives the same JSON as its bytes. */
  toJSON(): unknown {
    return this.value();
  }
}
