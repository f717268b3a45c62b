import { citeSection } from "../../contract-violation.ts";
import { CHECKS } from "../checks.ts";
import type { CheckResult, RunEvent, RunReport } from "../run-report.ts";
import { usageLines } from "./usage-lines.ts";

const MARK = { passed: "✓", failed: "✗", warning: "!", skipped: "-" } as const;

/**
 * Prints one line per step while the run goes on: `✓ create a property  POST /api/v1/object/property → 200 (12 ms)`.
 */
export function createProgressPrinter(write: (line: string) => void): (event: RunEvent) => void {
  return (event) => {
    if (event.kind === "check") {
      if (event.result.status !== "passed")
        write(`    ${MARK[event.result.status]} ${event.result.check}: ${firstLine(event.result.message)}`);
      return;
    }
    const worst = event.results.some((result) => result.status === "failed")
      ? "failed"
      : event.results.some((result) => result.status === "warning")
        ? "warning"
        : "passed";
    const status = event.request.status === undefined ? "no answer" : String(event.request.status);
    write(
      `  ${MARK[worst]} ${event.step}  ${event.request.method} ` +
        `${event.request.path}${event.generated ? "" : ` → ${status}`} (${event.durationMs} ms)`,
    );
    for (const result of event.results) {
      if (result.status === "failed" || result.status === "warning")
        write(`    ${MARK[result.status]} ${result.check}: ${firstLine(result.message)}`);
    }
  };
}

/** Where the JSON report of the same run is, for the pointer to the full list of records left behind. */
export interface TextReportOptions {
  /** The file the JSON report is written to (`--json-report`), when it is. */
  jsonReport?: string;
}

/**
 * The report for people: checks, coverage, every failure and warning with the request behind it, one entry per
 * cause (the checks one answer failed together: a 503 fails not_a_server_error and status_code_conformance), the
 * requests retried or unanswered, and the records left behind as counts, the full list being in the JSON report.
 */
