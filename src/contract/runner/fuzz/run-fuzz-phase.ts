import fc from "fast-check";
import type { Contract } from "../../create-contract.ts";
import type { CheckName } from "../checks.ts";
import { RunInterrupted, type RunContext } from "../run-context.ts";
import type { CheckResult, ExchangeSummary, RunEvent } from "../run-report.ts";
import type { FuzzOperationSummary, FuzzSummary } from "./fuzz-summary.ts";
import { caseArbitrary, coverageCases } from "./case-arbitraries.ts";
import { CaseRunner, type CaseOutcome, type Finding } from "./case-runner.ts";
import { describeCase, type FuzzCase } from "./fuzz-case.ts";
import { readInputModel, type InputOperation } from "./input-model.ts";
import { propertyVocabulary } from "../taken-request.ts";

/** What `--fuzz` and `--seed` ask for. */
export interface FuzzOptions {
  /** Generated cases per operation that takes input. */
  cases: number;
  /** The seed of every generated case: the same seed against the same service sends the same requests. */
  seed: number;
}

/** Collaborators of the phase besides the run's context (its ledger, its sender, what it leaves). */
export interface FuzzPhaseDeps {
  contract: Contract;
  closedContract: Contract;
  strict: boolean;
  emit: (event: RunEvent) => void;
  signal?: AbortSignal;
}

/**
 * The phase creates at most one property per this many cases asked for: the service has no delete, and every
 * property it makes stays published on the account. Valid creates past half of them are judged as edits
 * of the phase's own property, the same fields as the document's edit takes them; creates past all of them that
 * the service might take (it took some the document rules out) are counted and not sent.
 */
export const CASES_PER_PROPERTY = 20;

/** Shrinking one failure sends at most this many requests (and never more than the cases asked for). */
const SHRINK_TRIES = 100;

/** A create body with the required fields only: the phase's first create, whose property edits aim at. */
const FIRST_CREATE = { street: "1 Generated Case Way", city: "Austin", state: "TX", zip: "78701" };

/** The order of the operations: create first, since edits and reads aim at the property it makes. */
const ORDER = [
  "createProperty",
  "editProperty",
  "retrieveProperty",
  "retrievePropertyByExternalId",
  "listUserProperties",
];

/**
 * The generated phase (`--fuzz <n>`): n cases per operation whose input the document describes, built with
 * fast-check from the contract's documented constraints (see input-model.ts and case-arbitraries.ts). Each
 * kind of finding is reported once, with the smallest request that still shows it: a failure is shrunk by
 * fast-check (the failing run replayed by its seed and path), within SHRINK_TRIES requests. It creates at most
 * one property per CASES_PER_PROPERTY cases, each listed as left behind (the service has no delete for them, and
 * the run labels them at its end). It creates no agent or document.
 */
