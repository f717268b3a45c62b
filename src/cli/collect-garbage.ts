import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

/** Stores from this many properties are large enough for giving memory back when idle to matter. */
export const LARGE_STORE_PROPERTIES = 10_000;

/**
 * Runs a full garbage collection now, and gives the memory back before returning (reclaim-when-idle.ts calls it
 * once the bin is idle). One collection frees the pages only once its sweeping, which runs on other threads, is
 * done; a second one waits for that sweeping to finish, so the memory is back when it returns.
 *
 * `--expose-gc` cannot be put on the bin's command line, so the flag is set here and the `gc` function taken
 * from a fresh context, where V8 then installs it.
 */
export function collectGarbage(): void {
  const gc = gcFunction();
  gc();
  gc();
}

/**
 * Runs one full garbage collection now, without waiting for its sweeping: what a full collection decides (how far
 * the heap may grow before the next, bound-heap-growth.ts) is decided, and the pause is half of
 * {@link collectGarbage}'s.
 */
export function collectOnce(): void {
  gcFunction()();
}

function gcFunction(): () => void {
  setFlagsFromString("--expose-gc");
  return runInNewContext("gc") as () => void;
}
