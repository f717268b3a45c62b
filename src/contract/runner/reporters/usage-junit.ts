import type { CheckResult, RunReport } from "../run-report.ts";
import { xmlText } from "./xml-text.ts";

/**
 * A report of a consumer's usage as JUnit XML: one test suite for the consumer, one test case per consumer test,
 * named after it, failed by any failed check of its interactions (each failure's message in the body), skipped
 * when it could not be replayed. Checks outside any test (the preflight) make a test case of their own.
 */
export function renderUsageJunit(report: RunReport): string {
  const usage = report.usage!;
  const cases = usage.tests.map((test) => ({
    name: test.name,
    result: test.result,
    reason: test.reason,
    results: report.results.filter((result) => result.consumerTest === test.name),
  }));
  const outside = report.results.filter((result) => result.consumerTest === undefined);
  if (outside.some((result) => result.status === "failed"))
    cases.unshift({
      name: "before the consumer tests (preflight)",
      result: "failed",
      reason: undefined,
      results: outside,
    });
  const failures = cases.filter((entry) => entry.result === "failed").length;
  const skipped = cases.filter((entry) => entry.result === "skipped").length;
  const suite = xmlText(`consumer ${usage.consumer}`);
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="Property Listing Service consumer usage" tests="${cases.length}" ` +
      `failures="${failures}" skipped="${skipped}" time="${(report.durationMs / 1000).toFixed(3)}" ` +
      `timestamp="${xmlText(report.startedAt)}">`,
    `  <testsuite name="${suite}" tests="${cases.length}" failures="${failures}" skipped="${skipped}">`,
    "    <properties>",
    `      <property name="usage" value="${xmlText(usage.file)}"/>`,
    `      <property name="against" ` +
      `value="${xmlText(usage.against === "service" ? report.baseUrl : (usage.profile ?? "profile"))}"/>`,
    "    </properties>",
  ];
  for (const entry of cases) {
    lines.push(`    <testcase classname="${suite}" name="${xmlText(entry.name)}">`);
    const failed = entry.results.filter((result) => result.status === "failed");
    if (entry.result === "failed")
      lines.push(
        `      <failure type="` +
          `${failed.some((result) => result.check === "consumer_assumption") ? "consumer" : "service"}" ` +
          `message="${xmlText(firstLine(failed[0]))}">${xmlText(failed.map(details).join("\n\n"))}</failure>`,
      );
    else if (entry.result === "skipped") lines.push(`      <skipped message="${xmlText(entry.reason ?? "")}"/>`);
    const warnings = entry.results.filter((result) => result.status === "warning");
    if (warnings.length > 0)
      lines.push(
        `      <system-out>` +
          `${xmlText(`WARNING (rests on an assumption of the contract)\n${warnings.map(details).join("\n\n")}`)}` +
          `</system-out>`,
      );
    lines.push("    </testcase>");
  }
  lines.push("  </testsuite>", "</testsuites>", "");
  return lines.join("\n");
}

function details(result: CheckResult): string {
  const request = result.request
    ? `${result.request.method} ` +
      `${result.request.path}${result.request.status === undefined ? "" : ` → ${result.request.status}`}`
    : "";
  return [`${result.check} [${result.tier}]: ${result.step}`, request, result.message ?? ""].filter(Boolean).join("\n");
}

function firstLine(result: CheckResult | undefined): string {
  return `${result?.check ?? ""}: ${(result?.message ?? "").split("\n")[0] ?? ""}`;
}
