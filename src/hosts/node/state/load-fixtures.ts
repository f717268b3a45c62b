import { readFileSync } from "node:fs";
import { join } from "node:path";
import { PACKAGE_ROOT } from "../../../package-root.ts";
import { FixturesUnreadable } from "../../../mock/fixtures-unreadable.ts";
import { firstRecordFault, RecordRefused } from "../../../mock/store/record-fault.ts";
import { assertDatabase } from "./state-snapshot.ts";
import { StateFileError } from "../../../mock/store/state-file-error.ts";
import { readStateLines } from "./read-state-lines.ts";
import type { Database } from "../../../mock/store/records.ts";

/** The committed seed data: `fixtures/db.json` at the package root (`npm run fixtures` writes it). */
export const DEFAULT_FIXTURES_PATH = join(PACKAGE_ROOT, "fixtures", "db.json");

/**
 * Reads a fixtures file (the default one unless a path is given): line by line when it is in JSON Lines
 * (store/state-lines.ts, for a large one), else parsed whole. A record the store cannot hold (record-fault.ts) is
 * refused here, naming it ({@link RecordRefused}), rather than crashing the mock once its answer is encoded.
 */
export function loadFixtures(path: string = DEFAULT_FIXTURES_PATH): Database {
  let parsed: unknown;
  try {
    const lines = readStateLines(path, `The fixtures file ${path}`);
    if (lines) return lines.state;
    parsed = JSON.parse(readFileSync(path).toString("utf8"));
  } catch (error) {
    if (error instanceof RecordRefused) throw error;
    // A line of a JSON Lines file at fault: the message names the file and the line.
    if (error instanceof StateFileError) throw new FixturesUnreadable(error.message);
    throw new FixturesUnreadable(`Cannot read fixtures from ${path}: ${(error as Error).message}`);
  }
  assertDatabase(parsed, path);
  const fault = firstRecordFault(parsed);
  if (fault) throw new RecordRefused(`The fixtures file ${path}`, fault);
  return parsed;
}
