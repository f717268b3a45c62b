import type { CollectionName, Database } from "./records.ts";

/**
 * One change of the mock's state, as the store reports it and the journal keeps it. A change carries the whole
 * record as it is after the change (or the id of a record that is gone), never a difference: applying a
 * change twice, or applying it to a state that already holds it, gives the same state. That is what makes a
 * replay after a crash safe wherever it starts.
 */
export type StateChange =
  | { kind: "put"; collection: CollectionName; record: { id: number } }
  | { kind: "remove"; collection: CollectionName; id: number }
  /** Back to the seeded state (`POST /__admin/reset`). */
  | { kind: "reset" };

/**
 * Applies changes to a plain state (at start-up, before the store indexes it). `seed` gives the seeded state
 * a reset goes back to. Positions are kept in a map per collection, so a replay is linear in its length.
 */
export class ChangeApplier {
  #state: Database;
  readonly #seed: () => Database;
  #positions = new Map<CollectionName, Map<number, number>>();

  constructor(state: Database, seed: () => Database) {
    this.#state = state;
    this.#seed = seed;
  }

  get state(): Database {
    return this.#state;
  }

  apply(change: StateChange): void {
    if (change.kind === "reset") {
      this.#state = this.#seed();
      this.#positions = new Map();
      return;
    }
    const records = this.#state[change.collection] as Array<{ id: number }>;
    const positions = this.#positionsOf(change.collection);
    const id = change.kind === "put" ? change.record.id : change.id;
    const at = positions.get(id);
    if (change.kind === "put") {
      if (at === undefined) {
        positions.set(id, records.length);
        records.push(change.record);
      } else {
        records[at] = change.record;
      }
      return;
    }
    if (at === undefined) return;
    // The store removes by moving the last record into the gap; doing the same keeps the order it had.
    const last = records.pop()!;
    positions.delete(id);
    if (at < records.length) {
      records[at] = last;
      positions.set(last.id, at);
    }
  }

  #positionsOf(collection: CollectionName): Map<number, number> {
    let positions = this.#positions.get(collection);
    if (!positions) {
      positions = new Map();
      (this.#state[collection] as Array<{ id: number }>).forEach((record, index) => positions!.set(record.id, index));
      this.#positions.set(collection, positions);
    }
    return positions;
  }
}
