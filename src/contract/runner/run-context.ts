import type { OperationId } from "../operation-id.ts";
import type { Tier } from "../contract-violation.ts";
import type { Contract } from "../create-contract.ts";
import { AnswerInvariants } from "./answer-invariants.ts";
import { CheckLedger, excerpt, type CheckLedgerDeps, type CheckContext, type ResultDetails } from "./check-ledger.ts";
import type { CheckName } from "./checks.ts";
import type { CallOptions, Needs, StepCheck } from "./step-call.ts";
import type { Exchange, NoAnswer, Retried } from "./http-exchange.ts";
import type { ObservedAnswer } from "../profile/profile-observer.ts";
import { REPEATABLE_OPERATIONS, retriesOf } from "./retry-policy.ts";
import type { CheckResult, ExchangeSummary, RetriedRequest, RunReport, UnansweredRequest } from "./run-report.ts";
import { RunLeaves, type CreatedProperty } from "./run-leaves.ts";
import { RunInterrupted, withContentType, type AccountName, type CredentialMode, type Sender } from "./sender.ts";

export { RunInterrupted, type AccountName, type CredentialMode, type Credentials } from "./sender.ts";
export type { CreatedProperty } from "./run-leaves.ts";

export type { CallOptions, Needs, StepCheck } from "./step-call.ts";

/** Collaborators of a run. */
export interface RunContextDeps extends CheckLedgerDeps {
  /** Sends every request of the run, with the credentials of the account asked for. */
  sender: Sender;
  /**
   * The address clients reach the service at, when it sits behind another one (the auto-login uri starts with it); the
   * sender's base URL otherwise.
   */
  publicBaseUrl?: string;
  /** Told of every answer, to record or compare a service profile (`--write-profile`, `--profile`). */
  observe?: (answer: ObservedAnswer) => void;
  /** The run's tag (`<run id>-<random>`): the title and external id of every property the run leaves say it. */
  tag?: string;
  /** How many properties the scenario may create (14 by default); steps that would make more are not sent. */
  propertyLimit?: number;
}

/** The properties a plain run creates at most: the one with every field, the minimal one, and the sweep's 12. */
export const SCENARIO_PROPERTY_LIMIT = 14;

/** Requests in a row without an answer after which the run stops sending: the service is gone, not slow once. */
const UNANSWERED_IN_A_ROW = 3;

/**
 * The state of one contract run, by composition: the {@link Sender} sends each step's request with the
 * credentials asked for, the {@link CheckLedger} records every check with its tier and section, and
 * {@link RunLeaves} keeps the records the run created, so that {@link RunContext.cleanUp} labels or deletes them.
 * Between them it holds each answer against the contract and against what the step expects, and keeps the
 * requests that got no answer, so that what rested on them is skipped with the reason.
 */
export class RunContext {
  /** The checks of the run. */
  readonly ledger: CheckLedger;
  readonly sender: Sender;
  /** What the run leaves on the service. */
  readonly leaves = new RunLeaves();
  /** Set once the service stops answering; every later step is skipped. */
  lostContact: string | undefined;
  /** Requests that got no answer: each failed once, and what rested on it was skipped. */
  readonly unanswered: UnansweredRequest[] = [];
  /** Requests sent again after a 429 or 503 with Retry-After, and how long each waited. */
  readonly retried: RetriedRequest[] = [];
  #unansweredInARow = 0;
  /** How many properties the scenario made; the generated phase keeps its own count. */
  #scenarioProperties = 0;
  readonly #run: RunContextDeps;
  readonly #invariants: AnswerInvariants;

  constructor(deps: RunContextDeps) {
    this.ledger = new CheckLedger(deps);
    this.sender = deps.sender;
    this.#run = deps;
    this.#invariants = new AnswerInvariants(deps.publicBaseUrl ?? deps.sender.baseUrl);
  }

  /** The checks recorded so far. */
  get results(): CheckResult[] {
    return this.ledger.results;
  }

  /** Requests sent to the service, clean-up and those sent again included. */
  get exchanges(): number {
    return this.ledger.exchanges;
  }

  set exchanges(count: number) {
    this.ledger.exchanges = count;
  }

  /** Properties the run created, in order: the service has no operation to delete them. */
  get properties(): CreatedProperty[] {
    return this.leaves.properties;
  }

  /** Creates that got no answer: the service may have made a record the run cannot name, nor delete. */
  get unknownCreates(): string[] {
    return this.leaves.unknownCreates;
  }

