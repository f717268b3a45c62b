import { citeSection } from "../../contract-violation.ts";
import { CHECKS } from "../checks.ts";
import type { CheckResult, RunEvent, RunReport } from "../run-report.ts";

const MARK = { passed: "✓", failed: "✗", warning: "!", skipped: "-" } as const;

/** Prints one line per step while the run goes on: `✓ create a property  POST /api/v1/object/property → 200 (12 ms)`. */
export function createProgressPrinter(write: (line: string) => void): (event: RunEvent) => void {
  return (event) => {
    if (event.kind === "check") {
      if (event.result.status !== "passed") write(`    ${MARK[event.result.status]} ${event.result.check}: ${firstLine(event.result.message)}`);
      return;
    }
    const worst = event.results.some((result) => result.status === "failed") ? "failed" : event.results.some((result) => result.status === "warning") ? "warning" : "passed";
    const status = event.request.status === undefined ? "no answer" : String(event.request.status);
    write(`  ${MARK[worst]} ${event.step}  ${event.request.method} ${event.request.path}${event.generated ? "" : ` → ${status}`} (${event.durationMs} ms)`);
    for (const result of event.results) {
      if (result.status === "failed" || result.status === "warning") write(`    ${MARK[result.status]} ${result.check}: ${firstLine(result.message)}`);
    }
  };
}

/** The report for people: checks, coverage, every failure and warning with the request behind it. */
export function renderTextReport(report: RunReport): string {
  const lines: string[] = [];
  const failures = report.results.filter((result) => result.status === "failed");
  const warnings = report.results.filter((result) => result.status === "warning");
  const skipped = report.results.filter((result) => result.status === "skipped");

  const spec = `spec ${report.specVersion}${report.strict ? ", strict" : ""}`;
  const scope = report.recording;
  if (scope) {
    const selection = scope.baseUrl ? `under ${scope.baseUrl}` : `with paths under ${scope.apiPrefix}`;
    const leftOut = [plural(scope.preflights, "CORS preflight"), plural(scope.otherTraffic, "entry to other addresses", "entries to other addresses")];
    lines.push(
      `Contract check of the recording ${scope.file} (${spec})`,
      `  ${scope.checked} of ${scope.entries} entries are exchanges with the service ${selection}; left out: ${leftOut.join(", ")}`,
    );
  } else {
    lines.push(`Contract run against ${report.baseUrl} (${spec})`);
  }
  lines.push("", "Checks");
  const width = Math.max(...Object.keys(CHECKS).map((name) => name.length));
  for (const [name, counts] of Object.entries(report.summary)) {
    const total = counts.passed + counts.failed + counts.warning + counts.skipped;
    if (total === 0) continue;
    const mark = counts.failed > 0 ? MARK.failed : counts.warning > 0 ? MARK.warning : counts.passed > 0 ? MARK.passed : MARK.skipped;
    const parts = [`${counts.passed} passed`];
    if (counts.failed) parts.push(`${counts.failed} failed`);
    if (counts.warning) parts.push(plural(counts.warning, "warning"));
    if (counts.skipped) parts.push(`${counts.skipped} skipped`);
    lines.push(`  ${mark} ${name.padEnd(width)}  ${parts.join(", ")}`);
  }

  const operations = Object.entries(report.coverage);
  const succeeded = operations.filter(([, coverage]) => coverage.statuses.includes(200)).length;
  const documentedPairs = operations.reduce((sum, [, coverage]) => sum + coverage.documented.length, 0);
  const seenPairs = operations.reduce((sum, [, coverage]) => sum + coverage.statuses.filter((status) => coverage.documented.includes(String(status))).length, 0);
  lines.push("", `Coverage: ${succeeded}/${operations.length} operations answered 200; ${seenPairs}/${documentedPairs} documented responses seen`);
  const nameWidth = Math.max(...operations.map(([name]) => name.length));
  for (const [name, coverage] of operations) {
    const seen = coverage.statuses.length > 0 ? coverage.statuses.join(" ") : "not exercised";
    lines.push(`  ${name.padEnd(nameWidth)}  seen ${seen.padEnd(16)} documented ${coverage.documented.join(" ")}`);
  }

  const section = (title: string, results: CheckResult[]) => {
    if (results.length === 0) return;
    lines.push("", `${title} (${results.length})`);
    results.forEach((result, index) => {
      const cited = result.section ? `, ${citeSection(result.section)}` : "";
      lines.push(`  ${index + 1}. ${result.check} [${result.tier}${cited}]: ${result.step}${result.operation ? ` (${result.operation})` : ""}`);
      if (result.request) {
        const status = result.request.status === undefined ? "" : ` → ${result.request.status}`;
        lines.push(`     ${result.request.method} ${result.request.path}${status}`);
        if (result.request.body !== undefined) lines.push(`     body ${truncate(JSON.stringify(result.request.body), 160)}`);
      }
      for (const line of (result.message ?? "").split("\n")) if (line) lines.push(`     ${line}`);
      if (result.expected !== undefined) lines.push(`     expected: ${truncate(result.expected, 300)}`);
      if (result.actual !== undefined) lines.push(`     actual:   ${truncate(result.actual.replace(/\s+/g, " "), 300)}`);
      if (result.request?.curl && result.status !== "skipped") lines.push(`     ${result.request.curl}`);
    });
  };
  if (report.fuzz) {
    lines.push("", `Generated cases (--fuzz ${report.fuzz.casesPerOperation})`);
    const width = Math.max(...Object.keys(report.fuzz.operations).map((name) => name.length));
    for (const [name, entry] of Object.entries(report.fuzz.operations)) {
      const shrinks = entry.shrinks > 0 ? `, ${entry.shrinks} of them to shrink failures` : "";
      lines.push(`  ${name.padEnd(width)}  ${entry.skipped ? `skipped: ${entry.skipped}` : `${entry.cases} sent (${entry.valid} valid, ${entry.invalid} invalid${shrinks}), ${plural(entry.reads, "read")} to check them`}`);
    }
  }

  section("Failures", failures);
  section("Warnings (rest on the contract's assumptions; --strict makes them failures)", warnings);
  section("Skipped", skipped);
  if (report.leftBehind.length > 0) lines.push("", `Left behind (${report.leftBehind.length}):`, ...report.leftBehind.map((entry) => `  ${entry}`));
  if (report.runId !== undefined || report.seed !== undefined) lines.push("");
  if (report.runId) lines.push(`Run id ${report.runId}: its records carry it in their emails, titles and external ids.`);
  if (report.seed !== undefined) lines.push(`Seed ${report.seed}: --seed ${report.seed} sends the same generated cases again.`);

  const verdict = report.interrupted ? "Run INTERRUPTED, no verdict" : report.clash ? "No verdict (another client used the account)" : report.result === "passed" ? "Contract HOLDS" : "Contract BROKEN";
  const counts = `${plural(failures.length, "failure")}, ${plural(warnings.length, "warning")}`;
  const seconds = `${(report.durationMs / 1000).toFixed(1)} s`;
  lines.push(
    "",
    scope
      ? `${verdict} in ${scope.file}: ${counts}, ${plural(report.exchanges, "exchange")} checked in ${seconds}`
      : `${verdict} against ${report.baseUrl}: ${counts}, ${plural(report.exchanges, "request")} in ${seconds}`,
  );
  return `${lines.join("\n")}\n`;
}

function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}

function firstLine(text: string | undefined): string {
  return truncate((text ?? "").split("\n")[0] ?? "", 200);
}

function truncate(text: string, length: number): string {
  return text.length > length ? `${text.slice(0, length)}…` : text;
}
