import { IdIndex } from "./id-index.ts";

const utf8Encoder = new TextEncoder();

/** Bytes of one slab: answers are appended to the newest until it is full, then a new one is started. */
const SLAB_BYTES = 1 << 20;
/** A slab whose live answers take less than this share of it has them moved to the newest slab and is let go. */
const RELOCATE_BELOW = 0.5;
/** `slabOf` of a free slot. */
const FREE = -1;

/**
 * Encoded answers, each under a number, kept in a few large buffers (slabs of 1 MiB) instead of one buffer each:
 * at 100,000 properties one buffer per answer cost a buffer and a wrapper object each on the heap, and left
 * the 8 KiB pools they were cut from held by any answer still alive in them. An answer's place is three numbers
 * in typed arrays.
 *
 * Slabs are only appended to; an answer's bytes are never written over, so a view handed out (a response being
 * written) stays right whatever is put or deleted after. A deleted answer leaves its bytes dead in its slab; once
 * a slab's live bytes fall below half of it, its live answers are copied to the newest slab and the slab is let
 * go, so dead bytes never take more than about half of the slabs before the newest.
 */
export class AnswerArena<Answer> {
  readonly #wrap: (bytes: Uint8Array) => Answer;
  /** Each key's slot (id-index.ts: the keys are property ids). */
  readonly #slots = new IdIndex();
  /**
   * The answer object handed out for each slot, made on its first `get` and handed out again until the answer is
   * deleted or moved: a caller may remember an answer by identity (`--validate-responses` remembers the answers
   * that passed its check so), and only answers asked for take an object.
   */
  #handedOut: Array<Answer | undefined> = [];
  readonly #freeSlots: number[] = [];
  #slabOf = new Int32Array(1024).fill(FREE);
  #offsetOf = new Uint32Array(1024);
  #lengthOf = new Uint32Array(1024);
  /** A part of each answer its keeper marked (where a property's own members lie in its answer), from its start. */
  #partFrom = new Uint32Array(1024);
  #partTo = new Uint32Array(1024);
  /** The slabs; a slab let go leaves `undefined`. */
  #slabs: Array<Uint8Array | undefined> = [];
  /** Live bytes of each slab. */
  #live: number[] = [];
  /** The slab appended to, and how far it is filled. */
  #current = -1;
  #filled = 0;

  /** @param wrap makes the object handed out for an answer's bytes (a view of its slab). */
  constructor(wrap: (bytes: Uint8Array) => Answer) {
    this.#wrap = wrap;
  }

  /** Whether an answer is kept under this key. */
  has(key: number): boolean {
    return this.#slots.has(key);
  }

  /**
   * What is kept under this key, wrapping a view of its bytes (not a copy), or undefined: the same object each
   * time until it is deleted or moved.
   */
  get(key: number): Answer | undefined {
    const slot = this.#slots.get(key);
    if (slot === undefined) return undefined;
    let answer = this.#handedOut[slot];
    if (answer === undefined) {
      const offset = this.#offsetOf[slot]!;
      answer = this.#handedOut[slot] = this.#wrap(this.#slabs[this.#slabOf[slot]!]!.subarray(offset, offset + this.#lengthOf[slot]!));
    }
    return answer;
  }

  /**
   * Keeps the UTF-8 encoding of `text` under `key`, in place of what was kept under it, with a part of it marked:
   * from byte `partFrom` (of a text whose first `partFrom` characters are ASCII) to `tailBytes` before its end.
   */
  set(key: number, text: string, partFrom = 0, tailBytes = 0): void {
    this.delete(key);
    const { slab, offset, length } = this.#write(text);
    const slot = this.#freeSlots.pop() ?? this.#newSlot();
    this.#slabOf[slot] = slab;
    this.#offsetOf[slot] = offset;
    this.#lengthOf[slot] = length;
    this.#partFrom[slot] = partFrom;
    this.#partTo[slot] = length - tailBytes;
    this.#live[slab]! += length;
    this.#slots.set(key, slot);
  }

  /** The bytes of the part marked in what is kept under `key` (a view of its slab, not a copy). */
  part(key: number): Uint8Array | undefined {
    const slot = this.#slots.get(key);
    if (slot === undefined) return undefined;
    const offset = this.#offsetOf[slot]!;
    return this.#slabs[this.#slabOf[slot]!]!.subarray(offset + this.#partFrom[slot]!, offset + this.#partTo[slot]!);
  }

