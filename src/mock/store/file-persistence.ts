import { existsSync, readFileSync } from "node:fs";
import { open, rename } from "node:fs/promises";
import { setImmediate as nextTurn } from "node:timers/promises";
import { COLLECTIONS, type Database } from "./records.ts";

/** Keeps a state in a JSON file. */
export interface FilePersistence {
  /** Asks for a write soon; many changes in a row give one write. */
  schedule(): void;
  /** Writes now if anything is pending, and waits until the file holds the latest state. */
  flush(): Promise<void>;
}

/** Writes a state to a file; the default is {@link writeStateFile}. */
export type StateWriter = (path: string, state: Database) => Promise<void>;

/** Options of {@link createFilePersistence}. */
export interface FilePersistenceOptions {
  /** Milliseconds between a change and its write. */
  delayMs?: number;
  /** Injectable for tests. */
  write?: StateWriter;
  /** Told of a write that failed. */
  onError?: (error: Error) => void;
}

/**
 * Writes the state to `path` shortly after it changes, off the request path. There is never more than one
 * write at a time: changes made during a write cause one more write after it, and `flush` waits for that.
 */
export function createFilePersistence(path: string, snapshot: () => Database, options: FilePersistenceOptions = {}): FilePersistence {
  const delayMs = options.delayMs ?? 100;
  const write = options.write ?? writeStateFile;
  const onError = options.onError ?? ((error: Error) => console.error(`Could not write ${path}: ${error.message}`));
  let timer: NodeJS.Timeout | undefined;
  let writing: Promise<void> | undefined;
  let dirty = false;

  const startWrite = (): void => {
    dirty = false;
    writing = write(path, snapshot())
      .catch((error: unknown) => {
        dirty = true; // try again with the next change or flush
        onError(error as Error);
      })
      .finally(() => {
        writing = undefined;
        if (dirty) timer ??= setTimeout(run, delayMs);
      });
  };

  const run = (): void => {
    timer = undefined;
    if (!writing && dirty) startWrite(); // a write under way reschedules when it ends
  };

  return {
    schedule() {
      dirty = true;
      if (!writing) timer ??= setTimeout(run, delayMs);
    },
    async flush() {
      for (;;) {
        if (timer) {
          clearTimeout(timer);
          timer = undefined;
        }
        if (writing) {
          await writing;
          continue;
        }
        if (!dirty) return;
        startWrite();
      }
    },
  };
}

/** Records serialized between two turns of the event loop while a state is written. */
const RECORDS_PER_TURN = 500;

/**
 * Writes a state as JSON, one record per line, to a temporary file beside `path` that is then renamed over it,
 * so a reader never sees a half-written file. The records are serialized a few hundred at a time, yielding to
 * the event loop in between, so a large state does not hold up requests while it is written.
 */
export async function writeStateFile(path: string, state: Database): Promise<void> {
  const temporary = `${path}.${process.pid}.tmp`;
  const collections = COLLECTIONS.map((name) => [name, state[name].slice()] as const); // the records of this moment
  const file = await open(temporary, "w");
  try {
    let chunk = "{";
    for (const [index, [name, records]] of collections.entries()) {
      chunk += `${index === 0 ? "" : ","}\n  ${JSON.stringify(name)}: [`;
      for (let at = 0; at < records.length; at += 1) {
        chunk += `${at === 0 ? "" : ","}\n    ${JSON.stringify(records[at])}`;
        if ((at + 1) % RECORDS_PER_TURN === 0) {
          await file.write(chunk);
          chunk = "";
          await nextTurn();
        }
      }
      chunk += records.length === 0 ? "]" : "\n  ]";
    }
    await file.write(`${chunk}\n}\n`);
  } finally {
    await file.close();
  }
  await rename(temporary, path);
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
