/**
 * 3. Persistence: writing the whole state at `--properties` as a `--db` snapshot (what a compaction writes in the
 * background), and how long it holds up requests (the longest pause of the event loop while it writes).
 */
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { createMockServer, type MockServer } from "../../../src/hosts/node/create-mock-server.ts";
import { writeSnapshot } from "../../../src/hosts/node/state/state-snapshot.ts";
import { bytes, count, ms, table, UNMEASURED } from "../format.ts";
import type { BenchSection } from "../section.ts";

export interface PersistenceFigures {
  properties: number;
  writeMs: number;
  /**
   * The longest the event loop could not turn during the write; `null` when the write ended before the
   * monitor's first tick (a small state on an idle machine), never a 0 that would read as "no pause".
   */
  longestPauseMs: number | null;
  fileBytes: number;
  megabytesPerSecond: number;
}

export const section: BenchSection<PersistenceFigures> = {
  key: "persistence",
  async run(context) {
    context.progress("persistence: writing the state to a file…");
    const mock = createMockServer({ fixtures: context.largeFixtures() });
    let figures: PersistenceFigures;
    try {
      figures = await measurePersistence(mock);
    } finally {
      await mock.close();
    }
    const lines = [
      "3. Persistence (writeSnapshot: one record per line, serialized a few hundred records per turn of the " +
        "event loop, synced)",
      "",
      ...table(
        ["figure", "value"],
        [
          [`write the state (${count(figures.properties)} properties) to a file`, ms(figures.writeMs)],
          [
            "longest event-loop pause during the write (a request waits at most this long)",
            figures.longestPauseMs === null
              ? `${UNMEASURED} (the write ended within the monitor's ${PAUSE_RESOLUTION_MS} ms)`
              : ms(figures.longestPauseMs),
          ],
          ["file size", bytes(figures.fileBytes)],
          ["write rate", `${figures.megabytesPerSecond.toFixed(1)} MB/s`],
        ],
        "lr",
      ),
    ];
    return { figures, lines };
  },
};

/** How often the event-loop monitor samples during the write, in milliseconds. */
const PAUSE_RESOLUTION_MS = 5;

async function measurePersistence(mock: MockServer): Promise<PersistenceFigures> {
  const directory = mkdtempSync(join(tmpdir(), "plk-bench-"));
  try {
    const file = join(directory, "db.json");
    // The longest time the event loop could not turn during the write: how long a request could wait behind it.
    const pauses = monitorEventLoopDelay({ resolution: PAUSE_RESOLUTION_MS });
    pauses.enable();
    const started = performance.now();
    await writeSnapshot(file, "lines", mock.store.state, () => ({
      seq: 0,
      nextId: 1,
      nextUid: 1,
      autologin: { secret: "bench", issued: 0 },
    }));
    const writeMs = performance.now() - started;
    pauses.disable();
    const fileBytes = statSync(file).size;
    return {
      properties: mock.store.counts().properties,
      writeMs,
      longestPauseMs: pauses.count > 0 && pauses.max > 0 ? pauses.max / 1e6 : null,
      fileBytes,
      megabytesPerSecond: fileBytes / 1e6 / (writeMs / 1000),
    };
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}
