/**
 * The generated part of docs/performance.md (issue 29): figures for users, not the bench's goal ids, bounds or
 * verdicts. Rendered from a report of made-up figures, as `npm run bench -- --update-docs` renders a run's.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { BenchReport } from "../../scripts/bench/main.ts";
import { renderSection } from "../../scripts/bench/performance-page.ts";
import { PACKAGE_ROOT } from "../support/start-process.ts";

const report = {
  settings: { quick: false },
  environment: { node: "v20.20.2", cpus: 2, cpuModel: "Test CPU", loadAverageAtStart: 1, loadAverageAtEnd: 1, gcForced: true, cpuClock: { name: "cpuUsage", resolutionMs: 0.001 } },
  goals: [
    { id: "2c", name: "throughput at 100,000 properties / default fixtures", measured: "0.89×", target: "≥ 0.95×", pass: false },
    { id: "4a", name: "resident memory right after start, 100,000 properties", measured: "280.3 MiB", target: "≤ 400 MiB", pass: true },
    { id: "23c", name: "CPU per answered GET, mock / bare node:http", measured: "0.00×", target: "≤ 1.60×", pass: false, unmeasured: true },
  ],
  failures: [],
} as unknown as BenchReport;

describe("the performance page's generated section", () => {
  const section = renderSection(report);

  it("shows each measured figure by what it measures", () => {
    expect(section).toContain("| throughput at 100,000 properties / default fixtures | 0.89× |");
    expect(section).toContain("| resident memory right after start, 100,000 properties | 280.3 MiB |");
    expect(section).toContain("| CPU per answered GET, mock / bare node:http | not measured |");
  });

  it("names no goal id, bound or verdict", () => {
    expect(section).not.toMatch(/\b(2c|4a|23c)\b|PASS|FAIL|NOT MEASURED|≥|≤|\bgoal\b/);
  });

  it("is what docs/performance.md holds between its markers, in the same form (no goal table left)", () => {
    const page = readFileSync(join(PACKAGE_ROOT, "docs", "performance.md"), "utf8");
    const generated = page.slice(page.indexOf("<!-- bench:start -->"), page.indexOf("<!-- bench:end -->"));
    expect(generated).toContain("| measured | figure |");
    expect(generated).not.toMatch(/\| [0-9]+[a-z]?\. |PASS|FAIL|\(goal /);
  });
});
