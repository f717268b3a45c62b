import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

/** Stores from this many properties are large enough for a collection after loading to matter. */
export const LARGE_STORE_PROPERTIES = 10_000;

/**
 * Runs a full garbage collection now, and gives the memory back before returning. A seed is parsed from one
 * string as long as its file (hundreds of MiB at 100,000 properties); collecting it before the first request
 * gives that memory back to the system at start instead of whenever the heap next fills (issue 9, goal 4).
 *
 * One collection frees the pages only once its sweeping, which runs on other threads, is done: resident
 * memory read at the first answer was anywhere from 276 to 436 MiB at 100,000 properties, settling at 278 MiB
 * a second later. A second collection waits for that sweeping to finish, so the memory is back when the mock
 * starts answering (about 0.1 s more at that size; this runs only for large stores).
 *
 * `--expose-gc` cannot be put on the bin's command line, so the flag is set here and the `gc` function taken
 * from a fresh context, where V8 then installs it.
 */
export function collectGarbage(): void {
  setFlagsFromString("--expose-gc");
  const gc = runInNewContext("gc") as () => void;
  gc();
  gc();
}
