import { rename, writeFile } from "node:fs/promises";
import type { UsageRecorder } from "./usage-recorder.ts";

/**
 * Writes a recorder's document to a file each time a test ends, and once more when the mock closes: to a
 * temporary file first, renamed over the file, so that a reader never sees half a document. Writes do not
 * overlap; a test that ends while one is under way is written by the next. The Node host's (it uses `node:fs`).
 */
export function writeUsageFile(recorder: UsageRecorder, file: string, onError: (text: string) => void): { close(): Promise<void> } {
  let writing: Promise<void> | undefined;
  let again = false;
  let reported = false;
  const temporary = `${file}.${process.pid}.tmp`;
  const writeOnce = async () => {
    try {
      await writeFile(temporary, recorder.text());
      await rename(temporary, file);
    } catch (error) {
      if (!reported) onError(`Cannot write the usage file ${file}: ${(error as Error).message}`);
      reported = true;
    }
  };
  const write = (): Promise<void> => {
    if (writing) {
      again = true;
      return writing;
    }
    writing = (async () => {
      do {
        again = false;
        await writeOnce();
      } while (again);
      writing = undefined;
    })();
    return writing;
  };
  recorder.onTestEnd(() => void write());
  return {
    async close() {
      recorder.finish();
      await writing;
      await writeOnce();
    },
  };
}