export function renderTextReport(report: RunReport, options: TextReportOptions = {}): string {
  const lines: string[] = [];
  const failures = report.results.filter((result) => result.status === "failed");
  const warnings = report.results.filter((result) => result.status === "warning");
  const skipped = report.results.filter((result) => result.status === "skipped");

  const spec = `spec ${report.specVersion}${report.strict ? ", strict" : ""}`;
  const scope = report.recording;
  if (report.usage) {
    lines.push(...usageLines(report));
  } else if (scope) {
    const selection = scope.baseUrl ? `under ${scope.baseUrl}` : `with paths under ${scope.apiPrefix}`;
    const leftOut = [
      plural(scope.preflights, "CORS preflight"),
      plural(scope.otherTraffic, "entry to other addresses", "entries to other addresses"),
    ];
    lines.push(
      `Contract check of the recording ${scope.file} (${spec})`,
      `  ${scope.checked} of ${scope.entries} entries are exchanges with the service ${selection}; left out: ` +
        `${leftOut.join(", ")}`,
    );
  } else {
    lines.push(`Contract run against ${report.baseUrl} (${spec})`);
  }
  lines.push("", "Checks");
  const width = Math.max(...Object.keys(CHECKS).map((name) => name.length));
  for (const [name, counts] of Object.entries(report.summary)) {
    const total = counts.passed + counts.failed + counts.warning + counts.skipped;
    if (total === 0) continue;
    const mark =
      counts.failed > 0
        ? MARK.failed
        : counts.warning > 0
          ? MARK.warning
          : counts.passed > 0
            ? MARK.passed
            : MARK.skipped;
    const parts = [`${counts.passed} passed`];
    if (counts.failed) parts.push(`${counts.failed} failed`);
    if (counts.warning) parts.push(plural(counts.warning, "warning"));
    if (counts.skipped) parts.push(`${counts.skipped} skipped`);
    lines.push(`  ${mark} ${name.padEnd(width)}  ${parts.join(", ")}`);
  }

  // A usage judged against a profile sends nothing: no operation answered, and a coverage of zero says nothing.
  if (report.usage?.against !== "profile") {
    const operations = Object.entries(report.coverage);
    const succeeded = operations.filter(([, coverage]) => coverage.statuses.includes(200)).length;
    const documentedPairs = operations.reduce((sum, [, coverage]) => sum + coverage.documented.length, 0);
    const seenPairs = operations.reduce(
      (sum, [, coverage]) =>
        sum + coverage.statuses.filter((status) => coverage.documented.includes(String(status))).length,
      0,
    );
    lines.push(
      "",
      `Coverage: ${succeeded}/${operations.length} operations answered 200; ${seenPairs}/${documentedPairs} ` +
        `documented responses seen`,
    );
    const nameWidth = Math.max(...operations.map(([name]) => name.length));
    for (const [name, coverage] of operations) {
      const seen = coverage.statuses.length > 0 ? coverage.statuses.join(" ") : "not exercised";
      lines.push(`  ${name.padEnd(nameWidth)}  seen ${seen.padEnd(16)} documented ${coverage.documented.join(" ")}`);
    }
  }

  const section = (title: string, results: CheckResult[]) => {
    if (results.length === 0) return;
    const causes = byCause(results);
    lines.push(
      "",
      `${title} (${causes.length}` +
        `${causes.length === results.length ? "" : `, from ${plural(results.length, "check")}`})`,
    );
    causes.forEach((group, index) => {
      const first = group[0]!;
      const checks = [...new Set(group.map((result) => result.check))].join(", ");
      const cited = first.section ? `, ${citeSection(first.section)}` : "";
      lines.push(
        `  ${index + 1}. ${checks} [${first.tier}${cited}]: ` +
          `${first.step}${first.operation ? ` (${first.operation})` : ""}`,
      );
      if (first.request) {
        const status = first.request.status === undefined ? "" : ` → ${first.request.status}`;
        lines.push(`     ${first.request.method} ${first.request.path}${status}`);
        if (first.request.body !== undefined)
          lines.push(`     body ${truncate(JSON.stringify(first.request.body), 160)}`);
      }
      const messages = new Set<string>();
      for (const result of group) for (const line of (result.message ?? "").split("\n")) if (line) messages.add(line);
      for (const line of messages) lines.push(`     ${line}`);
      const compared = group.find((result) => result.expected !== undefined || result.actual !== undefined);
      if (compared?.expected !== undefined) lines.push(`     expected: ${truncate(compared.expected, 300)}`);
      if (compared?.actual !== undefined)
        lines.push(`     actual:   ${truncate(compared.actual.replace(/\s+/g, " "), 300)}`);
      if (first.request?.curl && first.status !== "skipped") lines.push(`     ${first.request.curl}`);
    });
  };
  if (report.fuzz) {
    lines.push("", `Generated cases (--fuzz ${report.fuzz.casesPerOperation})`);
    const width = Math.max(...Object.keys(report.fuzz.operations).map((name) => name.length));
    for (const [name, entry] of Object.entries(report.fuzz.operations)) {
      const shrinks = entry.shrinks > 0 ? `, ${entry.shrinks} of them to shrink failures` : "";
      const sent =
        `${entry.cases} sent (${entry.valid} valid, ${entry.invalid} invalid${shrinks}), ` +
        `${plural(entry.reads, "read")} to check them`;
      lines.push(`  ${name.padEnd(width)}  ${entry.skipped ? `skipped: ${entry.skipped}` : sent}`);
    }
  }

  section("Failures", failures);
  section("Warnings (rest on the contract's assumptions; --strict makes them failures)", warnings);
  section("Skipped", skipped);
  waits(lines, report);
  leftBehind(lines, report, options.jsonReport);
  if (report.runId !== undefined || report.seed !== undefined) lines.push("");
  if (report.runId)
    lines.push(`Run id ${report.runId}: its records carry it in their emails, titles and external ids.`);
  if (report.seed !== undefined)
    lines.push(`Seed ${report.seed}: --seed ${report.seed} sends the same generated cases again.`);

  const verdict = report.interrupted
    ? "Run INTERRUPTED, no verdict"
    : report.clash
      ? "No verdict (another client used the account)"
      : report.usage
        ? report.result === "passed"
          ? "Consumer usage HOLDS"
          : "Consumer usage BROKEN"
        : report.result === "passed"
          ? "Contract HOLDS"
          : "Contract BROKEN";
  const counts = `${plural(byCause(failures).length, "failure")}, ${plural(byCause(warnings).length, "warning")}`;
  const seconds = `${(report.durationMs / 1000).toFixed(1)} s`;
  lines.push(
    "",
    scope
      ? `${verdict} in ${scope.file}: ${counts}, ${plural(report.exchanges, "exchange")} checked in ${seconds}`
      : `${verdict} against ${report.usage?.against === "profile" ? "the profile" : report.baseUrl}: ` +
          `${counts}, ${plural(report.exchanges, "request")} in ${seconds}`,
  );
  return `${lines.join("\n")}\n`;
}

