import { firstRecordFault } from "../../mock/store/record-fault.ts";
import type { Database } from "../../mock/store/records.ts";
import type { PersistedState, ChangeLog, StatePersistence } from "../../mock/store/state-persistence.ts";
import type { StateMeta } from "../../mock/store/state-persistence.ts";

/** The part of the Web Storage API the port uses (`sessionStorage`, `localStorage`, or a test's own). */
export interface KeyValueStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

/**
 * A persistence port over Web Storage, for a handler set whose state is kept across a reload of the page
 * (`persist: "sessionStorage"`). After the changes of one turn, the whole state and its counters are written
 * under `key` as one JSON text (the default fixtures are some 75 KB); a start reads them back, or starts from the
 * seed when there is nothing, or what is there is not a saved state, or holds a record the mock cannot hold (it
 * is then replaced on the first change).
 * A write that fails (the storage is full) is the port's problem, which `/healthz` reports, and changes stay in
 * memory.
 */
export function storagePersistence(storage: KeyValueStorage, key: string): StatePersistence {
  const restored = read(storage, key);
  return {
    restored,
    open(access): ChangeLog {
      let pending = false;
      let problem: string | undefined;
      const write = () => {
        pending = false;
        try {
          storage.setItem(key, JSON.stringify({ $meta: { seq: 0, ...access.meta() }, state: access.state() }));
          problem = undefined;
        } catch (error) {
          problem = `The state cannot be kept in ${key}: ${(error as Error).message}`;
        }
      };
      return {
        append() {
          if (pending) return;
          pending = true;
          queueMicrotask(write);
        },
        saved: () => undefined,
        get problem() {
          return problem;
        },
        close: async () => {
          if (pending) write();
        },
      };
    },
  };
}

/** The saved state under `key`, if there is one of the right shape. */
function read(storage: KeyValueStorage, key: string): PersistedState | undefined {
  let saved: { $meta?: StateMeta; state?: Database } | undefined;
  try {
    const text = storage.getItem(key);
    saved = text === null ? undefined : (JSON.parse(text) as typeof saved);
  } catch {
    return undefined;
  }
  const meta = saved?.$meta;
  const state = saved?.state;
  if (
    !meta ||
    !state ||
    typeof meta.autologin?.secret !== "string" ||
    !Array.isArray(state.accounts) ||
    !Array.isArray(state.properties) ||
    !Array.isArray(state.agents) ||
    !Array.isArray(state.documents)
  )
    return undefined;
  // A record the store cannot hold (record-fault.ts) makes it no saved state either: the seed, not a crash later.
  if (firstRecordFault(state)) return undefined;
  return { state, meta, notes: [], restored: true };
}
