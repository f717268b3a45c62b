import type { JsonBytes } from "../json-bytes.ts";

/** Most answers remembered by their text; the least recently sent is forgotten first. */
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
 * - Answers encoded as text per request are kept by their text: at most {@link MAX_CHECKED_TEXTS} of at most
 *   {@link MAX_CHECKED_TEXT_LENGTH} characters each (16 MiB of text in all, at worst), least recently sent
 *   forgotten first.
 * - Answers the mock keeps already encoded ({@link JsonBytes}: a user's whole list) are kept by identity, for as
 *   long as the mock itself keeps them: it makes new bytes when the state changes.
 */
export class CheckedAnswers {
  /** Text of a passed answer → the check it passed (operation, status, media type). */
  readonly #texts = new Map<string, string>();
  readonly #encoded = new WeakMap<JsonBytes, string>();

  /** Whether this text passed this check before (and is then the most recently sent). */
  passedText(text: string, check: string): boolean {
    const passed = this.#texts.get(text);
    if (passed !== check) return false;
    this.#texts.delete(text);
    this.#texts.set(text, check);
    return true;
  }

  /** Remembers that this text passed this check. */
  addText(text: string, check: string): void {
    if (text.length > MAX_CHECKED_TEXT_LENGTH) return;
    this.#texts.delete(text);
    this.#texts.set(text, check);
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
