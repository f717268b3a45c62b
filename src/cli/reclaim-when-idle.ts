import { collectGarbage } from "./collect-garbage.ts";

/**
 * How long the bin must have been idle before it gives memory back. V8 shrinks its young generation (grown to
 * 2 × 16 MiB by a large start or a burst of requests, and never shrunk while the process only waits) in a full
 * collection only once its allocation rate over the last 5 s is low: at least that. Much longer, since the
 * requests after a collection pay for it: the first few thousand take up to twice the CPU while the young
 * generation grows again. A client's pauses between bursts (a test suite's files, a bench's turns among its
 * servers) are shorter; an idle spell of half a minute is the mock waiting for the next run.
 */
export const IDLE_RECLAIM_AFTER_MS = 30_000;

/** How often the bin looks at its own CPU time. */
const TICK_MS = 1_000;
/** A tick that took less CPU than this was idle (the bin spends nothing while it waits). */
const IDLE_TICK_CPU_MS = 5;
/** Work since the last collection that is worth one: less than this allocated too little to be given back. */
const WORK_WORTH_RECLAIMING_CPU_MS = 50;

export interface IdleReclaim {
  /** Stops looking (on close). */
  stop(): void;
}

/**
 * Gives memory back once the bin has been idle for {@link IDLE_RECLAIM_AFTER_MS} after some work: one full
 * collection (two, so that its sweeping is done and the pages returned). A large start or a burst of requests
 * leaves the young generation at its largest and the old one holding what the start or those requests left, and
 * V8 gives neither back while the process does nothing (docs/large-stores.md). A container's limit is reached by
 * what a process keeps between bursts as much as by the bursts.
 *
 * It runs in the bin only, which owns its process (a test runner that starts the mock in its own process
 * decides for itself when it collects), and for a store of 10,000 properties or more (`LARGE_STORE_PROPERTIES`),
 * where what it gives back weighs against a container's limit: a small store's few MiB do not, and the requests
 * after a collection pay for it (in CPU per GET, docs/performance.md). The check costs one `process.cpuUsage()` a
 * second, and a collection happens at most once per idle spell, after work; its timer does not keep the process
 * alive.
 *
 * @param cpuMs the process's CPU time so far, in ms, counted from its start (injected for tests; the process's own by
 *   default).
 */
export function reclaimWhenIdle(collect: () => void = collectGarbage, cpuMs: () => number = processCpuMs): IdleReclaim {
  // What the process spent before (its start: reading the state, building its indexes) is work too: the first
  // idle spell after a large start gives back what the start left.
  let last = cpuMs();
  let workSinceReclaim = last;
  let idleFor = 0;
  const timer = setInterval(() => {
    const now = cpuMs();
    const spent = now - last;
    last = now;
    if (spent >= IDLE_TICK_CPU_MS) {
      workSinceReclaim += spent;
      idleFor = 0;
      return;
    }
    idleFor += TICK_MS;
    if (idleFor < IDLE_RECLAIM_AFTER_MS || workSinceReclaim < WORK_WORTH_RECLAIMING_CPU_MS) return;
    collect();
    workSinceReclaim = 0;
    // The collection's own CPU is not work to reclaim after.
    last = cpuMs();
  }, TICK_MS);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}

function processCpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1_000;
}
