import { join } from "node:path";
import { PACKAGE_ROOT } from "../../../package-root.ts";
import { FixturesUnreadable } from "../../../mock/fixtures-unreadable.ts";
import { RecordRefused } from "../../../mock/store/record-fault.ts";
import { StateFileError } from "../../../mock/store/state-file-error.ts";
import { readStateLines } from "./read-state-lines.ts";
import { readStateDocument } from "./read-state-document.ts";
import type { Database } from "../../../mock/store/records.ts";

/** The committed seed data: `fixtures/db.json` at the package root (`npm run fixtures` writes it). */
export const DEFAULT_FIXTURES_PATH = join(PACKAGE_ROOT, "fixtures", "db.json");

/**
 * Reads a fixtures file (the default one unless a path is given) a record at a time: line by line when it is in
 * JSON Lines (store/state-lines.ts, for a large one), else as one JSON document (read-state-document.ts). A file
 * a person writes needs no trailer; one that has one (a snapshot given as fixtures) is checked against it. A record
 * the store cannot hold (record-fault.ts) is refused here, naming it ({@link RecordRefused}), rather than crashing
 * the mock once its answer is encoded.
 */
export function loadFixtures(path: string = DEFAULT_FIXTURES_PATH): Database {
  try {
    const lines = readStateLines(path, `The fixtures file ${path}`);
    if (lines) return lines.state;
    return readStateDocument(path, `The fixtures file ${path}`).state;
  } catch (error) {
    if (error instanceof RecordRefused) throw error;
    // A file or a line at fault: the message names them.
    if (error instanceof StateFileError) throw new FixturesUnreadable(error.message);
    throw new FixturesUnreadable(`Cannot read fixtures from ${path}: ${(error as Error).message}`);
  }
}
