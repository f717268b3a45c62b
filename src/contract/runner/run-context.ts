import type { Contract } from "../create-contract.ts";
import { formatViolation, type ContractViolation, type Tier } from "../contract-violation.ts";
import type { CheckName } from "./checks.ts";
import type { Exchange, Exchanger } from "./http-exchange.ts";
import type { CheckResult, CheckStatus, ExchangeSummary, OperationCoverage, RunEvent } from "./run-report.ts";

/** Which credentials a call sends. */
export type CredentialMode = "valid" | "none" | "wrong-token";

/** The checks that demand a refusal (any status but 2xx). */
export type RefusalCheck = Extract<CheckName, "negative_data_rejection" | "ignored_auth" | "use_after_free" | "duplicate_agent_rejected">;

/** What a step sends and expects. */
export interface CallOptions {
  body?: unknown;
  credentials?: CredentialMode;
  /** `success`: the documented 200; a refusal: any status but 2xx, demanded by that check; `any`: no expectation. */
  expect: "success" | { refusal: RefusalCheck; tier?: Tier } | "any";
}

/** Collaborators of a run. */
export interface RunContextDeps {
  exchange: Exchanger;
  /** The contract as written (documented facts and marked assumptions). */
  contract: Contract;
  /** The closed reading, to find fields the contract does not list. */
  closedContract: Contract;
  apiKey: string;
  token: string;
  strict: boolean;
  emit: (event: RunEvent) => void;
}

/**
 * The state of one contract run: it sends each step's request, holds the answer against the contract and
 * against what the step expects, and records every check with its tier. A failed check that rests only on an
 * assumption is a warning unless the run is strict.
 */
export class RunContext {
  readonly results: CheckResult[] = [];
  readonly coverage = new Map<string, Set<number>>();
  exchanges = 0;
  /** Set once the service stops answering; every later step is skipped. */
  lostContact: string | undefined;
  readonly #deps: RunContextDeps;

  constructor(deps: RunContextDeps) {
    this.#deps = deps;
  }

  /** The operation of the contract with this id. */
  operation(operationId: string) {
    const operation = this.#deps.contract.operation(operationId);
    if (!operation) throw new Error(`The scenario names an unknown operation: ${operationId}`);
    return operation;
  }

  /** Sends one request of the scenario and checks its answer. Undefined when no answer came. */
  async call(step: string, operationId: string, path: string, options: CallOptions): Promise<Exchange | undefined> {
    const operation = this.operation(operationId);
    const request: ExchangeSummary = { method: operation.method, path };
    if (options.body !== undefined) request.body = options.body;
    if (this.lostContact) {
      this.skip("not_a_server_error", step, `skipped: ${this.lostContact}`, operationId, request);
      return undefined;
    }

    const headers: Record<string, string> = { "content-type": "application/json", accept: "application/json" };
    const credentials = options.credentials ?? "valid";
    if (credentials !== "none") {
      headers["API-KEY"] = this.#deps.apiKey;
      headers.TOKEN = credentials === "valid" ? this.#deps.token : `${this.#deps.token}-not-this-one`;
    }
    const sent = await this.#deps.exchange({ method: operation.method, path, headers, body: options.body });
    this.exchanges += 1;
    const before = this.results.length;

    if (!sent.ok) {
      this.lostContact = `the service stopped answering at ${operation.method} ${path}: ${sent.failure.reason}`;
      this.record("not_a_server_error", "fact", false, step, { operation: operationId, request, message: this.lostContact });
      this.#deps.emit({ kind: "step", step, operation: operationId, request, durationMs: 0, results: this.results.slice(before) });
      return undefined;
    }
    const exchange = sent.exchange;
    request.status = exchange.status;
    let statuses = this.coverage.get(operationId);
    if (!statuses) this.coverage.set(operationId, (statuses = new Set()));
    statuses.add(exchange.status);
    const context = { operation: operationId, request };

    this.record("not_a_server_error", "fact", exchange.status < 500, step, { ...context, message: `answered ${exchange.status}: ${excerpt(exchange.text)}` });

    const response = { method: operation.method, path, status: exchange.status, headers: exchange.headers, body: exchange.body };
    const open = this.#deps.contract.validateResponse(response);
    this.#fromViolations("status_code_conformance", step, context, open.errors.filter((error) => error.part === "status"));
    if (exchange.status < 500 && open.errors.every((error) => error.part !== "status")) {
      this.#fromViolations("content_type_conformance", step, context, open.errors.filter((error) => error.part === "header"));
      const bodyViolations = open.errors.filter((error) => error.part === "body");
      if (exchange.jsonError) {
        this.record("response_schema_conformance", "fact", false, step, { ...context, message: `the body is announced as JSON but does not parse: ${exchange.jsonError}` });
      } else {
        this.#fromViolations("response_schema_conformance", step, context, bodyViolations);
      }
      const closed = this.#deps.closedContract.validateResponse(response);
      const extra = closed.errors.filter((error) => error.rule === "unevaluatedProperties");
      this.#fromViolations("undocumented_response_property", step, context, extra.map((error) => ({ ...error, tier: "assumption" as const })));
    }

    if (options.expect === "success") {
      const succeeded = exchange.status === 200;
      this.record("status_code_conformance", "fact", succeeded, step, {
        ...context,
        message: `the operation should have succeeded with 200 (section 4), got ${exchange.status}: ${excerpt(exchange.text)}`,
      });
    } else if (options.expect !== "any") {
      const refused = exchange.status < 200 || exchange.status >= 300;
      this.record(options.expect.refusal, options.expect.tier ?? "fact", refused, step, {
        ...context,
        message: `should have been refused, got ${exchange.status}: ${excerpt(exchange.text)}`,
      });
    }

    this.#deps.emit({ kind: "step", step, operation: operationId, request, durationMs: exchange.durationMs, results: this.results.slice(before) });
    return exchange;
  }

