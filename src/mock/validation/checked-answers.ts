import type { JsonBytes } from "../json-bytes.ts";

/** Most answers remembered by their text; the first remembered is forgotten first. */
export const MAX_CHECKED_TEXTS = 1_000;
/** Longest answer text remembered (UTF-16 code units); longer ones are checked every time they are sent. */
export const MAX_CHECKED_TEXT_LENGTH = 16_384;

/**
 * Answers that passed the contract check of `--validate-responses`, so that an answer sent again, byte for
 * byte, for the same operation, status and media type is not checked again: the check is a function of those
 * four alone (the contract does not change while the mock runs), so its verdict would be the same. A page that
 * polls a property, or a test that reads it after every step, gets the same bytes each time; checking them
 * again cost about a tenth of the mock's time per request.
 *
 * Only passes are kept: an answer that breaks the contract is checked, and reported, every time it is sent.
 * - Answers encoded as text per request are kept by request (the check and the path, a short key) with the
 *   text that passed: a later answer to the same request passes if its text is equal, which costs a string
 *   comparison rather than hashing the text. At most {@link MAX_CHECKED_TEXTS} of at most
 *   {@link MAX_CHECKED_TEXT_LENGTH} characters each (16 MiB of text in all, at worst), the first remembered
 *   forgotten first: an answer still sent after a thousand others is checked again, once.
 * - Answers the mock keeps already encoded ({@link JsonBytes}: a user's whole list) are kept by identity, for as
 *   long as the mock itself keeps them: it makes new bytes when the state changes.
 */
export class CheckedAnswers {
  /** The check and path of a request → the text of the answer to it that passed last. */
  readonly #texts = new Map<string, string>();
  readonly #encoded = new WeakMap<JsonBytes, string>();

  /**
   * Whether this text passed this check before, as the answer to this path.
   * @param check the operation, status and media type of the answer
   */
  passedText(check: string, path: string, text: string): boolean {
    return this.#texts.get(`${check} ${path}`) === text;
  }

  /** Remembers that this text passed this check as the answer to this path. */
  addText(check: string, path: string, text: string): void {
    if (text.length > MAX_CHECKED_TEXT_LENGTH) return;
    const key = `${check} ${path}`;
    this.#texts.delete(key);
    this.#texts.set(key, text);
    if (this.#texts.size > MAX_CHECKED_TEXTS) this.#texts.delete(this.#texts.keys().next().value!);
  }

  /** Whether these encoded bytes passed this check before. */
  passedEncoded(bytes: JsonBytes, check: string): boolean {
    return this.#encoded.get(bytes) === check;
  }

  /** Remembers that these encoded bytes passed this check. */
  addEncoded(bytes: JsonBytes, check: string): void {
    this.#encoded.set(bytes, check);
  }

  /** How many answer texts are remembered (for tests of the bound). */
  get size(): number {
    return this.#texts.size;
  }
}
