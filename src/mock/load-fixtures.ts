import { join } from "node:path";
import { PACKAGE_ROOT } from "../package-root.ts";
import { readTextFile } from "./read-text-file.ts";
import { assertDatabase } from "./store/state-snapshot.ts";
import type { Database } from "./store/records.ts";

/** The committed seed data: `fixtures/db.json` at the package root (`npm run fixtures` writes it). */
export const DEFAULT_FIXTURES_PATH = join(PACKAGE_ROOT, "fixtures", "db.json");

/** Reads a fixtures file (the default one unless a path is given). */
export function loadFixtures(path: string = DEFAULT_FIXTURES_PATH): Database {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readTextFile(path));
  } catch (error) {
    throw new Error(`Cannot read fixtures from ${path}: ${(error as Error).message}`);
  }
  assertDatabase(parsed, path);
  return parsed;
}