export async function runFuzzPhase(ctx: RunContext, deps: FuzzPhaseDeps, options: FuzzOptions): Promise<FuzzSummary> {
  const model = readInputModel(deps.contract).sort((a, b) => rank(a.id) - rank(b.id));
  const summary: FuzzSummary = {
    casesPerOperation: options.cases,
    properties: { limit: Math.ceil(options.cases / CASES_PER_PROPERTY), created: 0 },
    operations: {},
  };
  const edit = model.find((operation) => operation.id === "editProperty");
  const runner = new CaseRunner({
    propertyLimit: summary.properties.limit,
    ...(edit ? { edit } : {}),
    vocabulary: propertyVocabulary(deps.contract),
    sender: ctx.sender,
    contract: deps.contract,
    closedContract: deps.closedContract,
    strict: deps.strict,
    created: (nid) => {
      if (ctx.noteProperty(nid, "made by a generated case")) summary.properties.created += 1;
    },
    unanswered: (operationId, failure) => ctx.unansweredGenerated(operationId, failure),
    answered: () => ctx.answeredGenerated(),
  });
  let lostContact: string | undefined;
  for (const [index, operation] of model.entries()) {
    const entry: FuzzOperationSummary = { cases: 0, valid: 0, invalid: 0, shrinks: 0, reads: 0 };
    summary.operations[operation.id] = entry;
    if (lostContact) {
      skip(ctx, deps, operation, entry, lostContact);
      continue;
    }
    const started = performance.now();
    const findings = new Map<string, { finding: Finding; fuzzCase: FuzzCase; index: number }>();
    let budget = options.cases;
    const tally = (fuzzCase: FuzzCase, outcome: CaseOutcome) => {
      entry.cases += outcome.sent;
      entry.reads += outcome.reads;
      if (outcome.notSent) entry.notSent = (entry.notSent ?? 0) + 1;
      else if (fuzzCase.broken) entry.invalid += 1;
      else entry.valid += 1;
      ctx.exchanges += outcome.sent + outcome.reads;
      if (outcome.asEdit) entry.asEdits = (entry.asEdits ?? 0) + 1;
      if (outcome.noAnswer) lostContact ??= outcome.noAnswer;
      if (outcome.unansweredAfter !== undefined) {
        entry.unanswered = (entry.unanswered ?? 0) + 1;
        outcome.findings.length = outcome.unansweredAfter;
      }
    };
    // The first finding of each kind, unless a later one of the same kind breaks a fact where it broke only an
    // assumption: an answer whose schema fails a marked assumption must not hide the next one failing a fact.
    const keep = (finding: Finding, fuzzCase: FuzzCase, index: number) => {
      const known = findings.get(finding.kind);
      if (!known || (known.finding.tier !== "fact" && finding.tier === "fact"))
        findings.set(finding.kind, { finding, fuzzCase, index });
    };
    let runs = 0;
    const explore = async (fuzzCase: FuzzCase) => {
      const at = runs++;
      if (budget <= 0 || lostContact || deps.signal?.aborted) return true;
      budget -= 1;
      const outcome = await runner.run(operation, fuzzCase);
      tally(fuzzCase, outcome);
      for (const finding of outcome.findings) keep(finding, fuzzCase, at);
      return true;
    };

    if (operation.id === "createProperty") {
      // The first create is fixed (the required fields only): the property every edit aims at. It is one of the n.
      const first: FuzzCase = { operation: operation.id, params: {}, body: { ...FIRST_CREATE } };
      budget -= 1;
      const outcome = await runner.run(operation, first);
      tally(first, outcome);
      for (const finding of outcome.findings) keep(finding, first, -1);
      if (outcome.created?.record) {
        const reads = await runner.aim(outcome.created.nid, outcome.created.record);
        entry.reads += reads;
        ctx.exchanges += reads;
      }
    }
    const seed = operationSeed(options.seed, index);
    // The cases at the edges of the valid values and one per documented rule and field come first (coverageCases),
    // each out of its half of the budget; the random cases make up the rest, so that about half of the n stay valid.
    const half = Math.floor(budget / 2);
    const coverage = coverageCases(operation, runner.state, seed, {
      valid: Math.floor((budget - half) / 4),
      invalid: half,
    });
    const examples = [...coverage.valid, ...coverage.invalid].map((fuzzCase): [FuzzCase] => [fuzzCase]);
    const arbitrary = caseArbitrary(operation, runner.state, {
      valid: budget - half - coverage.valid.length,
      invalid: half - coverage.invalid.length,
    });
    if (!arbitrary) {
      skip(ctx, deps, operation, entry, "the generated phase could not create its property, which every edit aims at");
      continue;
    }
    await fc.check(fc.asyncProperty(arbitrary, explore), { seed, numRuns: budget, examples });
    if (deps.signal?.aborted) throw new RunInterrupted();

    // Each kind of failure, shrunk: fast-check replays the run that found it (seed and path) and shrinks its case.
    const results: CheckResult[] = [];
    for (const { finding, fuzzCase, index: at } of [...findings.values()].sort((a, b) => a.index - b.index)) {
      let smallest = { finding, fuzzCase };
      if (finding.tier === "fact" && at >= 0 && !lostContact) {
        let tries = Math.min(SHRINK_TRIES, options.cases);
        let first = true;
        await fc.check(
          fc.asyncProperty(arbitrary, async (candidate) => {
            // The replayed case itself is known to fail; sending it again would only spend a request.
            if (first) {
              first = false;
              return false;
            }
            // Out of tries: answering "still fails" without sending lets fast-check run down its shrink tree in a
            // few hundred cheap steps and stop, where "passes" would walk every remaining candidate (seconds of CPU,
            // long enough for the service to close an idle connection). `smallest` keeps the last real failure.
            if (tries <= 0 || lostContact || deps.signal?.aborted) return false;
            tries -= 1;
            const outcome = await runner.run(operation, candidate);
            tally(candidate, outcome);
            entry.shrinks += outcome.sent;
            const same = outcome.findings.find((found) => found.kind === finding.kind);
            if (!same) return true;
            smallest = { finding: same, fuzzCase: candidate };
            return false;
          }),
          { seed, numRuns: options.cases, path: String(at), examples },
        );
        if (deps.signal?.aborted) throw new RunInterrupted();
      }
      // A warning about the answer's shape that the scenario already gave for this operation and status says nothing
      // new.
      if (finding.tier !== "fact" && finding.ofAnswer && repeats(ctx, finding)) continue;
      results.push(record(ctx, operation, smallest.finding, smallest.fuzzCase));
    }
    for (const check of exercised(operation, entry)) {
      if (results.some((result) => result.check === check && result.status !== "passed")) continue;
      results.push(
        ctx.record(check, "fact", true, `generated cases of ${operation.id}`, {
          operation: operation.id,
          section: operation.section,
        }),
      );
    }
    deps.emit({
      kind: "step",
      step:
        `generated: ${entry.cases} cases (${entry.valid} valid, ${entry.invalid} ` +
        `invalid${entry.shrinks ? `, ${entry.shrinks} to shrink` : ""}) and ${entry.reads} reads`,
      operation: operation.id,
      request: { method: operation.method, path: operation.pathTemplate },
      durationMs: Math.round(performance.now() - started),
      results,
      generated: true,
    });
  }
  if (lostContact && !ctx.lostContact) {
    ctx.lostContact = lostContact;
    ctx.record("not_a_server_error", "fact", false, "generated cases", { message: lostContact });
  }
  return summary;
}

