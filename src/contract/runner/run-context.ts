import type { Tier } from "../contract-violation.ts";
import { CheckLedger, excerpt, type CheckLedgerDeps } from "./check-ledger.ts";
import type { CheckName } from "./checks.ts";
import type { Exchange, Exchanger } from "./http-exchange.ts";
import type { ExchangeSummary } from "./run-report.ts";

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
export interface RunContextDeps extends CheckLedgerDeps {
  exchange: Exchanger;
  apiKey: string;
  token: string;
}

/**
 * The state of one contract run: it sends each step's request, holds the answer against the contract and
 * against what the step expects, and records every check with its tier.
 */
export class RunContext extends CheckLedger {
  /** Set once the service stops answering; every later step is skipped. */
  lostContact: string | undefined;
  readonly #exchange: Exchanger;
  readonly #apiKey: string;
  readonly #token: string;

  constructor({ exchange, apiKey, token, ...deps }: RunContextDeps) {
    super(deps);
    this.#exchange = exchange;
    this.#apiKey = apiKey;
    this.#token = token;
  }

  /** The operation of the contract with this id. */
  operation(operationId: string) {
    const operation = this.deps.contract.operation(operationId);
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
      headers["API-KEY"] = this.#apiKey;
      headers.TOKEN = credentials === "valid" ? this.#token : `${this.#token}-not-this-one`;
    }
    const sent = await this.#exchange({ method: operation.method, path, headers, body: options.body });
    this.exchanges += 1;
    const before = this.results.length;

    if (!sent.ok) {
      this.lostContact = `the service stopped answering at ${operation.method} ${path}: ${sent.failure.reason}`;
      this.record("not_a_server_error", "fact", false, step, { operation: operationId, request, message: this.lostContact });
      this.deps.emit({ kind: "step", step, operation: operationId, request, durationMs: 0, results: this.results.slice(before) });
      return undefined;
    }
    const exchange = sent.exchange;
    request.status = exchange.status;
    const context = { operation: operationId, request };
    this.checkAnswer(step, context, exchange);

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

    this.deps.emit({ kind: "step", step, operation: operationId, request, durationMs: exchange.durationMs, results: this.results.slice(before) });
    return exchange;
  }

  /** Records a check about a step's answer that the scenario evaluates itself, and tells the reporter. */
  verify(check: CheckName, tier: Tier, passed: boolean, step: string, exchange: Exchange | undefined, message: string, operation?: string): void {
    const details: { operation?: string; request?: ExchangeSummary; message: string } = { message };
    if (operation) details.operation = operation;
    if (exchange) details.request = { method: exchange.method, path: exchange.path, status: exchange.status };
    this.deps.emit({ kind: "check", result: this.record(check, tier, passed, step, details) });
  }
}
