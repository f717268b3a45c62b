/**
 * Vitest global setup: the folder of the run's own in which its test files hold the host's network
 * (test/support/host-network.ts), made before any file runs and removed after the last.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    hostNetworkRoom: string;
  }
}

export default function hostNetworkRoom(project: TestProject): () => void {
  const room = mkdtempSync(join(tmpdir(), "plk-host-network-"));
  project.provide("hostNetworkRoom", room);
  return () => rmSync(room, { recursive: true, force: true });
}
