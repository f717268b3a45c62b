/** A slot no id holds. */
const NONE = -1;
/** Ids a typed array spans at least before it is judged sparse. */
const MIN_SPAN = 1024;
/** The span of ids a typed array may take, as a multiple of the ids it holds (and MIN_SPAN). */
const MAX_SPAN_PER_ID = 4;

/**
 * Where each record of a store lies (a slot number, 0 to 2^31 - 1), by its id: read on every GET of a property,
 * twice (the property's owner, then its kept answer). A `Map` of 100,000 entries cost each GET two hash lookups
 * whose entries were rarely in the processor's cache. The ids of a store are dense (the fixtures' 1001, 1002, …,
 * then the ids the mock gives, one more each time), so the slots are kept in a typed array indexed by the id's
 * distance from the lowest: a lookup reads one number, and 100,000 ids take 400 KB instead of some 3 MiB.
 *
 * Ids that are not dense (a raw write with an id far beyond the others: any safe integer is one) would make
 * that array as large as their span: once the span would exceed {@link MAX_SPAN_PER_ID} times the ids held, the
 * index moves to a `Map` for good (until `clear`), whatever ids come. Answers do not depend on which it is.
 */
export class IdIndex {
  /** The id at position 0 of `#slots`. */
  #base = 0;
  #slots = new Int32Array(0);
  /** The ids and slots, once the ids are not dense. */
  #map: Map<number, number> | undefined;
  #size = 0;

  /** How many ids the index holds. */
  get size(): number {
    return this.#map ? this.#map.size : this.#size;
  }

  /** The slot of an id, or undefined. */
  get(id: number): number | undefined {
    if (this.#map) return this.#map.get(id);
    const slot = this.#slots[id - this.#base];
    return slot === undefined || slot === NONE ? undefined : slot;
  }

  has(id: number): boolean {
    return this.get(id) !== undefined;
  }

  /** Puts an id's slot, in place of the one it had. */
  set(id: number, slot: number): void {
    if (this.#map) {
      this.#map.set(id, slot);
      return;
    }
    if (!Number.isSafeInteger(id) || !this.#spans(id)) {
      this.#toMap().set(id, slot);
      return;
    }
    const at = id - this.#base;
    if (this.#slots[at] === NONE) this.#size += 1;
    this.#slots[at] = slot;
  }

  /** Removes an id; false when it was not there. */
  delete(id: number): boolean {
    if (this.#map) return this.#map.delete(id);
    const at = id - this.#base;
    const slot = this.#slots[at];
    if (slot === undefined || slot === NONE) return false;
    this.#slots[at] = NONE;
    this.#size -= 1;
    return true;
  }

  /** Empties the index, which starts again as a typed array. */
  clear(): void {
    this.#base = 0;
    this.#slots = new Int32Array(0);
    this.#map = undefined;
    this.#size = 0;
  }

  /** Makes the typed array span the id, growing it (with room to spare) if the ids stay dense; false if not. */
  #spans(id: number): boolean {
    const length = this.#slots.length;
    if (length > 0 && id >= this.#base && id < this.#base + length) return true;
    const empty = this.#size === 0;
    const low = empty ? id : Math.min(this.#base, id);
    const high = empty ? id : Math.max(this.#base + length - 1, id);
    const span = high - low + 1;
    const limit = Math.max(MIN_SPAN, MAX_SPAN_PER_ID * (this.#size + 1));
    if (span > limit) return false;
    // Room for as many ids again beyond the highest (ids given one more each time land there), within the limit.
    const room = Math.min(Math.max(span * 2, 64), limit);
    const grown = new Int32Array(room).fill(NONE);
    const base = id < this.#base || empty ? low : this.#base;
    if (!empty) grown.set(this.#slots, this.#base - base);
    this.#base = base;
    this.#slots = grown;
    return id - base < room;
  }

  /** Moves to a Map, for good (until `clear`). */
  #toMap(): Map<number, number> {
    const map = new Map<number, number>();
    for (let at = 0; at < this.#slots.length; at++) if (this.#slots[at] !== NONE) map.set(this.#base + at, this.#slots[at]!);
    this.#map = map;
    this.#slots = new Int32Array(0);
    return map;
  }
}
