import { readFileSync } from "node:fs";
import { join } from "node:path";
import { PACKAGE_ROOT } from "../package-root.ts";
import { FixturesUnreadable } from "./fixtures-unreadable.ts";
import { readScannedState } from "./store/read-scanned-state.ts";
import { firstRecordFault, RecordRefused } from "./store/record-fault.ts";
import { assertDatabase } from "./store/state-snapshot.ts";
import type { Database } from "./store/records.ts";

/** The committed seed data: `fixtures/db.json` at the package root (`npm run fixtures` writes it). */
export const DEFAULT_FIXTURES_PATH = join(PACKAGE_ROOT, "fixtures", "db.json");

/**
 * Reads a fixtures file (the default one unless a path is given). The file is scanned rather than parsed whole
 * (store/scan-state-text.ts, store/read-scanned-state.ts): its properties stay text, each built as an object only if something asks for it,
 * and the store holds them once (issue 32). A file the scan does not take is parsed as a whole, so that it is
 * read, or refused, as before. A record the store cannot hold (record-fault.ts) is refused here, naming it
 * ({@link RecordRefused}), rather than crashing the mock once its answer is encoded: the scan bounds the
 * properties' nesting and ids as it goes, the few other records are checked once parsed, and a file parsed whole
 * is checked whole.
 */
export function loadFixtures(path: string = DEFAULT_FIXTURES_PATH): Database {
  let parsed: unknown;
  try {
    const scanned = readScannedState(path, `The fixtures file ${path}`);
    if (scanned) return scanned;
    parsed = JSON.parse(readFileSync(path).toString("utf8"));
  } catch (error) {
    if (error instanceof RecordRefused) throw error;
    throw new FixturesUnreadable(`Cannot read fixtures from ${path}: ${(error as Error).message}`);
  }
  assertDatabase(parsed, path);
  const fault = firstRecordFault(parsed);
  if (fault) throw new RecordRefused(`The fixtures file ${path}`, fault);
  return parsed;
}