  /** Records one evaluation of a check (see {@link CheckLedger.record}). */
  record(check: CheckName, tier: Tier, passed: boolean, step: string, details: ResultDetails = {}): CheckResult {
    return this.ledger.record(check, tier, passed, step, details);
  }

  /** Records a check that could not run, and why, and tells the reporter. */
  skip(check: CheckName, step: string, reason: string, operation?: string, request?: ExchangeSummary): void {
    this.ledger.skip(check, step, reason, operation, request);
  }

  /** Records a check that could not run, and why, as part of the step under way. */
  skipped(check: CheckName, step: string, reason: string, operation?: string, request?: ExchangeSummary): CheckResult {
    return this.ledger.skipped(check, step, reason, operation, request);
  }

  /** Holds an answer against the contract (see {@link CheckLedger.checkAnswer}). */
  checkAnswer(step: string, context: CheckContext, exchange: Exchange): void {
    this.ledger.checkAnswer(step, context, exchange);
  }

  /** The report of the run (see {@link CheckLedger.report}). */
  report(about: Parameters<CheckLedger["report"]>[0]): RunReport {
    return this.ledger.report(about);
  }

  /** How many more properties the scenario may create before it reaches its limit. */
  propertyRoom(): number {
    return (this.#run.propertyLimit ?? SCENARIO_PROPERTY_LIMIT) - this.#scenarioProperties;
  }

  /** Notes a property the run created (once per nid), to label it at the end and list it in the report. */
  noteProperty(nid: string, by: string, account: AccountName = "primary"): boolean {
    return this.leaves.noteProperty(nid, by, account);
  }

  /** Whether the run has credentials for this account. */
  has(account: AccountName): boolean {
    return this.sender.has(account);
  }

  /** The contract the run holds answers to. */
  get contract(): Contract {
    return this.#run.contract;
  }

  /** The operation of the contract with this id. */
  operation(operationId: OperationId) {
    const operation = this.#run.contract.operation(operationId);
    if (!operation) throw new Error(`The scenario names an unknown operation: ${operationId}`);
    return operation;
  }

  /** Sends one request of the scenario and checks its answer. Undefined when no answer came. */
  async call(
    step: string,
    operationId: OperationId,
    path: string,
    options: CallOptions,
  ): Promise<Exchange | undefined> {
    this.sender.throwIfInterrupted();
    const operation = this.operation(operationId);
    const account = options.as ?? "primary";
    const credentials = options.credentials ?? "valid";
    const headers = withContentType(this.sender.headers(account, credentials), options.contentType);
    const request: ExchangeSummary = { method: operation.method, path };
    if (options.body !== undefined) request.body = options.body;
    request.curl = this.sender.curl(operation.method, path, headers, options.body);
    if (this.lostContact) {
      this.skip("not_a_server_error", step, `skipped: ${this.lostContact}`, operationId, request);
      return undefined;
    }
    const missing = this.missing(options.needs);
    if (missing) {
      this.skip(
        typeof options.expect === "object" ? options.expect.refusal : "status_code_conformance",
        step,
        `not sent: ${missing}`,
        operationId,
        request,
      );
      return undefined;
    }

    const repeatable = REPEATABLE_OPERATIONS[operationId]?.repeat ?? false;
    const sent = await this.sender.send(operation.method, path, headers, options.body, repeatable);
    const retried = sent.ok ? sent.exchange.retried : sent.failure.retried;
    // Every request sent counts, those sent again after Retry-After too.
    this.exchanges += 1 + retriesOf(retried);
    const before = this.results.length;
    if (retried) this.noteRetry(step, operation.method, path, retried, sent.ok ? sent.exchange.status : undefined);

    if (!sent.ok) {
      this.#noAnswer(step, operationId, request, sent.failure);
      if (operationId.startsWith("create")) this.leaves.noteUnknownCreate(step, operation.method, path);
      this.#invariants.forget(account, operationId, path);
      this.#run.emit({
        kind: "step",
        step,
        operation: operationId,
        request,
        durationMs: 0,
        results: this.results.slice(before),
      });
      return undefined;
    }
    this.#unansweredInARow = 0;
    const exchange = sent.exchange;
    request.status = exchange.status;
    if (this.leaves.track(step, operationId, path, exchange, account, credentials) && operationId === "createProperty")
      this.#scenarioProperties += 1;
    const context = { operation: operationId, request };
    this.checkAnswer(step, context, exchange);
    this.#observe(step, operationId, account, credentials, options, exchange);
    // The rules every answer of this operation keeps, held to what the run knows of its own records.
    if (credentials === "valid") {
      for (const found of this.#invariants.observe(account, operationId, path, options.body, exchange)) {
        this.record(found.check, "fact", found.passed, step, {
          ...context,
          message: found.message,
          section: found.section,
        });
      }
    }
    // A passed check keeps no message, expected or actual value: they are made, with the body's excerpt, only
    // for a check that did not pass.
    if (options.expect === "success") {
      const succeeded = exchange.status === 200;
      this.record(
        "status_code_conformance",
        "fact",
        succeeded,
        step,
        succeeded
          ? { ...context, section: "4" }
          : {
              ...context,
              message:
                `the operation should have succeeded with 200 (section 4), got ${exchange.status}: ` +
                `${excerpt(exchange.text)}`,
              section: "4",
              expected: "200",
              actual: `${exchange.status} ${excerpt(exchange.text)}`,
            },
      );
    } else if (options.expect !== "any") {
      const { refusal, tier = "fact", section, rule } = options.expect;
      const refused = exchange.status < 200 || exchange.status >= 300;
      const sectionOf = section ? { section } : {};
      this.record(
        refusal,
        tier,
        refused,
        step,
        refused
          ? { ...context, ...sectionOf }
          : {
              ...context,
              message:
                `should have been refused${rule ? ` (${rule})` : ""}, ` +
                `got ${exchange.status}: ${excerpt(exchange.text)}`,
              ...sectionOf,
              expected: "a refusal (any status but 2xx)",
              actual: `${exchange.status} ${excerpt(exchange.text)}`,
            },
      );
    }

