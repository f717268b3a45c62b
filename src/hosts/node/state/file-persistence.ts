import { loadState } from "./load-state.ts";
import type { Database } from "../../../mock/store/records.ts";
import { stateFilesOf, StateFileError } from "./state-files.ts";
import { DEFAULT_COMPACT_AFTER_BYTES, StateJournal, type JournalIo, type SyncMode } from "./state-journal.ts";
import type { StatePersistence } from "../../../mock/store/state-persistence.ts";

/** Options of {@link filePersistence}: the `--db` flags. */
export interface FilePersistenceOptions {
  /** The snapshot's path (`--db`); the journal sits beside it. */
  db: string;
  sync?: SyncMode;
  compactAfter?: number;
  io?: JournalIo;
}

/**
 * The Node host's persistence port: the `--db` snapshot and journal (load-state.ts, state-journal.ts). The state
 * is read back here, at once, so that a place that cannot be used stops the start; a place the journal cannot be
 * opened in stops it too.
 */
export function filePersistence(
  options: FilePersistenceOptions,
  seed: () => Database,
  newSecret: () => string,
): StatePersistence {
  const files = stateFilesOf(options.db);
  const restored = loadState(files, seed, newSecret);
  return {
    restored,
    open(access) {
      try {
        return new StateJournal({
          files,
          seq: restored.meta.seq,
          sync: options.sync ?? "fsync",
          compactAfterBytes: options.compactAfter ?? DEFAULT_COMPACT_AFTER_BYTES,
          state: access.state,
          meta: access.meta,
          log: access.log,
          writeSecret: restored.writeSecret,
          ...(options.io ? { io: options.io } : {}),
        });
      } catch (error) {
        throw new StateFileError(`Cannot use --db ${files.snapshot}: ${(error as Error).message}`);
      }
    },
  };
}
