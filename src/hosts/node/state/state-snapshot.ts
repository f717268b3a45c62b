import { closeSync, existsSync, fsyncSync, openSync, writeSync } from "node:fs";
import { open } from "node:fs/promises";
import { setImmediate as nextTurn } from "node:timers/promises";
import { crc32 } from "node:zlib";
import { COLLECTIONS, type CollectionName, type Database } from "../../../mock/store/records.ts";
import { StateFileError } from "./state-files.ts";
import { isTrailer, stateLine, type StateTrailer } from "../../../mock/store/state-lines.ts";
import { readStateLines } from "./read-state-lines.ts";
import { readStateDocument } from "./read-state-document.ts";
import type { StateFormat } from "./state-format.ts";
import type { StateMeta } from "../../../mock/store/state-persistence.ts";

/** Records written between two turns of the event loop while a snapshot is written in the background. */
const RECORDS_PER_TURN = 500;

/**
 * A state's text in the form asked for, a few hundred records a chunk, so that it is never held as one string:
 *
 * - JSON Lines (state-lines.ts): a record a line, and last the trailer, `{"$meta":{…the meta…,"records":{…},
 *   "crc32":…}}`: the records of each collection and the checksum of every byte before it;
 * - one JSON document in json-server's `db.json` shape, a record a line, the meta last as the member `$meta`:
 *
 *   ```text
 *   {
 *     "accounts": [
 *       {"id":1,"apiKey":"demo-key",…},
 *       {"id":2,…}
 *     ],
 *     "properties": [
 *     …
 *     ],
 *     "$meta": {"seq":41,…}
 *   }
 *   ```
 *
 * The meta is read once every record is written: its sequences then cover every id in the file. Without a meta
 * (a state converted from a file a person wrote), a document has no `$meta` and the trailer holds only its counts.
 */
export function* stateChunks(state: Database, format: StateFormat, meta?: () => StateMeta): Generator<string, string> {
  // The arrays of this moment: records added later are in the journal after `seq`, which replay adds again.
  const collections = COLLECTIONS.map((name) => [name, state[name].slice()] as const);
  let chunk = format === "lines" ? "" : "{\n";
  let written = 0;
  let checksum = 0;
  const records = {} as Record<CollectionName, number>;
  for (const [index, [name, list]] of collections.entries()) {
    records[name] = list.length;
    if (format === "document") chunk += `  ${JSON.stringify(name)}: [${list.length === 0 ? "" : "\n"}`;
    for (let at = 0; at < list.length; at++) {
      chunk +=
        format === "lines"
          ? stateLine(name, list[at])
          : `    ${JSON.stringify(list[at])}${at === list.length - 1 ? "" : ","}\n`;
      if (++written % RECORDS_PER_TURN === 0) {
        if (format === "lines") checksum = crc32(chunk, checksum);
        yield chunk;
        chunk = "";
      }
    }
    if (format === "document")
      chunk += `${list.length === 0 ? "" : "  "}]${index === collections.length - 1 && !meta ? "" : ","}\n`;
  }
  const current = meta?.();
  if (format === "lines") {
    checksum = crc32(chunk, checksum);
    const trailer: StateTrailer = { records, crc32: checksum };
    return chunk + stateLine("$meta", { ...current, ...trailer });
  }
  return `${chunk + (current ? `  "$meta": ${JSON.stringify(current)}\n` : "")}}\n`;
}

/**
 * Writes a snapshot to `path` in `format` and syncs it, a few hundred records per turn of the event loop so that
 * a large state does not hold up requests. `aborted` is asked between chunks; when it says yes the write stops
 * and resolves false. The caller renames the file into place.
 */
export async function writeSnapshot(
  path: string,
  format: StateFormat,
  state: Database,
  meta: () => StateMeta,
  aborted: () => boolean = () => false,
): Promise<boolean> {
  const file = await open(path, "w");
  try {
    const chunks = stateChunks(state, format, meta);
    for (;;) {
      const next = chunks.next();
      await file.write(next.value);
      if (next.done) break;
      await nextTurn();
      if (aborted()) return false;
    }
    await file.datasync();
    return true;
  } finally {
    await file.close();
  }
}

/** The same, all at once: at start-up, before the mock answers anything, or by `--convert-state`. */
export function writeSnapshotNow(
  path: string,
  format: StateFormat,
  state: Database,
  meta: StateMeta | undefined,
): void {
  const fd = openSync(path, "w");
  try {
    const chunks = stateChunks(state, format, meta && (() => meta));
    for (;;) {
      const next = chunks.next();
      writeSync(fd, next.value);
      if (next.done) break;
    }
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** A snapshot as read: the state, and its meta unless the file has none (one a person wrote). */
export interface ReadSnapshot {
  state: Database;
  meta: StateMeta | undefined;
}

/**
 * Reads a snapshot, or undefined when there is none, in the form its text has: JSON Lines line by line, a JSON
 * document a record at a time (read-state-document.ts). Nothing is held but the records.
 *
 * A snapshot in JSON Lines is the mock's own: it must end with its `$meta` line, whose counts and checksum
 * (state-lines.ts) are checked; one an earlier version wrote has no counts, and is taken when its `$meta` line is
 * its last. One cut short, torn, holding a line that is not a state's, or without that last line is refused. A
 * JSON document is whole once the parser sees it closed; its `$meta` is optional (json-server's `db.json` has
 * none: the mock then draws its secret, and numbers ids on from the records).
 *
 * A refusal names the file and the line at fault ({@link StateFileError}), or the record the store cannot hold
 * (record-fault.ts, a RecordRefused). The file is left as it is.
 */
export function readSnapshot(path: string): ReadSnapshot | undefined {
  if (!existsSync(path)) return undefined;
  const lines = readStateLines(path, path);
  if (lines) {
    if (lines.meta === undefined || !lines.metaLast) {
      throw new StateFileError(
        `${path} line ${lines.lines}: the snapshot ends without its last line ` +
          '({"$meta":…}, with the count of its records): it is cut short or damaged, and is left as it is. ' +
          "A file of records written by hand is read with --fixtures.",
      );
    }
    return { state: lines.state, meta: metaOf(lines.meta, path, () => lines.metaLine) };
  }
  const document = readStateDocument(path, path);
  return {
    state: document.state,
    meta: document.meta === undefined ? undefined : metaOf(document.meta, path, document.metaLine),
  };
}

/** The meta a `$meta` holds, without its trailer's fields; undefined for a trailer alone. */
export function metaOf(value: unknown, path: string, line: () => number): StateMeta | undefined {
  if (isMeta(value)) {
    const { seq, nextId, nextUid, autologin } = value;
    return { seq, nextId, nextUid, autologin: { secret: autologin.secret, issued: autologin.issued } };
  }
  if (isTrailer(value) && Object.keys(value).length === 2) return undefined;
  throw new StateFileError(`${path} line ${line()}: "$meta" is not the meta of a mock state.`);
}

function isMeta(value: unknown): value is StateMeta {
  const meta = value as Partial<StateMeta> | null;
  return (
    typeof meta === "object" &&
    meta !== null &&
    [meta.seq, meta.nextId, meta.nextUid, meta.autologin?.issued].every(
      (number) => Number.isSafeInteger(number) && number! >= 0,
    ) &&
    typeof meta.autologin?.secret === "string" &&
    meta.autologin.secret.length >= 32
  );
}