    this.#run.emit({
      kind: "step",
      step,
      operation: operationId,
      request,
      durationMs: exchange.durationMs,
      results: this.results.slice(before),
    });
    return exchange;
  }

  /**
   * Sends a request outside the contract's operations (an unknown route, a method a path does not take), with
   * the primary account's credentials: only a server error fails it. For profiling what the service answers.
   */
  async probe(
    step: string,
    method: string,
    path: string,
    options: { body?: unknown; point: string },
  ): Promise<Exchange | undefined> {
    this.sender.throwIfInterrupted();
    const headers = this.sender.headers("primary", "valid");
    const request: ExchangeSummary = { method, path };
    if (options.body !== undefined) request.body = options.body;
    request.curl = this.sender.curl(method, path, headers, options.body);
    if (this.lostContact) return undefined;
    const sent = await this.sender.send(method, path, headers, options.body);
    this.exchanges += 1;
    const before = this.results.length;
    const operation = `${method} ${path}`;
    if (!sent.ok) {
      this.#noAnswer(step, operation, request, sent.failure);
    } else {
      this.#unansweredInARow = 0;
      request.status = sent.exchange.status;
      const answered = sent.exchange.status < 500;
      this.record(
        "not_a_server_error",
        "fact",
        answered,
        step,
        answered
          ? { operation, request }
          : { operation, request, message: `answered ${sent.exchange.status}: ${excerpt(sent.exchange.text)}` },
      );
      this.#observe(step, undefined, "primary", "valid", { expect: "any", point: options.point }, sent.exchange);
    }
    this.#run.emit({
      kind: "step",
      step,
      operation,
      request,
      durationMs: sent.ok ? sent.exchange.durationMs : 0,
      results: this.results.slice(before),
    });
    return sent.ok ? sent.exchange : undefined;
  }

  /** Tells the profile observer of a value a step worked out from an answer it already checked. */
  observeOnly(step: string, exchange: Exchange, point: string, value: unknown): void {
    this.#observe(step, undefined, "primary", "valid", { expect: "any", point, observed: value }, exchange);
  }

  #observe(
    step: string,
    operationId: OperationId | undefined,
    account: AccountName,
    credentials: CredentialMode,
    options: CallOptions,
    exchange: Exchange,
  ): void {
    if (!this.#run.observe) return;
    const answer: ObservedAnswer = { step, account, credentials, exchange };
    if (operationId) answer.operationId = operationId;
    if (typeof options.expect === "object") answer.refusal = options.expect.refusal;
    if (options.point) answer.point = options.point;
    if (options.unsetFields) answer.unsetFields = options.unsetFields;
    if (options.observed !== undefined) answer.value = options.observed;
    this.#run.observe(answer);
  }

  /** Records a check about a step's answer that the scenario evaluates itself, and tells the reporter. */
  check(check: CheckName, options: StepCheck): void {
    const { step, passed, message, exchange, operation, tier = "fact", section, expected, actual } = options;
    const missing = this.missing([...("exchange" in options ? [exchange] : []), ...(options.needs ?? [])], step);
    if (missing) {
      this.skip(check, step, missing, operation);
      return;
    }
    const request: ExchangeSummary | undefined = exchange
      ? { method: exchange.method, path: exchange.path, status: exchange.status }
      : undefined;
    if (request && exchange?.requestBody !== undefined) request.body = exchange.requestBody;
    if (request && exchange) request.curl = this.sender.curlOf(exchange);
    const result = this.record(check, tier, passed, step, {
      message,
      ...(operation ? { operation } : {}),
      ...(request ? { request } : {}),
      ...(section ? { section } : {}),
      ...(expected !== undefined ? { expected } : {}),
      ...(actual !== undefined ? { actual } : {}),
    });
    this.#run.emit({ kind: "check", result });
  }

  /**
   * Why something resting on these answers cannot be judged: one of them never came. The request named is the
   * one of that step when the run knows it, else the latest that went unanswered.
   */
  missing(needs: Needs | undefined, step?: string): string | undefined {
    if (!needs?.some((answer) => answer === undefined)) return undefined;
    const latest = this.unanswered.findLast((entry) => entry.step === step) ?? this.unanswered.at(-1);
    if (!latest) return undefined;
    return (
      `rests on the answer to ${latest.method} ${latest.path} ("${latest.step}"), which never came: ` +
      `${latest.reason}`
    );
  }

  /**
   * A request without an answer fails that one request (not_a_server_error: the request, the limit, no answer);
   * the run goes on, and whatever rested on the answer is skipped. Unreachable (nothing listening, TLS refused),
   * or three in a row: the service is gone, and every later step is skipped.
   */
  #noAnswer(step: string, operation: string, request: ExchangeSummary, failure: NoAnswer): void {
    if (failure.kind === "interrupted") throw new RunInterrupted();
    this.#unansweredInARow += 1;
    this.unanswered.push({ step, method: failure.method, path: failure.path, reason: failure.reason });
    const message = `${failure.method} ${failure.path} got no answer: ${failure.reason}`;
    this.record("not_a_server_error", "fact", false, step, { operation, request, message });
    if (failure.kind === "unreachable" || this.#unansweredInARow >= UNANSWERED_IN_A_ROW) {
      this.lostContact =
        `the service stopped answering at ${failure.method} ${failure.path}: ` +
        `${failure.reason}` +
        `${failure.kind === "unreachable" ? "" : ` (${UNANSWERED_IN_A_ROW} requests in a row without an answer)`}`;
    }
  }

  /** A request of the preflight that got no answer within the limit: it fails like any other. */
  unansweredPreflight(step: string, operation: string, failure: NoAnswer): void {
    this.exchanges += 1;
    this.#noAnswer(step, operation, { method: failure.method, path: failure.path }, failure);
    this.#unansweredInARow = 0;
  }

  /**
   * A request of the generated phase that got no answer: it fails `not_a_server_error` once, as any request of the
   * scenario does; true when the service seems gone (unreachable, or several requests in a row without an answer).
   */
  unansweredGenerated(operation: string, failure: NoAnswer): boolean {
    this.#noAnswer("generated cases", operation, { method: failure.method, path: failure.path }, failure);
    return this.lostContact !== undefined;
  }

  /** An answer in the generated phase: "several in a row without an answer" starts again. */
  answeredGenerated(): void {
    this.#unansweredInARow = 0;
  }

  /**
   * Records that a request was sent again (after a 429 or 503 with Retry-After, or a dropped connection), for the
   * report.
   */
  noteRetry(step: string, method: string, path: string, retried: Retried, status: number | undefined): void {
    const entry: RetriedRequest = { step, method, path, answers: retried.answers, waitedMs: retried.waitedMs };
    if (retried.dropped !== undefined) entry.dropped = retried.dropped;
    if (status !== undefined) entry.finalStatus = status;
    if (retried.gaveUp) entry.gaveUp = retried.gaveUp;
    this.retried.push(entry);
  }

  /**
   * Labels every property the run created and deletes every agent and document it has not deleted yet, and
   * returns what is left behind and why (run-leaves.ts). Runs after an interruption too.
   */
  async cleanUp(): Promise<string[]> {
    const { leftBehind, sent } = await this.leaves.cleanUp(this.sender, {
      ...(this.#run.tag ? { tag: this.#run.tag } : {}),
      ...(this.lostContact ? { lostContact: this.lostContact } : {}),
    });
    this.exchanges += sent;
    return leftBehind;
  }
}
