import { defineConfig } from "vitest/config";
import { SlowFirstSequencer } from "./test/support/slow-first-sequencer.ts";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts", "src/**/*.test.ts"],
    // dist/ must be current: npm start, npm run contract and the bins run the built JavaScript.
    globalSetup: ["test/support/build-once.ts", "test/support/host-network-room.ts"],
    // A file that drives Chromium never runs while one that drives a Docker engine does (test/support/host-network.ts).
    setupFiles: ["test/support/host-network-setup.ts"],
    // Guards against a hang, never a measure of speed: a busy machine (CI's may be) makes a step many times slower
    // than on an idle one. No verdict of the suite depends on timing or load (test/support/deadlines.ts).
    testTimeout: 180_000,
    hookTimeout: 240_000,
    // Vitest's default on 2 cores is one worker, which leaves a core idle whenever a test waits on a process it
    // started (most of the end-to-end files do). Three keep both cores busy without starving the processes.
    maxWorkers: 3,
    // A worker runs file after file in one process, importing the sources and compiling the contract once rather
    // than once per file (a third of the suite's CPU time went there). The files share no global state: each
    // builds its own mock, server or process, and restores what it spies on.
    isolate: false,
    // A worker allocates fast and keeps little (answers, reports, parsed bodies): a larger young generation lets the
    // garbage collector scavenge less often, for some 5 % less CPU in the files that run the contract in-process.
    // Only the workers: the processes the tests start run as Node's defaults run them.
    execArgv: ["--max-semi-space-size=32"],
    // The slowest files first, so that none starts last and runs alone.
    sequence: { sequencer: SlowFirstSequencer },
    // The default output, then every test skipped for a missing prerequisite with the reason it gave.
    reporters: ["default", "./test/support/skip-reasons-reporter.ts"],
  },
});
