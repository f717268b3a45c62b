import { existsSync, renameSync, rmSync, truncateSync } from "node:fs";
import { readJournal } from "./journal-lines.ts";
import type { Database } from "../../../mock/store/records.ts";
import { ChangeApplier } from "../../../mock/store/state-change.ts";
import { ensureDirectory, removeTemporaryFiles, StateFileError, syncDirectory, type StateFiles } from "./state-files.ts";
import type { StateMeta } from "../../../mock/store/state-persistence.ts";
import { readSnapshot, writeSnapshotNow } from "./state-snapshot.ts";

/** A state read back from its files at start-up. */
export interface LoadedState {
  state: Database;
  meta: StateMeta;
  /** What the start-up did that a person may want to know: temporary files removed, a torn line cut off. */
  notes: string[];
  /** The state was read from the files (false: they did not exist, and it is the seed). */
  restored: boolean;
}

/**
 * Reads a `--db` state at start-up: the snapshot, then every journal line after its sequence number, in order
 * (the lines of an interrupted compaction first). Lines the snapshot already holds are skipped, so nothing is
 * applied twice. Then it leaves the files ready for appending: the temporary files of an interrupted write
 * removed, a torn last line cut off, and, when there was no snapshot (first start), one written by an older
 * version, or a compaction was interrupted, a fresh snapshot written and synced before the mock answers.
 *
 * Unreadable files are refused with a {@link StateFileError} naming the file and line, and left untouched; so
 * is a place that cannot be written (naming the path and the OS error).
 */
export function loadState(files: StateFiles, seed: () => Database, newSecret: () => string): LoadedState {
  ensureDirectory(files);
  const notes: string[] = [];
  let removed: string[];
  try {
    removed = removeTemporaryFiles(files);
  } catch (error) {
    throw new StateFileError(`Cannot use --db ${files.snapshot}: ${(error as Error).message}`);
  }
  if (removed.length > 0) notes.push(`Removed what an interrupted write left: ${removed.join(", ")}`);

  const snapshot = readSnapshot(files.snapshot);
  const interrupted = readJournal(files.compacting);
  const journal = readJournal(files.journal);
  const interruptedCompaction = existsSync(files.compacting);

  const meta: StateMeta = snapshot?.meta ?? { seq: 0, nextId: 0, nextUid: 0, autologin: { secret: newSecret(), issued: 0 } };
  const applier = new ChangeApplier(snapshot?.state ?? seed(), seed);
  let replayed = 0;
  for (const entry of [...interrupted.entries, ...journal.entries]) {
    if (entry.seq <= meta.seq) continue;
    applier.apply(entry.change);
    meta.seq = entry.seq;
    // The counters as they were when the line was written: the latest win, since a reset starts them again.
    meta.nextId = entry.sequences.nextId;
    meta.nextUid = entry.sequences.nextUid;
    meta.autologin.issued = entry.sequences.tokensIssued;
    replayed += 1;
  }
  if (replayed > 0) notes.push(`Replayed ${replayed} changes from the journal`);
  if (journal.torn || interrupted.torn) notes.push("Ignored a torn last journal line (a write cut short, never acknowledged)");

  try {
    if (!snapshot || !snapshot.meta || interruptedCompaction) {
      // Fold everything into a new snapshot now: nothing may depend on a seed that could change, or on two journals.
      writeSnapshotNow(files.temporary, applier.state, meta);
      renameSync(files.temporary, files.snapshot);
      syncDirectory(files.directory);
      rmSync(files.compacting, { force: true });
      rmSync(files.journal, { force: true });
      syncDirectory(files.directory);
    } else if (journal.torn) {
      truncateSync(files.journal, journal.goodBytes);
    }
  } catch (error) {
    rmSync(files.temporary, { force: true });
    throw new StateFileError(`Cannot use --db ${files.snapshot}: ${(error as Error).message}`);
  }
  return { state: applier.state, meta, notes, restored: snapshot !== undefined };
}
