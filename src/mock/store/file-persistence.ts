import { existsSync, readFileSync } from "node:fs";
import { rename, writeFile } from "node:fs/promises";
import { COLLECTIONS, type Database } from "./records.ts";

/** Keeps a state in a JSON file. */
export interface FilePersistence {
  /** Asks for a write soon; many changes in a row give one write. */
  schedule(): void;
  /** Writes now if anything is pending, and waits for every write to finish. */
  flush(): Promise<void>;
}

/**
 * Writes the state to `path` some milliseconds after it changes, off the request path: the JSON goes to a
 * temporary file beside it, which is then renamed over `path`, so a reader never sees a half-written file.
 * Writes never overlap; changes made during a write cause one more write after it.
 */
export function createFilePersistence(path: string, snapshot: () => Database, delayMs = 100): FilePersistence {
  let timer: NodeJS.Timeout | undefined;
  let writing: Promise<void> | undefined;
  let dirty = false;
  const temporary = `${path}.${process.pid}.tmp`;

  const write = async (): Promise<void> => {
    dirty = false;
    const text = `${JSON.stringify(snapshot(), null, 2)}\n`;
    await writeFile(temporary, text);
    await rename(temporary, path);
  };

  const run = (): void => {
    timer = undefined;
    if (writing) return; // the write under way reschedules when it ends
    writing = write().finally(() => {
      writing = undefined;
      if (dirty) schedule();
    });
    writing.catch((error: unknown) => {
      console.error(`Could not write ${path}: ${(error as Error).message}`);
    });
  };

  const schedule = (): void => {
    dirty = true;
    timer ??= setTimeout(run, delayMs);
  };

  const flush = async (): Promise<void> => {
    if (timer) {
      clearTimeout(timer);
      timer = undefined;
    }
    await writing?.catch(() => undefined);
    if (dirty) await write();
  };

  return { schedule, flush };
}

/** Reads a state file, or undefined when there is none. Anything but a state is an error naming the file. */
export function readDatabaseFile(path: string): Database | undefined {
  if (!existsSync(path)) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    throw new Error(`${path} is not valid JSON: ${(error as Error).message}`);
  }
  assertDatabase(parsed, path);
  return parsed;
}

/** Throws unless the value has the four collections of a state. */
export function assertDatabase(value: unknown, source: string): asserts value is Database {
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new Error(`${source} does not hold a mock state (an object with ${COLLECTIONS.join(", ")}).`);
  }
  for (const name of COLLECTIONS) {
    if (!Array.isArray((value as Record<string, unknown>)[name])) {
      throw new Error(`${source} does not hold a mock state: "${name}" must be an array.`);
    }
  }
}
