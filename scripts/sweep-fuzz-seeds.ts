/**
 * Sweeps many seeds of the generated phase over every variant of the independent service (issue 28, item 2):
 * the conforming instance and each legitimate variant must pass the scenario and `--fuzz n` on every seed with no
 * failure, and each defect of VARIANTS must be caught on every seed (a failed run). Prints one row per variant and
 * exits 1 on any red: a legitimate variant failed, or a defect passed.
 *
 *   npx tsx scripts/sweep-fuzz-seeds.ts [--seeds 100] [--from 1] [--fuzz 100] [--only name,name]
 *     [--legitimate-only | --defects-only] [--generated-defects] [--timeout 30000]
 *
 * `--generated-defects` keeps, of the defects, those only generated input reveals (`needsFuzz`): the others are
 * caught by the fixed scenario, whatever the seed.
 *
 * Bounded: runs one after another in this process (the service too), `--seeds` × variants runs, each well under a
 * second of CPU with `--fuzz 100`; the seeds are `--from`, `--from + 1`, … A red row names its seeds, so that
 * `--seed <s>` repeats the run.
 */
import { parseArgs } from "node:util";
import { LEGITIMATE_VARIANTS, VARIANTS } from "../test/support/independent-service/index.ts";
import { failuresOf, runAgainstIndependent } from "../test/support/independent-runs.ts";

const { values } = parseArgs({
  options: {
    seeds: { type: "string", default: "100" },
    from: { type: "string", default: "1" },
    fuzz: { type: "string", default: "100" },
    only: { type: "string" },
    "legitimate-only": { type: "boolean", default: false },
    "defects-only": { type: "boolean", default: false },
    // The defects the scenario alone misses: only generated input reveals them, so only they depend on the seed.
    "generated-defects": { type: "boolean", default: false },
    timeout: { type: "string", default: "30000" },
  },
});
const count = Number(values.seeds);
const from = Number(values.from);
const fuzz = Number(values.fuzz);
const timeoutMs = Number(values.timeout);
if (![count, from, fuzz, timeoutMs].every(Number.isSafeInteger) || count < 1 || fuzz < 1 || count > 10_000) {
  console.error("--seeds, --from, --fuzz and --timeout take integers (--seeds from 1 to 10000, --fuzz from 1)");
  process.exit(2);
}

/** One row of the sweep: a variant, what it must do, and what it did on each seed. */
interface Row {
  name: string;
  kind: "conforming" | "legitimate" | "defect";
  green: number;
  red: number[];
  firstRed?: string;
}

const only = values.only ? new Set(values.only.split(",")) : undefined;
const candidates: Array<{ name: string | undefined; kind: Row["kind"] }> = [
  ...(values["defects-only"]
    ? []
    : [
        { name: undefined, kind: "conforming" as const },
        ...LEGITIMATE_VARIANTS.map((variant) => ({ name: variant.name, kind: "legitimate" as const })),
      ]),
  ...(values["legitimate-only"]
    ? []
    : VARIANTS.filter((variant) => !values["generated-defects"] || variant.needsFuzz).map((variant) => ({
        name: variant.name,
        kind: "defect" as const,
      }))),
];
const selected = candidates.filter((candidate) => !only || only.has(candidate.name ?? "conforming"));
const seeds = Array.from({ length: count }, (_, index) => from + index);

const started = performance.now();
const cpu = process.cpuUsage();
const rows: Row[] = [];
for (const { name, kind } of selected) {
  const row: Row = { name: name ?? "conforming", kind, green: 0, red: [] };
  rows.push(row);
  for (const seed of seeds) {
    let verdict: { green: boolean; why?: string };
    try {
      const report = await runAgainstIndependent(name, { fuzz, seed, timeoutMs });
      const failures = failuresOf(report);
      verdict =
        kind === "defect"
          ? { green: failures.length > 0, why: "not caught: the run passed" }
          : { green: failures.length === 0, why: failures[0] };
    } catch (error) {
      verdict = { green: false, why: `the run did not finish: ${(error as Error).message}` };
    }
    if (verdict.green) row.green += 1;
    else {
      row.red.push(seed);
      row.firstRed ??= `seed ${seed}: ${verdict.why ?? ""}`.slice(0, 300);
    }
  }
  process.stderr.write(`${row.red.length === 0 ? "green" : "RED  "} ${row.name} (${row.green}/${seeds.length})\n`);
}

const used = process.cpuUsage(cpu);
const width = Math.max(...rows.map((row) => row.name.length), 8);
const lines = [
  `Seeds ${from} to ${from + count - 1}, --fuzz ${fuzz}, ${rows.length} variants, ${rows.length * count} ` +
    `runs in ${((performance.now() - started) / 1000).toFixed(0)} s (` +
    `${((used.user + used.system) / 1e6).toFixed(0)} s of CPU)`,
  "",
  `${"variant".padEnd(width)}  ${"must".padEnd(10)}  green  red  red seeds`,
  ...rows.map(
    (row) =>
      `${row.name.padEnd(width)}  ${(row.kind === "defect" ? "be caught" : "pass").padEnd(10)}  ` +
      `${String(row.green).padStart(5)}  ${String(row.red.length).padStart(3)}  ` +
      `${row.red.slice(0, 10).join(" ")}${row.red.length > 10 ? " …" : ""}`,
  ),
];
const reds = rows.filter((row) => row.red.length > 0);
if (reds.length > 0)
  lines.push("", "First red run of each red row:", ...reds.map((row) => `  ${row.name}: ${row.firstRed}`));
lines.push(
  "",
  reds.length === 0
    ? `All green: ${rows.length * count} runs.`
    : `${reds.length} red row${reds.length === 1 ? "" : "s"}.`,
);
console.log(lines.join("\n"));
process.exitCode = reds.length === 0 ? 0 : 1;