function repeats(ctx: RunContext, finding: Finding): boolean {
  return ctx.results.some(
    (result) =>
      result.check === finding.check &&
      result.status !== "passed" &&
      result.operation === finding.operation &&
      result.request?.status === finding.exchange.status,
  );
}

function rank(id: string): number {
  const at = ORDER.indexOf(id);
  return at === -1 ? ORDER.length : at;
}

/** One seed per operation, drawn from the run's seed, so that each operation's cases do not depend on another's. */
function operationSeed(seed: number, index: number): number {
  return (seed + Math.imul(index, 0x9e3779b1)) | 0;
}

/** The checks an operation's cases evaluate, each recorded as passed once when none of its cases failed it. */
function exercised(operation: InputOperation, entry: FuzzOperationSummary): CheckName[] {
  const checks: CheckName[] = ["not_a_server_error"];
  if (entry.invalid > 0) checks.push("negative_data_rejection");
  if (operation.id === "createProperty" && entry.valid > 0) checks.push("create_round_trip");
  if (operation.id === "editProperty" && entry.valid > 0) checks.push("edit_visible");
  return checks;
}

/** Records a finding in the run's report, with the request behind it as a curl line. */
function record(ctx: RunContext, operation: InputOperation, finding: Finding, fuzzCase: FuzzCase): CheckResult {
  const { exchange } = finding;
  const request: ExchangeSummary = {
    method: exchange.method,
    path: exchange.path,
    status: exchange.status,
    curl: ctx.sender.curl(exchange.method, exchange.path, ctx.sender.headers("primary", "valid"), exchange.requestBody),
  };
  if (exchange.requestBody !== undefined) request.body = exchange.requestBody;
  const step =
    `generated ${describeCase(fuzzCase)} case of ` +
    `${operation.id}${finding.operation === operation.id ? "" : `, then ${finding.operation}`}`;
  return ctx.record(finding.check, finding.tier, false, step, {
    operation: finding.operation,
    request,
    message: finding.message,
    section: finding.section,
    ...(finding.expected !== undefined ? { expected: finding.expected } : {}),
    ...(finding.actual !== undefined ? { actual: finding.actual } : {}),
  });
}

function skip(
  ctx: RunContext,
  deps: FuzzPhaseDeps,
  operation: InputOperation,
  entry: FuzzOperationSummary,
  reason: string,
): void {
  entry.skipped = reason;
  deps.emit({
    kind: "check",
    result: ctx.skipped("not_a_server_error", `generated cases of ${operation.id}`, reason, operation.id),
  });
}