  /** What `read` makes of the bytes kept under `key`, given where they lie in their slab (no view is made), or undefined. */
  read<T>(key: number, read: (slab: Uint8Array, offset: number, length: number) => T): T | undefined {
    const slot = this.#slots.get(key);
    if (slot === undefined) return undefined;
    return read(this.#slabs[this.#slabOf[slot]!]!, this.#offsetOf[slot]!, this.#lengthOf[slot]!);
  }

  /** Drops what is kept under `key`, if anything. */
  delete(key: number): void {
    const slot = this.#slots.get(key);
    if (slot === undefined) return;
    this.#slots.delete(key);
    const slab = this.#slabOf[slot]!;
    this.#live[slab]! -= this.#lengthOf[slot]!;
    this.#slabOf[slot] = FREE;
    this.#handedOut[slot] = undefined;
    this.#freeSlots.push(slot);
    if (slab !== this.#current && this.#live[slab]! < this.#slabs[slab]!.length * RELOCATE_BELOW) this.#relocate(slab);
  }

  /** Drops every answer and lets every slab go. */
  clear(): void {
    this.#slots.clear();
    this.#freeSlots.length = 0;
    this.#slabOf.fill(FREE);
    this.#handedOut = [];
    this.#slabs = [];
    this.#live = [];
    this.#current = -1;
    this.#filled = 0;
  }

  /**
   * Writes the UTF-8 encoding of `text` into the rest of the newest slab, or, when it does not fit there, into a new
   * slab (one of its own if it could exceed a slab: a UTF-16 unit takes at most three bytes). Host-neutral: no
   * `Buffer`, and no second pass to measure the text first.
   */
  #write(text: string): { slab: number; offset: number; length: number } {
    if (this.#current >= 0) {
      const slab = this.#slabs[this.#current]!;
      const { read, written } = utf8Encoder.encodeInto(text, slab.subarray(this.#filled));
      if (read === text.length) {
        const offset = this.#filled;
        this.#filled += written;
        return { slab: this.#current, offset, length: written };
      }
    }
    const slab = this.#addSlab(new Uint8Array(Math.max(SLAB_BYTES, text.length * 3)));
    const { written } = utf8Encoder.encodeInto(text, this.#slabs[slab]!);
    this.#current = slab;
    this.#filled = written;
    return { slab, offset: 0, length: written };
  }

  /** Where `length` bytes go: the rest of the newest slab, a new slab, or one of their own if they exceed a slab. */
  #room(length: number): { slab: number; offset: number } {
    if (this.#current >= 0 && this.#filled + length <= this.#slabs[this.#current]!.length) {
      const offset = this.#filled;
      this.#filled += length;
      return { slab: this.#current, offset };
    }
    const slab = this.#addSlab(new Uint8Array(Math.max(SLAB_BYTES, length)));
    this.#current = slab;
    this.#filled = length;
    return { slab, offset: 0 };
  }

  #addSlab(buffer: Uint8Array): number {
    // A let-go slab's place is taken again, so the list does not grow with churn.
    let slab = this.#slabs.indexOf(undefined);
    if (slab < 0) slab = this.#slabs.length;
    this.#slabs[slab] = buffer;
    this.#live[slab] = 0;
    return slab;
  }

  /** Copies a slab's live answers to the newest slab (or new ones) and lets it go. */
  #relocate(slab: number): void {
    const from = this.#slabs[slab]!;
    for (let slot = 0; slot < this.#slabOf.length; slot++) {
      if (this.#slabOf[slot] !== slab) continue;
      const offset = this.#offsetOf[slot]!;
      const length = this.#lengthOf[slot]!;
      const to = this.#room(length);
      this.#slabs[to.slab]!.set(from.subarray(offset, offset + length), to.offset);
      this.#slabOf[slot] = to.slab;
      this.#offsetOf[slot] = to.offset;
      this.#live[to.slab]! += length;
      // A new object on its next `get`: the one handed out keeps the old slab alive only while it is in use.
      this.#handedOut[slot] = undefined;
    }
    // Views handed out before keep the old buffer alive as long as they need it.
    this.#slabs[slab] = undefined;
    this.#live[slab] = 0;
  }

  #newSlot(): number {
    const slot = this.#slots.size;
    if (slot >= this.#slabOf.length) {
      const grow = <T extends Int32Array | Uint32Array>(array: T, make: (length: number) => T): T => {
        const bigger = make(array.length * 2);
        bigger.set(array);
        return bigger;
      };
      this.#slabOf = grow(this.#slabOf, (length) => new Int32Array(length).fill(FREE));
      this.#offsetOf = grow(this.#offsetOf, (length) => new Uint32Array(length));
      this.#lengthOf = grow(this.#lengthOf, (length) => new Uint32Array(length));
      this.#partFrom = grow(this.#partFrom, (length) => new Uint32Array(length));
      this.#partTo = grow(this.#partTo, (length) => new Uint32Array(length));
    }
    return slot;
  }
}
