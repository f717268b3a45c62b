import type { UsageControl } from "./usage-recorder.ts";

/** One registry per process (per page), even when the kit's modules are loaded twice (the package and a bundle). */
const KEY = Symbol.for("property-listing-kit.usage-recorders");

function registry(): Set<WeakRef<UsageControl>> {
  const global = globalThis as unknown as Record<symbol, Set<WeakRef<UsageControl>> | undefined>;
  return (global[KEY] ??= new Set());
}

/**
 * Makes a mock's usage known to `property-listing-kit/vitest`, which begins each test on every mock of the process
 * that records usage. Held weakly: a handler set nobody holds is let go. The function returned forgets it.
 */
export function registerUsage(usage: UsageControl): () => void {
  const ref = new WeakRef(usage);
  registry().add(ref);
  return () => {
    registry().delete(ref);
  };
}

/** Every mock of the process that records usage and is still held. */
export function usageInProcess(): UsageControl[] {
  const found: UsageControl[] = [];
  for (const ref of registry()) {
    const usage = ref.deref();
    if (usage) found.push(usage);
    else registry().delete(ref);
  }
  return found;
}
