import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { lazyDatabase, scannedProperties, type PropertySource } from "./lazy-properties.ts";
import { firstRecordFault, RecordRefused } from "./record-fault.ts";
import { COLLECTIONS, type Database } from "./records.ts";
import { scanStateText, type MemberSpan, type ScannedState, type TextRun } from "./scan-state-text.ts";

/**
 * A state file as a state whose properties are held as text, or undefined when it must be parsed whole. The
 * file is read in pieces of 32 MiB, each let go once the store holds every property in it otherwise (as its
 * encoded answer): the file and the answers are never held whole at once.
 */
export function readScannedState(path: string, source = path): Database | undefined {
  const scanned = scanStateFile(path);
  return scanned && scannedDatabase(scanned, source);
}

/** A state file's structure, read in pieces (scan-state-text.ts), or undefined when it must be parsed whole. */
export function scanStateFile(path: string): ScannedState | undefined {
  const fd = openSync(path, "r");
  try {
    const size = fstatSync(fd).size;
    return scanStateText({ size, read: (into, position) => readSync(fd, into, 0, into.length, position) });
  } finally {
    closeSync(fd);
  }
}

/** The value of a top-level member of a scanned state (a snapshot's `$meta`), or undefined if it has none. */
export function scannedMember(scanned: ScannedState, key: string): unknown {
  const member = scanned.members.find((candidate) => candidate.key === key);
  return member && parseMember(scanned.pieces, member);
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
  // The properties are not among the members (the scan took them); every record's nesting was bounded by the scan.
  const fault = firstRecordFault(members, COLLECTIONS);
  if (fault) throw new RecordRefused(source, fault);
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

/**
 * A member's value parsed. An array is parsed a run at a time (its elements within one piece) and the parts
 * joined: the documents of 100,000 properties are 38 MiB of text, and the text of the whole array, built before
 * it was parsed, was a second copy held beside the first, at the start's peak of memory (issue 32).
 */
function parseMember(pieces: readonly Uint8Array[], member: MemberSpan): unknown {
  const text = (run: TextRun) => utf8.decode(pieces[run.piece]!.subarray(run.start, run.end));
  if (member.whole) return JSON.parse(text(member.runs[0]!));
  const elements: unknown[] = [];
  for (const run of member.runs) {
    const part = JSON.parse(`[${text(run)}]`) as unknown[];
    for (let index = 0; index < part.length; index++) elements.push(part[index]);
  }
  return elements;
}

const utf8 = new TextDecoder();
