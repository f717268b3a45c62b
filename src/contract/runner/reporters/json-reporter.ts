import type { RunReport } from "../run-report.ts";

/** The whole report as JSON, for tools. */
export function renderJsonReport(report: RunReport): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}