  /** Records one evaluation of a check. The message is kept only when the check did not pass. */
  record(
    check: CheckName,
    tier: Tier,
    passed: boolean,
    step: string,
    details: { operation?: string; request?: ExchangeSummary; message?: string; violations?: ContractViolation[] } = {},
  ): CheckResult {
    const status: CheckStatus = passed ? "passed" : tier === "fact" || this.#deps.strict ? "failed" : "warning";
    const result: CheckResult = { check, status, tier, step };
    if (details.operation) result.operation = details.operation;
    if (details.request) result.request = details.request;
    if (!passed && details.message) result.message = details.message;
    if (!passed && details.violations?.length) result.violations = details.violations;
    this.results.push(result);
    return result;
  }

  /** Records a check that could not run, and why. */
  skip(check: CheckName, step: string, reason: string, operation?: string, request?: ExchangeSummary): void {
    const result: CheckResult = { check, status: "skipped", tier: "fact", step, message: reason };
    if (operation) result.operation = operation;
    if (request) result.request = request;
    this.results.push(result);
    this.#deps.emit({ kind: "check", result });
  }

  /** Records a check about a step's answer that the scenario evaluates itself, and tells the reporter. */
  verify(check: CheckName, tier: Tier, passed: boolean, step: string, exchange: Exchange | undefined, message: string, operation?: string): void {
    const details: { operation?: string; request?: ExchangeSummary; message: string } = { message };
    if (operation) details.operation = operation;
    if (exchange) details.request = { method: exchange.method, path: exchange.path, status: exchange.status };
    this.#deps.emit({ kind: "check", result: this.record(check, tier, passed, step, details) });
  }

  /** Coverage per operation: the statuses seen beside the documented ones. */
  coverageReport(): Record<string, OperationCoverage> {
    const report: Record<string, OperationCoverage> = {};
    for (const operation of this.#deps.contract.operations) {
      report[operation.id] = {
        statuses: [...(this.coverage.get(operation.id) ?? [])].sort((a, b) => a - b),
        documented: [...operation.responses.keys()],
      };
    }
    return report;
  }

  #fromViolations(check: CheckName, step: string, context: { operation: string; request: ExchangeSummary }, violations: ContractViolation[]): void {
    const facts = violations.filter((violation) => violation.tier === "fact");
    const tier: Tier = facts.length > 0 || violations.length === 0 ? "fact" : "assumption";
    this.record(check, tier, violations.length === 0, step, {
      ...context,
      message: violations.map(formatViolation).join("\n"),
      violations,
    });
  }
}

function excerpt(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > 200 ? `${flat.slice(0, 200)}…` : flat || "(empty body)";
}
