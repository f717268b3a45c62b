import { readFileSync } from "node:fs";
import { join } from "node:path";
import { PACKAGE_ROOT } from "../package-root.ts";
import { lazyDatabase, scannedProperties } from "./store/lazy-properties.ts";
import { scanStateText } from "./store/scan-state-text.ts";
import { assertDatabase } from "./store/state-snapshot.ts";
import { COLLECTIONS, type Database } from "./store/records.ts";

/** The committed seed data: `fixtures/db.json` at the package root (`npm run fixtures` writes it). */
export const DEFAULT_FIXTURES_PATH = join(PACKAGE_ROOT, "fixtures", "db.json");

/**
 * Reads a fixtures file (the default one unless a path is given). The file is scanned rather than parsed whole
 * (store/scan-state-text.ts): its properties stay text, each built as an object only if something asks for it,
 * and the store holds them once (issue 32). A file the scan does not take is parsed as a whole, so that it is
 * read, or refused, as before.
 */
export function loadFixtures(path: string = DEFAULT_FIXTURES_PATH): Database {
  let parsed: unknown;
  try {
    const bytes = readFileSync(path);
    const scanned = scannedState(bytes);
    if (scanned) return scanned;
    parsed = JSON.parse(bytes.toString("utf8"));
  } catch (error) {
    throw new Error(`Cannot read fixtures from ${path}: ${(error as Error).message}`);
  }
  assertDatabase(parsed, path);
  return parsed;
}

/** A state's text as a state whose properties are held as text, or undefined when it must be parsed whole. */
export function scannedState(bytes: Buffer): Database | undefined {
  const scanned = scanStateText(bytes);
  if (!scanned) return undefined;
  const members: Record<string, unknown> = {};
  for (const member of scanned.members) members[member.key] = JSON.parse(bytes.toString("utf8", member.start, member.end));
  if (COLLECTIONS.some((name) => name !== "properties" && !Array.isArray(members[name]))) return undefined;
  // In the file's order, "properties" where it stood.
  const ordered: Record<string, unknown> = {};
  const before = scanned.members.filter((member) => member.start < scanned.propertiesStart);
  for (const member of before) ordered[member.key] = members[member.key];
  ordered.properties = undefined;
  Object.assign(ordered, members);
  return lazyDatabase(ordered, scannedProperties(bytes, scanned.properties));
}
