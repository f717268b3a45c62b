import { rename, writeFile } from "node:fs/promises";
import type { UsageRecorder } from "../../mock/usage/usage-recorder.ts";

/** The least time between the starts of two writes of the file. */
const MIN_INTERVAL_MS = 1_000;

/**
 * Writes a recorder's document to a file each time a test ends, and once more when the mock closes: to a
 * temporary file first, renamed over the file, so that a reader never sees half a document. Writes do not
 * overlap, and one starts at most once a second (a suite of short tests would otherwise write the whole document
 * again after every one); the tests that end in between are written by the next. The Node host's (it uses
 * `node:fs`).
 */
export function writeUsageFile(
  recorder: UsageRecorder,
  file: string,
  onError: (text: string) => void,
): { close(): Promise<void> } {
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
  let lastStart = -Infinity;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const write = (): void => {
    if (writing || timer) {
      again = true;
      return;
    }
    const wait = lastStart + MIN_INTERVAL_MS - performance.now();
    if (wait > 0) {
      timer = setTimeout(() => {
        timer = undefined;
        write();
      }, wait);
      timer.unref?.();
      return;
    }
    lastStart = performance.now();
    writing = writeOnce().then(() => {
      writing = undefined;
      if (again) {
        again = false;
        write();
      }
    });
  };
  recorder.onTestEnd(write);
  return {
    async close() {
      if (timer) clearTimeout(timer);
      timer = undefined;
      again = false;
      recorder.finish();
      await writing;
      await writeOnce();
    },
  };
}
