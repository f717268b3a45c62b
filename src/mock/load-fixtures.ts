import { closeSync, fstatSync, openSync, readFileSync, readSync } from "node:fs";
import { join } from "node:path";
import { PACKAGE_ROOT } from "../package-root.ts";
import { lazyDatabase, scannedProperties, type PropertySource } from "./store/lazy-properties.ts";
import { firstRecordFault, recordFault, recordProblem, RecordRefused } from "./store/record-fault.ts";
import { scanStateText, type MemberSpan, type ScannedState } from "./store/scan-state-text.ts";
import { assertDatabase } from "./store/state-snapshot.ts";
import { COLLECTIONS, type Database } from "./store/records.ts";

/** The committed seed data: `fixtures/db.json` at the package root (`npm run fixtures` writes it). */
export const DEFAULT_FIXTURES_PATH = join(PACKAGE_ROOT, "fixtures", "db.json");

/**
 * Reads a fixtures file (the default one unless a path is given). The file is scanned rather than parsed whole
 * (store/scan-state-text.ts): its properties stay text, each built as an object only if something asks for it,
 * and the store holds them once (issue 32). A file the scan does not take is parsed as a whole, so that it is
 * read, or refused, as before. A record the store cannot hold (record-fault.ts) is refused here, naming it
 * ({@link RecordRefused}), rather than crashing the mock once its answer is encoded: the scan bounds the
 * properties' nesting and ids as it goes, the few other records are checked once parsed, and a file parsed whole
 * is checked whole.
 */
export function loadFixtures(path: string = DEFAULT_FIXTURES_PATH): Database {
  let parsed: unknown;
  try {
    const scanned = readScannedState(path);
    if (scanned) return scanned;
    parsed = JSON.parse(readFileSync(path).toString("utf8"));
  } catch (error) {
    if (error instanceof RecordRefused) throw error;
    throw new Error(`Cannot read fixtures from ${path}: ${(error as Error).message}`);
  }
  assertDatabase(parsed, path);
  const fault = firstRecordFault(parsed);
  if (fault) throw new RecordRefused(`The fixtures file ${path}`, fault);
  return parsed;
}

/**
 * A state file as a state whose properties are held as text, or undefined when it must be parsed whole. The
 * file is read in pieces of 32 MiB, each let go once the store holds every property in it otherwise (as its
 * encoded answer): the file and the answers are never held whole at once.
 */
export function readScannedState(path: string): Database | undefined {
  const fd = openSync(path, "r");
  let scanned;
  try {
    const size = fstatSync(fd).size;
    scanned = scanStateText({ size, read: (into, position) => readSync(fd, into, 0, into.length, position) });
  } finally {
    closeSync(fd);
  }
  return scanned && scannedDatabase(scanned, `The fixtures file ${path}`);
}

/**
 * A scanned state's members parsed, its properties left as text; undefined when a collection is not an array.
 * The scan took only properties the store can hold, and bounded the nesting of every record; the records of the
 * other collections are checked here for the rest (a {@link RecordRefused} naming `source`).
 */
export function scannedDatabase(scanned: ScannedState, source = "The state"): Database | undefined {
  const members: Record<string, unknown> = {};
  for (const member of scanned.members) members[member.key] = parseMember(scanned.pieces, member);
  if (COLLECTIONS.some((name) => name !== "properties" && !Array.isArray(members[name]))) return undefined;
  for (const collection of COLLECTIONS) {
    if (collection === "properties") continue;
    const records = members[collection] as unknown[];
    for (let index = 0; index < records.length; index++) {
      const problem = recordProblem(collection, records[index], true);
      if (problem !== undefined) throw new RecordRefused(source, recordFault(collection, index, records[index], problem));
    }
  }
  // In the file's order, "properties" where it stood.
  const ordered: Record<string, unknown> = {};
  for (const member of scanned.members) if (member.position < scanned.propertiesStart) ordered[member.key] = members[member.key];
  ordered.properties = undefined;
  Object.assign(ordered, members);
  return lazyState(ordered, scannedProperties(scanned.pieces, scanned.properties));
}

/**
 * The state, in a function of its own: a closure made beside one that reads the scan would keep the whole scan,
 * and its pieces, alive for as long as the state is held (a `--db` start holds it: 160 MiB at 100,000 properties).
 */
function lazyState(members: Record<string, unknown>, properties: PropertySource): Database {
  return lazyDatabase(members, () => properties);
}

function parseMember(pieces: readonly Uint8Array[], member: MemberSpan): unknown {
  const texts: string[] = [];
  for (const run of member.runs) texts.push(utf8.decode(pieces[run.piece]!.subarray(run.start, run.end)));
  return JSON.parse(member.whole ? texts[0]! : `[${texts.join(",")}]`);
}

const utf8 = new TextDecoder();
