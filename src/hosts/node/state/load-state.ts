import { existsSync, renameSync, rmSync, truncateSync } from "node:fs";
import { readJournal, type ReadJournal } from "./journal-lines.ts";
import type { Database } from "../../../mock/store/records.ts";
import { ChangeApplier } from "../../../mock/store/state-change.ts";
import {
  ensureDirectory,
  removeTemporaryFiles,
  StateFileError,
  syncDirectory,
  type StateFiles,
} from "./state-files.ts";
import type { StateMeta } from "../../../mock/store/state-persistence.ts";
import { readSnapshot, writeSnapshotNow, type ReadSnapshot } from "./state-snapshot.ts";

/** A state read back from its files at start-up. */
export interface LoadedState {
  state: Database;
  meta: StateMeta;
  /** What the start-up did that a person may want to know: temporary files removed, a torn line cut off. */
  notes: string[];
  /** The state was read from the files (false: they did not exist, and it is the seed). */
  restored: boolean;
  /**
   * The snapshot has no meta and no journal line gave its secret: the journal's first write must (journal-lines.ts).
   */
  writeSecret: boolean;
}

/** A state's files read, nothing changed: the snapshot, the journals, the state they make. */
export interface ReadState {
  snapshot: ReadSnapshot | undefined;
  journal: ReadJournal;
  interrupted: ReadJournal;
  state: Database;
  meta: StateMeta;
  replayed: number;
}

/**
 * Reads a state's files and replays them, writing nothing: the snapshot, then every journal line after its
 * sequence number, in order (the lines of an interrupted compaction first). Lines the snapshot already holds are
 * skipped, so nothing is applied twice. A snapshot without a meta of its own takes the secret a journal line gave,
 * else a new one. Unreadable files are refused with a {@link StateFileError} naming the file and line.
 */
export function readState(files: StateFiles, seed: () => Database, newSecret: () => string): ReadState {
  const snapshot = readSnapshot(files.snapshot);
  const interrupted = readJournal(files.compacting);
  const journal = readJournal(files.journal);
  const secret = journal.secret ?? interrupted.secret;
  const meta: StateMeta = snapshot?.meta ?? {
    seq: 0,
    nextId: 0,
    nextUid: 0,
    autologin: { secret: secret ?? newSecret(), issued: 0 },
  };
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
  return { snapshot, journal, interrupted, state: applier.state, meta, replayed };
}

/**
 * Reads a `--db` state at start-up ({@link readState}), then leaves the files ready for appending: the temporary
 * files of an interrupted write removed, a torn last line cut off. The snapshot is written at start only when the
 * state is not yet in it: on the first start (there is no snapshot: the seed is written, so that nothing depends
 * on a seed that could change), or when a compaction was interrupted (its two journals are folded in). A snapshot
 * that exists is otherwise left as it is, in its form, until the journal is compacted.
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

  const read = readState(files, seed, newSecret);
  const { snapshot, journal, interrupted, meta } = read;
  const interruptedCompaction = existsSync(files.compacting);
  if (read.replayed > 0) notes.push(`Replayed ${read.replayed} changes from the journal`);
  if (journal.torn || interrupted.torn)
    notes.push("Ignored a torn last journal line (a write cut short, never acknowledged)");

  let written = false;
  try {
    if (!snapshot || interruptedCompaction) {
      writeSnapshotNow(files.temporary, files.format, read.state, meta);
      renameSync(files.temporary, files.snapshot);
      syncDirectory(files.directory);
      rmSync(files.compacting, { force: true });
      rmSync(files.journal, { force: true });
      syncDirectory(files.directory);
      written = true;
    } else if (journal.torn) {
      truncateSync(files.journal, journal.goodBytes);
    }
  } catch (error) {
    rmSync(files.temporary, { force: true });
    throw new StateFileError(`Cannot use --db ${files.snapshot}: ${(error as Error).message}`);
  }
  const writeSecret = !written && !snapshot?.meta && journal.secret === undefined && interrupted.secret === undefined;
  return { state: read.state, meta, notes, restored: snapshot !== undefined, writeSecret };
}