/** Results grouped by what caused them: the same step and the same answer (request and status). Order kept. */
function byCause(results: CheckResult[]): CheckResult[][] {
  const groups = new Map<string, CheckResult[]>();
  for (const result of results) {
    const request = result.request
      ? `${result.request.method} ${result.request.path} ${result.request.status ?? "-"}`
      : "";
    const key = `${result.step}\u0000${result.operation ?? ""}\u0000${request}\u0000${result.status}`;
    const group = groups.get(key);
    if (group) group.push(result);
    else groups.set(key, [result]);
  }
  return [...groups.values()];
}

/**
 * The requests sent again (after a 429 or 503 with Retry-After, or a dropped connection), and those without an answer.
 */
function waits(lines: string[], report: RunReport): void {
  const retried = report.retried ?? [];
  if (retried.length > 0) {
    const waited = retried.reduce((sum, entry) => sum + entry.waitedMs, 0);
    const why = [
      retried.some((entry) => entry.answers.length > 0) ? "Retry-After" : undefined,
      retried.some((entry) => entry.dropped !== undefined) ? "a connection closed without an answer" : undefined,
    ]
      .filter(Boolean)
      .join(" or ");
    lines.push(
      "",
      `Sent again after ${why || "Retry-After"} (${plural(retried.length, "request")}, ` +
        `${(waited / 1000).toFixed(1)} s waited in all)`,
    );
    for (const entry of retried) {
      const asked = [
        ...(entry.dropped === undefined ? [] : [`connection closed without an answer (${entry.dropped})`]),
        ...entry.answers.map((answer) => `${answer.status} Retry-After: ${answer.retryAfter}`),
      ].join(", ");
      const end = entry.finalStatus === undefined ? "then no answer" : `then ${entry.finalStatus}`;
      lines.push(
        `  ${entry.method} ${entry.path} (${entry.step}): ${asked || "no retry"}; ` +
          `${end}${entry.gaveUp ? `; not waited for again: ${entry.gaveUp}` : ""}`,
      );
    }
  }
  const unanswered = report.unanswered ?? [];
  if (unanswered.length > 0) {
    lines.push(
      "",
      `No answer (${plural(unanswered.length, "request")}; each failed once, what rested on it is skipped)`,
    );
    for (const entry of unanswered) lines.push(`  ${entry.method} ${entry.path} (${entry.step}): ${entry.reason}`);
  }
}

/**
 * The records left behind as counts by kind and reason, with the few that need a hand (an agent or a document
 * whose delete failed) by name; the full list is in the JSON report (`leftBehind`).
 */
function leftBehind(lines: string[], report: RunReport, jsonReport: string | undefined): void {
  if (report.leftBehind.length === 0) return;
  const properties = report.leftBehind.filter((entry) =>
    /^property \S+\b.* \(the service has no operation to delete a property\)$/.test(entry),
  );
  const others = report.leftBehind.filter((entry) => !properties.includes(entry));
  lines.push("", `Left behind: ${plural(report.leftBehind.length, "record")}`);
  if (properties.length > 0) {
    const labelled = report.runTag ? `; their titles and external ids carry this run's tag, ${report.runTag}` : "";
    lines.push(
      `  ${plural(properties.length, "property", "properties")}: the service has no operation to delete a ` +
        `property${labelled}`,
    );
  }
  for (const entry of others.slice(0, 10)) lines.push(`  ${entry}`);
  if (others.length > 10) lines.push(`  and ${others.length - 10} more`);
  lines.push(
    `  The full list is in the JSON report, under "leftBehind" ` +
      `(${jsonReport ?? "--json-report <file>, or --reporter json"}).`,
  );
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
