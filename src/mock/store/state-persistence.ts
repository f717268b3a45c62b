import type { LogLevel } from "../log-line.ts";
import type { Database } from "./records.ts";
import type { StateChange } from "./state-change.ts";

/** What a saved state keeps beside the records (a `--db` snapshot under the key `$meta`). */
export interface StateMeta {
  /** The snapshot holds every change of the journal up to this sequence number (maybe some after it). */
  seq: number;
  /** The id sequences, so an id is never handed out twice, even after its record was removed. */
  nextId: number;
  nextUid: number;
  /** The secret auto-login tokens are signed with, and how many were issued. */
  autologin: { secret: string; issued: number };
}

/** Whether the changes an answer waited for are on disk, and if not, why. */
export type SaveResult = { saved: true } | { saved: false; reason: string };

/** A state read back at start (the `--db` files, on the Node side). */
export interface PersistedState {
  state: Database;
  meta: StateMeta;
  /** What reading it did that a person may want to know. */
  notes: string[];
  /** The state was read back (false: there was none, and it is the seed). */
  restored: boolean;
}

/** What a persistence port may read of the mock, as it is now, to save it. */
export interface PersistedAccess {
  state(): Database;
  meta(): Omit<StateMeta, "seq">;
  log(line: string, level: LogLevel): void;
}

/**
 * The log of changes a persistence port keeps once the mock runs (the Node host writes it as `<db>.journal`); not
 * the request journal, which lists API calls.
 */
export interface ChangeLog {
  /** Takes one change, as the store makes it. */
  append(change: StateChange): void;
  /** Resolves once every change so far is saved; undefined when there is nothing to wait for. */
  saved(): Promise<SaveResult> | undefined;
  /** Why changes cannot be saved right now, or undefined while they can. */
  readonly problem: string | undefined;
  /** Saves what is pending and lets go. */
  close(): Promise<void>;
}

/**
 * Where the mock's state outlives it: the port the core is given, knowing no file system. The Node host's is
 * file-backed (`--db`: a snapshot and a journal, file-persistence.ts); without one the state lives in memory.
 */
export interface StatePersistence {
  /** The state saved before, read at start; undefined starts from the seed. */
  readonly restored: PersistedState | undefined;
  /** Opens the change log every change goes through before it is answered. */
  open(access: PersistedAccess): ChangeLog;
}
