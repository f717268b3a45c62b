import type { Contract } from "../create-contract.ts";
import { formatViolation, type ContractViolation, type Tier } from "../contract-violation.ts";
import { CHECKS, type CheckName } from "./checks.ts";
import type { Exchange } from "./http-exchange.ts";
import type {
  CheckResult,
  CheckStatus,
  ExchangeSummary,
  OperationCoverage,
  RecordingScope,
  RunEvent,
  RunReport,
} from "./run-report.ts";

/** Collaborators of a ledger. */
export interface CheckLedgerDeps {
  /** The contract as written (documented facts and marked assumptions). */
  contract: Contract;
  /** The closed reading, to find fields the contract does not list. */
  closedContract: Contract;
  strict: boolean;
  emit: (event: RunEvent) => void;
}

/** What a result says beside its check, tier and step. */
export interface ResultDetails {
  operation?: string;
  request?: ExchangeSummary;
  message?: string;
  violations?: ContractViolation[];
  section?: string;
  expected?: string;
  actual?: string;
  /** A failure whatever its tier (a consumer that rests on an assumption the service does not keep). */
  fails?: true;
  /** The consumer test a result belongs to, when the run replays a consumer's usage. */
  consumerTest?: string;
}

/** The operation and request line a check result belongs to. */
export interface CheckContext {
  operation: string;
  request: ExchangeSummary;
}

/**
 * Every check evaluated in one run (of the scenario, or over a recording), with its tier: a failed check that
 * rests only on an assumption is a warning unless the run is strict. It also holds an answer against the
 * contract, the same way whether the runner sent the request or a recording holds it.
 */
export class CheckLedger {
  readonly results: CheckResult[] = [];
  readonly coverage = new Map<string, Set<number>>();
  exchanges = 0;
  protected readonly deps: CheckLedgerDeps;

  constructor(deps: CheckLedgerDeps) {
    this.deps = deps;
  }

  /**
   * Holds an answer against the contract: no server error, a documented status and content type, a body of the
   * documented schema, and (as a warning) no unlisted field. `bodyRecorded: false` says the body is unknown
   * (a recording that left it out), so the schema is not checked.
   */
  checkAnswer(
    step: string,
    context: CheckContext,
    exchange: Exchange,
    { bodyRecorded = true }: { bodyRecorded?: boolean } = {},
  ): void {
    let statuses = this.coverage.get(context.operation);
    if (!statuses) this.coverage.set(context.operation, (statuses = new Set()));
    statuses.add(exchange.status);

    // The message is kept only when the check fails: no excerpt of the body is made for the others.
    this.record(
      "not_a_server_error",
      "fact",
      exchange.status < 500,
      step,
      exchange.status < 500
        ? context
        : { ...context, message: `answered ${exchange.status}: ${excerpt(exchange.text)}` },
    );

    const response = {
      method: exchange.method,
      path: exchange.path,
      status: exchange.status,
      headers: exchange.headers,
      body: exchange.body,
    };
    const open = this.deps.contract.validateResponse(response);
    this.checkViolations(
      "status_code_conformance",
      step,
      context,
      open.errors.filter((error) => error.part === "status"),
    );
    if (exchange.status >= 500 || open.errors.some((error) => error.part === "status")) return;
    this.checkViolations(
      "content_type_conformance",
      step,
      context,
      open.errors.filter((error) => error.part === "header"),
    );
    if (!bodyRecorded) {
      this.skipped(
        "response_schema_conformance",
        step,
        "the recording holds no body for this answer",
        context.operation,
        context.request,
      );
      return;
    }
    if (exchange.jsonError) {
      this.record("response_schema_conformance", "fact", false, step, {
        ...context,
        message: `the body is announced as JSON but does not parse: ${exchange.jsonError}`,
      });
    } else {
      this.checkViolations(
        "response_schema_conformance",
        step,
        context,
        open.errors.filter((error) => error.part === "body"),
      );
    }
    // The closed reading has the same operations: the one the open reading matched is not looked for again. Of
    // its findings only the unlisted fields are new, and only they are explained.
    const closed = this.deps.closedContract.validateResponse({
      ...response,
      ...(open.operationId === undefined ? {} : { operationId: open.operationId }),
      rule: "unevaluatedProperties",
    });
    const extra = closed.errors.filter((error) => error.rule === "unevaluatedProperties");
    this.checkViolations(
      "undocumented_response_property",
      step,
      context,
      extra.map((error) => ({ ...error, tier: "assumption" as const })),
    );
  }

  /** Records a check from the violations found for it: passed when there are none, a fact when any is one. */
  checkViolations(check: CheckName, step: string, context: CheckContext, violations: ContractViolation[]): void {
    const facts = violations.filter((violation) => violation.tier === "fact");
    const tier: Tier = facts.length > 0 || violations.length === 0 ? "fact" : "assumption";
    const section = (facts[0] ?? violations[0])?.section;
    if (violations.length === 0) {
      this.record(check, tier, true, step, context);
      return;
    }
    this.record(check, tier, false, step, {
      ...context,
      message: violations.map(formatViolation).join("\n"),
      violations,
      ...(section ? { section } : {}),
    });
  }

