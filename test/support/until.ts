/**
 * Waits on a condition the code offers no event for: looks again every few milliseconds until it holds, or fails
 * after the deadline naming what it waited for. A wait on a condition, never a fixed sleep: it returns as soon as
 * the condition holds, however loaded the machine.
 */
import { setTimeout as pause } from "node:timers/promises";
import { HANG_MS } from "./deadlines.ts";

export async function until(condition: () => boolean, what: string, deadlineMs = HANG_MS): Promise<void> {
  const deadline = Date.now() + deadlineMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`Waited ${deadlineMs} ms for ${what}`);
    await pause(5);
  }
}
