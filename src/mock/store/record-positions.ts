/**
 * Where each record sits in its collection's array, so that replacing or removing one does not search the array.
 * Built on first need after {@link forget} (most runs never remove, and building it walks every record: a large
 * store's start would pay for it), then kept up to date.
 */
export class RecordPositions {
  readonly #arrays: () => Iterable<readonly object[]>;
  #map: Map<object, number> | undefined;

  /** @param arrays every collection's array, to build the positions from. */
  constructor(arrays: () => Iterable<readonly object[]>) {
    this.#arrays = arrays;
  }

  /** The arrays were replaced (a reindex): the positions are built again when next needed. */
  forget(): void {
    this.#map = undefined;
  }

  append<T extends object>(records: T[], record: T): void {
    this.#map?.set(record, records.length);
    records.push(record);
  }

  /** Puts `record` in the place of `existing`; false (nothing changed) when `existing` is not in the array. */
  replace<T extends object>(records: T[], existing: T, record: T): boolean {
    const positions = this.#positions();
    const at = positions.get(existing);
    if (at === undefined || records[at] !== existing) return false;
    records[at] = record;
    positions.delete(existing);
    positions.set(record, at);
    return true;
  }

  /** Removes a record in constant time: the last record of the array takes its place. */
  remove<T extends object>(records: T[], record: T): void {
    const positions = this.#positions();
    const at = positions.get(record);
    if (at === undefined || records[at] !== record) return;
    const last = records.pop()!;
    if (last !== record) {
      records[at] = last;
      positions.set(last, at);
    }
    positions.delete(record);
  }

  #positions(): Map<object, number> {
    if (this.#map) return this.#map;
    const positions = new Map<object, number>();
    for (const records of this.#arrays())
      for (let index = 0; index < records.length; index++) positions.set(records[index]!, index);
    return (this.#map = positions);
  }
}
