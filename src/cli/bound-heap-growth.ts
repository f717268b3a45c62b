import { setFlagsFromString } from "node:v8";
import { collectOnce } from "./collect-garbage.ts";

/** How far a large store's heap may grow past what the last full collection kept, in percent, before the next. */
export const LARGE_HEAP_GROWING_PERCENT = 10;
/** How long after the start the bin runs the collection that applies the bound: after the first answers. */
export const BOUND_AFTER_START_MS = 1_000;

export interface HeapGrowthBound {
  /** Stops waiting to apply it (on close). */
  stop(): void;
}

/**
 * Lets a large store's heap grow by {@link LARGE_HEAP_GROWING_PERCENT} past what the last full collection kept,
 * before V8 collects again. V8 sets that room from its own measures of speed: a start that parses a large state
 * grows the heap fast, and the room it then gives lets garbage (records replaced, requests promoted while in
 * flight, answers encoded and not kept, and the memory they hold outside the heap) reach a large share of the live
 * heap before the first full collection under load. That first collection is the peak a container's limit meets
 * (docs/large-stores.md). A full collection of a large heap is mostly concurrent marking, on another core.
 *
 * V8 reads the flag at each full collection, and the start's last one has set the room already, so one
 * collection applies it: {@link BOUND_AFTER_START_MS} after the start, so that the first answer does not wait for
 * it (a client that sends its first requests at once waits for one pause, shortly after). The start's own
 * collections keep V8's room: bounding them as well made the start longer (docs/large-stores.md).
 *
 * The bin's choice, for a store of `LARGE_STORE_PROPERTIES` or more (collect-garbage.ts): a library user's process
 * decides for itself.
 *
 * @param collect the collection that applies the bound (injected for tests, as is `setFlags`).
 */
export function boundHeapGrowth(
  collect: () => void = collectOnce,
  setFlags: (flags: string) => void = setFlagsFromString,
): HeapGrowthBound {
  setFlags(`--heap-growing-percent=${LARGE_HEAP_GROWING_PERCENT}`);
  const timer = setTimeout(collect, BOUND_AFTER_START_MS);
  timer.unref();
  return { stop: () => clearTimeout(timer) };
}
