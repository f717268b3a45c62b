/**
 * The generated part of docs/performance.md: each goal's bound and figure for users, not the bench's goal ids or
 * verdicts. Rendered from a report of made-up figures, as `npm run bench -- --update-docs` renders a run's.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { BenchReport } from "../../scripts/bench/run-bench.ts";
import { renderSection } from "../../scripts/bench/performance-page.ts";
import { PACKAGE_ROOT } from "../support/start-process.ts";

const report = {
  settings: { quick: false },
  environment: {
    node: "v20.20.2",
    cpus: 2,
    cpuModel: "Test CPU",
    loadAverageAtStart: 1,
    loadAverageAtEnd: 1,
    gcForced: true,
    cpuClock: { name: "cpuUsage", resolutionMs: 0.001 },
  },
  goals: [
    {
      id: "2c",
      name: "throughput at 100,000 properties / default fixtures",
      measured: "0.89×",
      target: "≥ 0.95×",
      pass: false,
    },
    {
      id: "4a",
      name: "resident memory right after start, 100,000 properties",
      measured: "280.3 MiB",
      target: "≤ 400 MiB",
      pass: true,
    },
    {
      id: "23c",
      name: "CPU per answered GET, mock / bare node:http",
      measured: "0.00×",
      target: "≤ 1.60×",
      pass: false,
      unmeasured: true,
    },
    {
      id: "32.1b",
      name: "throughput at 100,000 properties / default fixtures (2c's figure)",
      measured: "0.89×",
      target: "≥ 0.95×",
      pass: false,
    },
    { id: "11b", name: "GET p99 while edits are persisted", measured: "4.86 ms", target: "≤ 20 ms", pass: true },
  ],
  failures: [],
} as unknown as BenchReport;

describe("the performance page's generated section", () => {
  const section = renderSection(report);

  it("shows each goal by what it measures, with its bound and the run's figure", () => {
    expect(section).toContain("| throughput at 100,000 properties / default fixtures | ≥ 0.95× | 0.89× |");
    expect(section).toContain("| resident memory right after start, 100,000 properties | ≤ 400 MiB | 280.3 MiB |");
    expect(section).toContain("| CPU per answered GET, mock / bare node:http | ≤ 1.60× | not measured |");
    expect(section).toContain("| GET p99 while edits are persisted | ≤ 20 ms | 4.86 ms |");
  });

  it("shows a goal that repeats another's figure under another id once, by its shorter name", () => {
    expect(section.match(/\| throughput at 100,000 properties/g)).toHaveLength(1);
    expect(section).not.toContain("2c's figure");
  });

  it("names no goal id or verdict", () => {
    expect(section).not.toMatch(/\b(2c|4a|23c|32\.1b|11b)\b|PASS|FAIL|NOT MEASURED|\bgoal\b/);
  });

  it("is what docs/performance.md holds between its markers, in the same form (no goal ids or verdicts)", () => {
    const page = readFileSync(join(PACKAGE_ROOT, "docs", "performance.md"), "utf8");
    const generated = page.slice(page.indexOf("<!-- bench:start -->"), page.indexOf("<!-- bench:end -->"));
    expect(generated).toContain("| measured | bound | latest figure |");
    expect(generated).not.toMatch(/\| [0-9]+[a-z]?\. |PASS|FAIL|\(goal /);
  });
});
