import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { IDLE_RECLAIM_AFTER_MS, reclaimWhenIdle } from "../../src/cli/reclaim-when-idle.ts";

/**
 * The bin's idle collection, on a clock and a CPU time the test moves: when it collects is a rule of the
 * CPU time it is shown, not of how fast this machine is.
 */
describe("reclaimWhenIdle", () => {
  let cpu = 0;
  let collections = 0;
  const collect = () => {
    collections += 1;
    cpu += 30; // a collection costs CPU: not work to collect after
  };
  /** One second passes in which the process spends `ms` of CPU. */
  const second = (ms: number) => {
    cpu += ms;
    vi.advanceTimersByTime(1_000);
  };
  const idleSeconds = (seconds: number) => {
    for (let at = 0; at < seconds; at++) second(0);
  };

  beforeEach(() => {
    vi.useFakeTimers();
    cpu = 0;
    collections = 0;
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("collects once the process has been idle for the delay after work, and once only", () => {
    const reclaim = reclaimWhenIdle(collect, () => cpu);
    second(400);
    second(300);
    idleSeconds(IDLE_RECLAIM_AFTER_MS / 1_000 - 1);
    expect(collections).toBe(0);
    idleSeconds(1);
    expect(collections).toBe(1);
    idleSeconds(60);
    expect(collections).toBe(1);
    reclaim.stop();
  });

  it("does not collect after no work, or too little", () => {
    const reclaim = reclaimWhenIdle(collect, () => cpu);
    idleSeconds(60);
    second(10);
    idleSeconds(60);
    expect(collections).toBe(0);
    reclaim.stop();
  });

  it("waits while requests keep coming, and counts the idle time again from the last work", () => {
    const reclaim = reclaimWhenIdle(collect, () => cpu);
    for (let at = 0; at < 60; at++) second(at % 10 === 0 ? 200 : 0); // work every 10 s: never idle long enough
    expect(collections).toBe(0);
    idleSeconds(IDLE_RECLAIM_AFTER_MS / 1_000);
    expect(collections).toBe(1);
    second(500);
    idleSeconds(IDLE_RECLAIM_AFTER_MS / 1_000);
    expect(collections).toBe(2);
    reclaim.stop();
  });

  it("counts what the process spent before it was called (its start) as work", () => {
    cpu = 1_200; // a large start
    const reclaim = reclaimWhenIdle(collect, () => cpu);
    idleSeconds(IDLE_RECLAIM_AFTER_MS / 1_000 - 1);
    expect(collections).toBe(0);
    idleSeconds(1);
    expect(collections).toBe(1);
    reclaim.stop();
  });

  it("stops looking when stopped", () => {
    const reclaim = reclaimWhenIdle(collect, () => cpu);
    second(500);
    reclaim.stop();
    idleSeconds(60);
    expect(collections).toBe(0);
  });
});
