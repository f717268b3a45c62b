import type { RunReport } from "../run-report.ts";

const MARK = { passed: "✓", failed: "✗", skipped: "-" } as const;

/**
 * The head of a report of a consumer's usage: what was judged against what, and each test's verdict with what it rests
 * on.
 */
export function usageLines(report: RunReport): string[] {
  const usage = report.usage;
  if (!usage) return [];
  const against =
    usage.against === "service"
      ? `replayed against ${report.baseUrl}`
      : `judged against the service profile ${usage.profile ?? ""}, no request sent`;
  const lines = [
    `Consumer usage of ${usage.consumer} (${usage.file}), ${against} (spec ` +
      `${report.specVersion}${report.strict ? ", strict" : ""})`,
    "",
    "Consumer tests",
  ];
  for (const test of usage.tests) {
    const rests =
      test.restsOn.length > 0 ? `; rests on ${test.restsOn.join(", ")}` : "; rests on documented facts only";
    lines.push(
      `  ${MARK[test.result]} ${test.name} (${test.interactions} ` +
        `interaction${test.interactions === 1 ? "" : "s"}${rests})${test.reason ? `: not run, ${test.reason}` : ""}`,
    );
  }
  return lines;
}
