/**
 * `--db` durability (issue 11): the mock as a process with and without its journal; the measuring itself is in
 * `scripts/bench/durability.ts`. Creates on a store of `smallProperties`, the rest on the large store.
 */
import { generateFixtures } from "../../../src/fixtures/generate-fixtures.ts";
import { measureDurability, printDurability, type DurabilityReport } from "../durability.ts";
import type { BenchSection } from "../section.ts";

export const section: BenchSection<DurabilityReport> = {
  key: "durability",
  async run({ settings, progress, largeFixtures }) {
    progress("durability: --db (the mock as a process)…");
    const durability = await measureDurability(
      {
        large: largeFixtures(),
        small: generateFixtures({ seed: settings.seed, properties: settings.smallProperties }),
        creates: settings.quick ? 200 : 4_000,
        getRunMs: settings.quick ? 300 : 4_000,
        journalChanges: settings.quick ? 200 : 10_000,
        concurrency: settings.concurrency,
      },
      progress,
    );
    const failures: string[] = [];
    for (const figure of [durability.creates.memory, durability.creates.fsync, durability.creates.none, durability.reads.quiet, durability.reads.whileEditing]) {
      if (figure.failures > 0) failures.push(`--db section: ${figure.failures} of ${figure.requests} requests failed`);
    }
    return { figures: durability, lines: ["6. --db durability", "", ...printDurability(durability)], failures };
  },
};
