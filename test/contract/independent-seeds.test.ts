/**
 * The generated phase is fair on more than one seed: the conforming independent service and every legitimate
 * variant of it (among them both ends of the reading of input: `edit-refuses-numbers`, which takes strings only on
 * edit, and `lenient-types`, which takes neighbouring types and stores them in the documented form) pass the
 * scenario and `--fuzz 100` with no failure. The conforming instance runs on each of five fixed seeds; each variant
 * on one of them, the seeds taken in turn, so that every seed meets several variants. The service runs in this
 * process, without a socket. The cross product, and many more seeds, and the defects too, are a sweep:
 * `scripts/sweep-fuzz-seeds.ts`, outside the suite (fixed seeds in tests, seed sweeps in a script). The conforming
 * instance's runs are the suite's only ones of it with `--fuzz`: they check too that each operation got its 100
 * cases, and the assumption-tier warnings at seed 21.
 */
import { describe, expect, it } from "vitest";
import { LEGITIMATE_VARIANTS } from "../support/independent-service/index.ts";
import { failuresOf, runAgainstIndependent } from "../support/independent-runs.ts";
import { HANG_MS } from "../support/deadlines.ts";

/** Fixed seeds, negative and large ones among them: a verdict that holds here holds every time. */
const SEEDS = [21, 1, 7, -5, 123_456_789];

/** A variant's one seed: the seeds in turn, by the variant's place in the list. */
const seedOf = (index: number) => SEEDS[index % SEEDS.length]!;

describe("--fuzz 100 on fixed seeds", () => {
  it.each(SEEDS)("the conforming instance, seed %i: the scenario and every generated case pass", async (seed) => {
    const report = await passes(undefined, seed);
    for (const entry of Object.values(report.fuzz!.operations)) expect(entry.cases, `seed ${seed}`).toBe(100);
    // It refuses some values the document allows (a negative count on edit): warnings of the assumption tier.
    if (seed === 21)
      expect(
        report.results.some((result) => result.status === "warning" && result.step.startsWith("generated valid case")),
      ).toBe(true);
  });

  it.each(LEGITIMATE_VARIANTS.map((variant, index) => [variant.name, seedOf(index)] as const))(
    "%s, seed %i: passes the scenario and every generated case with no failure",
    async (variant, seed) => {
      await passes(variant, seed);
    },
  );
});

/** A run of the scenario and `--fuzz 100` on one seed, which must pass with no failure and create little. */
async function passes(variant: string | undefined, seed: number) {
  const report = await runAgainstIndependent(variant, { fuzz: 100, seed, timeoutMs: HANG_MS });
  expect(failuresOf(report), `seed ${seed}`).toEqual([]);
  expect(report.result).toBe("passed");
  // The phase made at most one property per 20 cases (5), on top of the scenario's 14 at most.
  expect(report.fuzz!.properties.created, `seed ${seed}`).toBeLessThanOrEqual(5);
  expect(report.created!.length, `seed ${seed}`).toBeLessThanOrEqual(14 + 5);
  return report;
}
