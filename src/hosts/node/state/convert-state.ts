import { existsSync, realpathSync, renameSync, rmSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { COLLECTIONS, type CollectionName, type Database } from "../../../mock/store/records.ts";
import type { StateMeta } from "../../../mock/store/state-persistence.ts";
import { readState } from "./load-state.ts";
import { readStateLines } from "./read-state-lines.ts";
import { stateFilesOf, syncDirectory } from "./state-files.ts";
import { stateFormatOf, type StateFormat } from "./state-format.ts";
import { metaOf, readSnapshot, writeSnapshotNow } from "./state-snapshot.ts";

/** What a conversion wrote. */
export interface ConvertedState {
  format: StateFormat;
  records: Record<CollectionName, number>;
  /** The input was a `--db` state (a journal beside it, replayed), not a file of records. */
  fromDb: boolean;
}

/** A conversion refused: what was asked cannot be done; nothing was written. */
export class ConvertRefused extends Error {
  override readonly name = "ConvertRefused";
}

/**
 * Writes the state of `from` to `to` in the form `to`'s name says (state-format.ts), a record at a time, to a
 * temporary file synced and then renamed into place: `--convert-state`. `from` is left as it is.
 *
 * `from` with a journal beside it is a `--db` state: its snapshot must be whole (trailer and all, state-snapshot.ts),
 * its journal is replayed (a reset in it replays `seed`), and its meta (id sequences, auto-login secret) is kept.
 * Without one it is a file of records, as `--fixtures` reads it (a trailer, if it has one, is checked). `to` must not
 * exist: an old journal beside a new snapshot would be replayed on it.
 */
export function convertState(from: string, to: string, seed: () => Database): ConvertedState {
  if (!existsSync(from)) throw new ConvertRefused(`Cannot convert ${from}: there is no such file.`);
  if (existsSync(to)) {
    const same = realpathSync(from) === realpathSync(to);
    throw new ConvertRefused(
      same
        ? `Cannot convert ${from} into itself: name another file to write.`
        : `Will not overwrite ${to}: it exists. Remove it first, or name another file.`,
    );
  }
  if (resolve(to) === resolve(from))
    throw new ConvertRefused(`Cannot convert ${from} into itself: name another file to write.`);
  const fromFiles = stateFilesOf(from);
  const fromDb = existsSync(fromFiles.journal) || existsSync(fromFiles.compacting);
  let state: Database;
  let meta: StateMeta | undefined;
  if (fromDb) {
    const read = readState(fromFiles, seed, () => "");
    state = read.state;
    // A state without a meta of its own keeps none, unless its journal gave it a secret.
    meta = read.meta.autologin.secret === "" ? undefined : read.meta;
  } else {
    const lines = readStateLines(from, from);
    if (lines) {
      state = lines.state;
      meta = lines.meta === undefined ? undefined : metaOf(lines.meta, from, () => lines.metaLine);
    } else ({ state, meta } = readSnapshot(from)!);
  }
  const format = stateFormatOf(to);
  const temporary = `${to}.tmp`;
  try {
    writeSnapshotNow(temporary, format, state, meta);
    renameSync(temporary, to);
    syncDirectory(dirname(resolve(to)));
  } catch (error) {
    rmSync(temporary, { force: true });
    throw new ConvertRefused(`Cannot write ${to}: ${(error as Error).message}`);
  }
  const records = Object.fromEntries(COLLECTIONS.map((name) => [name, state[name].length])) as Record<
    CollectionName,
    number
  >;
  return { format, records, fromDb };
}
