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
  setFlagsFromString("--expose-gc");
  const gc = runInNewContext("gc") as () => void;
  gc();
  gc();
}
