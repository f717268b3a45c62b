import { CHECKS } from "../checks.ts";
import type { CheckResult, RunReport } from "../run-report.ts";
import { xmlText } from "./xml-text.ts";
import { renderUsageJunit } from "./usage-junit.ts";

/**
 * The report as JUnit XML for CI: one test suite per check, one test case per evaluation. A warning is a
 * passing test case whose output says why it warned (JUnit has no warning outcome). The seed of the run's
 * generated cases is a property of every suite. Every test case has its own (classname, name): CI systems merge
 * or drop cases that share both, so the name carries the request, and a number when one step evaluates the same
 * check on the same request more than once.
 */
export function renderJunitReport(report: RunReport): string {
  // A consumer's usage: one test case per consumer test, as the team's own suite names it.
  if (report.usage) return renderUsageJunit(report);
  const lines = ['<?xml version="1.0" encoding="UTF-8"?>'];
  const count = (status: string) => report.results.filter((result) => result.status === status).length;
  lines.push(
    `<testsuites name="Property Listing Service contract" tests="${report.results.length}" ` +
      `failures="${count("failed")}" skipped="${count("skipped")}" time="${seconds(report.durationMs)}" ` +
      `timestamp="${xmlText(report.startedAt)}">`,
  );
  const names = uniqueNames(report);
  for (const check of Object.keys(CHECKS)) {
    const results = report.results.filter((result) => result.check === check);
    if (results.length === 0) continue;
    const failures = results.filter((result) => result.status === "failed").length;
    const skipped = results.filter((result) => result.status === "skipped").length;
    lines.push(`  <testsuite name="${check}" tests="${results.length}" failures="${failures}" skipped="${skipped}">`);
    if (report.seed !== undefined) {
      lines.push("    <properties>", `      <property name="seed" value="${report.seed}"/>`);
      if (report.fuzz) lines.push(`      <property name="fuzz" value="${report.fuzz.casesPerOperation}"/>`);
      lines.push("    </properties>");
    }
    for (const result of results) {
      const name = names.get(result)!;
      const request = result.request
        ? `${result.request.method} ` +
          `${result.request.path}${result.request.status === undefined ? "" : ` → ${result.request.status}`}`
        : "";
      const details = [request, result.message ?? ""].filter(Boolean).join("\n");
      lines.push(`    <testcase classname="contract.${check}" name="${xmlText(name)}">`);
      if (result.status === "failed")
        lines.push(
          `      <failure type="${result.tier}" ` +
            `message="${xmlText(firstLine(result.message))}">${xmlText(details)}</failure>`,
        );
      if (result.status === "skipped") lines.push(`      <skipped message="${xmlText(firstLine(result.message))}"/>`);
      if (result.status === "warning")
        lines.push(
          `      <system-out>${xmlText(`WARNING (rests on an assumption of the contract)\n${details}`)}</system-out>`,
        );
      lines.push("    </testcase>");
    }
    lines.push("  </testsuite>");
  }
  lines.push("</testsuites>", "");
  return lines.join("\n");
}

/** Each result's test case name, unique within its check: the step, the operation, the request, then `#2`, `#3`… */
function uniqueNames(report: RunReport): Map<CheckResult, string> {
  const names = new Map<CheckResult, string>();
  const seen = new Map<string, number>();
  for (const result of report.results) {
    const request = result.request ? ` ${result.request.method} ${result.request.path}` : "";
    const what = result.operation ? ` (${result.operation}${request})` : request ? ` (${request.trim()})` : "";
    const base = `${result.step}${what}`;
    const key = `${result.check}\u0000${base}`;
    const count = (seen.get(key) ?? 0) + 1;
    seen.set(key, count);
    names.set(result, count === 1 ? base : `${base} #${count}`);
  }
  return names;
}

function firstLine(text: string | undefined): string {
  return (text ?? "").split("\n")[0] ?? "";
}

function seconds(ms: number): string {
  return (ms / 1000).toFixed(3);
}
