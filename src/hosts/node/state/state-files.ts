import { closeSync, fsyncSync, mkdirSync, openSync, readdirSync, rmSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { StateFileError } from "../../../mock/store/state-file-error.ts";
import { stateFormatOf, type StateFormat } from "./state-format.ts";

/**
 * The files of a `--db` state, all beside the path given:
 *
 * | file | holds |
 * |---|---|
 * | `state.json` | the snapshot: the whole state as of a sequence number, in the form its name says (state-format.ts) |
 * | `state.json.journal` | every change since, one JSON line each, appended and synced before it is answered |
 * | `state.json.journal.compacting` | only while a compaction runs: the changes the new snapshot is being made of |
 * | `state.json.tmp` | only while a compaction runs: the new snapshot, renamed over `state.json` once synced |
 */
export interface StateFiles {
  snapshot: string;
  journal: string;
  compacting: string;
  temporary: string;
  directory: string;
  /** The snapshot's form, from its name. */
  format: StateFormat;
}

/** The names of the files of a state kept at `dbFile`. */
export function stateFilesOf(dbFile: string): StateFiles {
  return {
    snapshot: dbFile,
    journal: `${dbFile}.journal`,
    compacting: `${dbFile}.journal.compacting`,
    temporary: `${dbFile}.tmp`,
    directory: dirname(dbFile),
    format: stateFormatOf(dbFile),
  };
}

export { StateFileError };

/** Creates the directory of the state when it is missing; a message naming the path and the OS error if it cannot. */
export function ensureDirectory(files: StateFiles): void {
  try {
    mkdirSync(files.directory, { recursive: true });
  } catch (error) {
    throw new StateFileError(`Cannot use --db ${files.snapshot}: ${(error as Error).message}`);
  }
}

/**
 * Removes what an interrupted write left behind: the new snapshot of a compaction that did not finish, and the
 * `state.json.<pid>.tmp` files earlier versions of the mock wrote. Nothing else in the directory is touched.
 */
export function removeTemporaryFiles(files: StateFiles): string[] {
  const prefix = basename(files.snapshot);
  const removed: string[] = [];
  for (const name of readdirSync(files.directory)) {
    if (
      name === basename(files.temporary) ||
      (name.startsWith(`${prefix}.`) && /^\.[0-9]+\.tmp$/.test(name.slice(prefix.length)))
    ) {
      const path = join(files.directory, name);
      rmSync(path, { force: true });
      removed.push(path);
    }
  }
  return removed;
}

/**
 * Makes the directory's entries (a rename, a new or removed file) durable: a synced file is not enough for a
 * rename to survive a crash of the machine.
 */
export function syncDirectory(directory: string): void {
  const fd = openSync(directory, "r");
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