  /** Records one evaluation of a check. The message is kept only when the check did not pass. */
  record(check: CheckName, tier: Tier, passed: boolean, step: string, details: ResultDetails = {}): CheckResult {
    const status: CheckStatus = passed
      ? "passed"
      : tier === "fact" || tier === "profile" || this.deps.strict || details.fails
        ? "failed"
        : "warning";
    // Every result cites a section: the step's own, or the check's (checks.ts gives each one).
    const result: CheckResult = { check, status, tier, step, section: details.section ?? CHECKS[check].section };
    if (details.operation) result.operation = details.operation;
    if (details.consumerTest !== undefined) result.consumerTest = details.consumerTest;
    if (details.request) result.request = details.request;
    if (!passed && details.message) result.message = details.message;
    if (!passed && details.expected !== undefined) result.expected = details.expected;
    if (!passed && details.actual !== undefined) result.actual = details.actual;
    if (!passed && details.violations?.length) result.violations = details.violations;
    this.results.push(result);
    return result;
  }

  /** Records a check that could not run, and why, and tells the reporter. */
  skip(check: CheckName, step: string, reason: string, operation?: string, request?: ExchangeSummary): void {
    this.deps.emit({ kind: "check", result: this.skipped(check, step, reason, operation, request) });
  }

  /** Records a check that could not run, and why, as part of the step under way. */
  skipped(check: CheckName, step: string, reason: string, operation?: string, request?: ExchangeSummary): CheckResult {
    const result: CheckResult = {
      check,
      status: "skipped",
      tier: "fact",
      step,
      message: reason,
      section: CHECKS[check].section,
    };
    if (operation) result.operation = operation;
    if (request) result.request = request;
    this.results.push(result);
    return result;
  }

  /** Coverage per operation: the statuses seen beside the documented ones. */
  coverageReport(): Record<string, OperationCoverage> {
    const report: Record<string, OperationCoverage> = {};
    for (const operation of this.deps.contract.operations) {
      report[operation.id] = {
        statuses: [...(this.coverage.get(operation.id) ?? [])].sort((a, b) => a - b),
        documented: [...operation.responses.keys()],
      };
    }
    return report;
  }

  /** The report of the run: its verdict, every result, counts over `checks`, and the coverage. */
  report(about: {
    baseUrl: string;
    startedAt: number;
    finishedAt: number;
    checks: readonly CheckName[];
    leftBehind?: string[];
    recording?: RecordingScope;
    runId?: string;
    interrupted?: boolean;
    clash?: string;
  }): RunReport {
    const report: RunReport = {
      baseUrl: about.baseUrl,
      specVersion: this.deps.contract.document.info.version,
      strict: this.deps.strict,
      startedAt: new Date(about.startedAt).toISOString(),
      durationMs: Math.round(about.finishedAt - about.startedAt),
      result: this.failed ? "failed" : "passed",
      results: this.results,
      summary: this.summary(about.checks),
      coverage: this.coverageReport(),
      exchanges: this.exchanges,
      leftBehind: about.leftBehind ?? [],
    };
    if (about.recording) report.recording = about.recording;
    if (about.runId) report.runId = about.runId;
    if (about.interrupted) report.interrupted = true;
    if (about.clash) report.clash = about.clash;
    return report;
  }

  /** Counts per check, over the checks this kind of run evaluates. */
  summary(checks: readonly CheckName[]): RunReport["summary"] {
    const summary: RunReport["summary"] = {};
    for (const name of checks) summary[name] = { passed: 0, failed: 0, warning: 0, skipped: 0 };
    for (const result of this.results)
      (summary[result.check] ??= { passed: 0, failed: 0, warning: 0, skipped: 0 })[result.status] += 1;
    return summary;
  }

  /** Whether a check of this run failed. */
  get failed(): boolean {
    return this.results.some((result) => result.status === "failed");
  }
}

/** The start of a body, on one line, for a message. */
export function excerpt(text: string): string {
  // A long body is flattened from its start only: once that start holds more than 201 characters on one line, two
  // of them side by side, one at least not a space, the rest of the body cannot change the first 200.
  if (text.length > EXCERPT_READS) {
    const start = text.slice(0, EXCERPT_READS).replace(/\s+/g, " ").trimStart();
    if (start.length > 201) return `${start.slice(0, 200)}…`;
  }
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > 200 ? `${flat.slice(0, 200)}…` : flat || "(empty body)";
}

/** How much of a long body {@link excerpt} flattens first. */
const EXCERPT_READS = 2048;
