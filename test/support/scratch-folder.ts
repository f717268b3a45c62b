import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { onTestFinished } from "vitest";

/**
 * A new folder in the system's temporary folder, named `prefix` and a random tail, removed with all it holds once the
 * test that asked for it has finished (after its `afterEach` hooks, which stop the processes that write in it). Only
 * inside a test: a run leaves no folder behind, where some of them held a 200 MB state.
 */
export function scratchFolder(prefix: string): string {
  const folder = mkdtempSync(join(tmpdir(), prefix));
  onTestFinished(() => rmSync(folder, { recursive: true, force: true }));
  return folder;
}
