import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { BOUND_AFTER_START_MS, boundHeapGrowth, LARGE_HEAP_GROWING_PERCENT } from "../../src/cli/bound-heap-growth.ts";
import { collectGarbage, collectOnce } from "../../src/cli/collect-garbage.ts";

/** The bin's bound on a large store's heap growth, on a clock the test moves. */
describe("boundHeapGrowth", () => {
  let collections = 0;
  const collect = () => {
    collections += 1;
  };
  let flags: string[] = [];
  const setFlags = (given: string) => {
    flags.push(given);
  };

  beforeEach(() => {
    vi.useFakeTimers();
    collections = 0;
    flags = [];
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("tells V8 how far the heap may grow, at once, and collects once after the first answers so it applies", () => {
    const bound = boundHeapGrowth(collect, setFlags);
    expect(flags).toEqual([`--heap-growing-percent=${LARGE_HEAP_GROWING_PERCENT}`]);
    vi.advanceTimersByTime(BOUND_AFTER_START_MS - 1);
    expect(collections).toBe(0);
    vi.advanceTimersByTime(1);
    expect(collections).toBe(1);
    vi.advanceTimersByTime(60_000);
    expect(collections).toBe(1);
    bound.stop();
  });

  it("does not collect once stopped (a stop soon after the start)", () => {
    const bound = boundHeapGrowth(collect, setFlags);
    bound.stop();
    vi.advanceTimersByTime(60_000);
    expect(collections).toBe(0);
  });
});

/** The collections the bin runs, for real: the bin cannot be given --expose-gc, so they must work without it. */
describe.each([
  ["collectOnce", collectOnce],
  ["collectGarbage", collectGarbage],
])("%s", (_name, collect) => {
  it("collects what nothing holds any more, in a process started without --expose-gc", async () => {
    expect(process.execArgv).not.toContain("--expose-gc");
    let held: object | undefined = { big: new Array(1_000).fill("x") };
    const ref = new WeakRef(held);
    held = undefined;
    // A WeakRef keeps its target until the end of the job that made it.
    await new Promise((resolve) => setImmediate(resolve));
    collect();
    expect(ref.deref()).toBeUndefined();
  });
});
