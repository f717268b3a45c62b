import type { Tier } from "../contract-violation.ts";
import type { Contract } from "../create-contract.ts";
import { AnswerInvariants } from "./answer-invariants.ts";
import { CheckLedger, excerpt, type CheckLedgerDeps } from "./check-ledger.ts";
import type { CheckName } from "./checks.ts";
import { curlCommand, type CurlHeader } from "./curl-command.ts";
import type { Exchange, Exchanger, NoAnswer, Retried } from "./http-exchange.ts";
import type { ObservedAnswer } from "../profile/profile-observer.ts";
import { REPEATABLE_OPERATIONS, retriesOf } from "./retry-policy.ts";
import type { ExchangeSummary, RetriedRequest, UnansweredRequest } from "./run-report.ts";

/** The credentials of one account: the `API-KEY` and `TOKEN` headers (section 5). */
export interface Credentials {
  apiKey: string;
  token: string;
}

/** The accounts a run may act as: the one it checks, a second one, and one without agents for the seat checks. */
export type AccountName = "primary" | "other" | "fresh";

/**
 * Which credentials a call sends: the account's own, none, only one of the two headers, the account's key with
 * a TOKEN of no account, or with the other account's TOKEN.
 */
export type CredentialMode = "valid" | "none" | "no-key" | "no-token" | "wrong-token" | "other-token";

/** The checks that demand a refusal (any status but 2xx). */
export type RefusalCheck = Extract<CheckName, "negative_data_rejection" | "ignored_auth" | "use_after_free" | "duplicate_agent_rejected" | "agent_seat_limit">;

/** A refusal a step demands: which check, at which tier, citing which section, for breaking which rule. */
export interface Refusal {
  refusal: RefusalCheck;
  tier?: Tier;
  section?: string;
  /** The rule the request breaks, for the message: `state is 2 characters`. */
  rule?: string;
}

/** What a step sends and expects. */
export interface CallOptions {
  body?: unknown;
  /** The account whose credentials are sent (the primary one by default). */
  as?: AccountName;
  credentials?: CredentialMode;
  /** `success`: the documented 200; a refusal: any status but 2xx; `any`: no expectation. */
  expect: "success" | Refusal | "any";
  /** The content-type header to send instead of `application/json`; null sends none (profile probes). */
  contentType?: string | null;
  /** The point of a service profile this request probes (`error.not_found`), for the profile observer. */
  point?: string;
  /** With `point: "unset.property"`: the fields the property was created without. */
  unsetFields?: readonly string[];
  /** A value the step worked out for its point, for the profile observer. */
  observed?: unknown;
  /**
   * Earlier answers this request's expectation rests on (the delete before a retrieve that must be refused): when
   * one never came, the request is not sent and its checks are skipped with the reason (see {@link Needs}).
   */
  needs?: Needs;
}

/**
 * The answers a check or a call rests on, as `ctx.call` gave them: an `undefined` among them is a request that
 * got no answer, so what rests on it cannot be judged and is skipped with the reason, never failed. The answer a
 * check is about (`exchange`) is one of them when the key is given.
 */
export type Needs = ReadonlyArray<Exchange | undefined>;

/** A check a step evaluates itself. */
export interface StepCheck {
  step: string;
  passed: boolean;
  message: string;
  exchange?: Exchange | undefined;
  operation?: string;
  tier?: Tier;
  section?: string;
  expected?: string;
  actual?: string;
  /** Earlier answers the check rests on besides `exchange` (see {@link Needs}). */
  needs?: Needs;
}

/** Collaborators of a run. */
export interface RunContextDeps extends CheckLedgerDeps {
  /** Sends the scenario's requests; stops at once when the run is interrupted. */
  exchange: Exchanger;
  /** Sends the clean-up requests, which must go out even after an interruption. */
  cleanupExchange: Exchanger;
  baseUrl: string;
  accounts: { primary: Credentials; other?: Credentials; fresh?: Credentials };
  /** Show credentials in curl lines instead of environment variables. */
  revealCredentials: boolean;
  /** The address clients reach the service at, when it sits behind another one (the auto-login uri starts with it); `baseUrl` otherwise. */
  publicBaseUrl?: string;
  signal?: AbortSignal;
  /** Told of every answer, to record or compare a service profile (`--write-profile`, `--profile`). */
  observe?: (answer: ObservedAnswer) => void;
  /** The run's tag (`<run id>-<random>`): the title and external id of every property the run leaves say it. */
  tag?: string;
  /** How many properties the scenario may create (14 by default); steps that would make more are not sent. */
  propertyLimit?: number;
}

/** A property the run created: the service has no operation to delete one, so the run labels it instead. */
export interface CreatedProperty {
  nid: string;
  /** What made it: a step of the scenario, or a generated case. */
  by: string;
  account: AccountName;
  /** The title and external id the run gave it at its end, saying which run made it; or why it could not. */
  label?: { title: string; externalId: string } | { failed: string };
}

/** The properties a plain run creates at most: the one with every field, the minimal one, and the sweep's 12. */
export const SCENARIO_PROPERTY_LIMIT = 14;

/** The headers with another content-type, or none (`null`); unchanged when `contentType` is undefined. */
function withContentType(headers: CurlHeader[], contentType: string | null | undefined): CurlHeader[] {
  if (contentType === undefined) return headers;
  const others = headers.filter((header) => header.name !== "content-type");
  return contentType === null ? others : [{ name: "content-type", value: contentType }, ...others];
}

/** Thrown out of a step when the run is interrupted; the run then cleans up and reports what ran. */
export class RunInterrupted extends Error {
  constructor() {
    super("The contract run was interrupted.");
    this.name = "RunInterrupted";
  }
}

const API = "/api/v1/object";
/** Requests in a row without an answer after which the run stops sending: the service is gone, not slow once. */
const UNANSWERED_IN_A_ROW = 3;
const VARIABLES: Record<AccountName, { key: string; token: string }> = {
  primary: { key: "CONTRACT_API_KEY", token: "CONTRACT_TOKEN" },
  other: { key: "CONTRACT_OTHER_API_KEY", token: "CONTRACT_OTHER_TOKEN" },
  fresh: { key: "CONTRACT_FRESH_API_KEY", token: "CONTRACT_FRESH_TOKEN" },
};

interface CreatedRecord {
  kind: "agent" | "document";
  nid: string;
  as: AccountName;
}

/**
 * The state of one contract run: it sends each step's request with the credentials asked for, holds the answer
 * against the contract and against what the step expects, records every check with its tier and section, and
 * keeps the list of records the run created, so that {@link RunContext.cleanUp} can delete what is left.
 */
export class RunContext extends CheckLedger {
  /** Set once the service stops answering; every later step is skipped. */
  lostContact: string | undefined;
  /** Requests that got no answer: each failed once, and what rested on it was skipped. */
  readonly unanswered: UnansweredRequest[] = [];
  /** Requests sent again after a 429 or 503 with Retry-After, and how long each waited. */
  readonly retried: RetriedRequest[] = [];
  /** Creates that got no answer: the service may have made a record the run cannot name, nor delete. */
  readonly unknownCreates: string[] = [];
  #unansweredInARow = 0;
  /** Properties the run created, in order: the service has no operation to delete them. */
  readonly properties: CreatedProperty[] = [];
  /** How many of them the scenario made; the generated phase keeps its own count. */
  #scenarioProperties = 0;
  readonly #created = new Map<string, CreatedRecord>();
  readonly #run: RunContextDeps;
  readonly #invariants: AnswerInvariants;

  constructor(deps: RunContextDeps) {
    super(deps);
    this.#run = deps;
    this.#invariants = new AnswerInvariants(deps.publicBaseUrl ?? deps.baseUrl);
  }

  /** How many more properties the scenario may create before it reaches its limit. */
  propertyRoom(): number {
    return (this.#run.propertyLimit ?? SCENARIO_PROPERTY_LIMIT) - this.#scenarioProperties;
  }

  /** Notes a property the run created (once per nid), to label it at the end and list it in the report. */
  noteProperty(nid: string, by: string, account: AccountName = "primary"): boolean {
    if (this.properties.some((known) => known.nid === nid)) return false;
    this.properties.push({ nid, by, account });
    return true;
  }

  /** Whether the run has credentials for this account. */
  has(account: AccountName): boolean {
    return this.#run.accounts[account] !== undefined;
  }

  /** The contract the run holds answers to. */
  get contract(): Contract {
    return this.deps.contract;
  }

  /** The operation of the contract with this id. */
  operation(operationId: string) {
    const operation = this.deps.contract.operation(operationId);
    if (!operation) throw new Error(`The scenario names an unknown operation: ${operationId}`);
    return operation;
  }

  /** Sends one request of the scenario and checks its answer. Undefined when no answer came. */
  async call(step: string, operationId: string, path: string, options: CallOptions): Promise<Exchange | undefined> {
    if (this.#run.signal?.aborted) throw new RunInterrupted();
    const operation = this.operation(operationId);
    const account = options.as ?? "primary";
    const credentials = options.credentials ?? "valid";
    const headers = withContentType(this.#headers(account, credentials), options.contentType);
    const request: ExchangeSummary = { method: operation.method, path };
    if (options.body !== undefined) request.body = options.body;
    request.curl = curlCommand({ method: operation.method, url: `${this.#run.baseUrl.replace(/\/+$/, "")}${path}`, headers, body: options.body, reveal: this.#run.revealCredentials });
    if (this.lostContact) {
      this.skip("not_a_server_error", step, `skipped: ${this.lostContact}`, operationId, request);
      return undefined;
    }
    const missing = this.missing(options.needs);
    if (missing) {
      this.skip(typeof options.expect === "object" ? options.expect.refusal : "status_code_conformance", step, `not sent: ${missing}`, operationId, request);
      return undefined;
    }

    const repeatable = REPEATABLE_OPERATIONS[operationId]?.repeat ?? false;
    const sent = await this.#run.exchange({ method: operation.method, path, headers: Object.fromEntries(headers.map(({ name, value }) => [name, value])), body: options.body, repeatable });
    if (this.#run.signal?.aborted) throw new RunInterrupted();
    const retried = sent.ok ? sent.exchange.retried : sent.failure.retried;
    // Every request sent counts, those sent again after Retry-After too.
    this.exchanges += 1 + retriesOf(retried);
    const before = this.results.length;
    if (retried) this.noteRetry(step, operation.method, path, retried, sent.ok ? sent.exchange.status : undefined);

    if (!sent.ok) {
      this.#noAnswer(step, operationId, request, sent.failure);
      if (operationId.startsWith("create")) this.unknownCreates.push(`perhaps a record of the create at "${step}" (${operation.method} ${path} got no answer: the service may have made it)`);
      this.#invariants.forget(account, operationId, path);
      this.deps.emit({ kind: "step", step, operation: operationId, request, durationMs: 0, results: this.results.slice(before) });
      return undefined;
    }
    this.#unansweredInARow = 0;
    const exchange = sent.exchange;
    request.status = exchange.status;
    this.#track(step, operationId, path, exchange, account, credentials);
    const context = { operation: operationId, request };
    this.checkAnswer(step, context, exchange);
    this.#observe(step, operationId, account, credentials, options, exchange);
    // The rules every answer of this operation keeps, held to what the run knows of its own records.
    if (credentials === "valid") {
      for (const found of this.#invariants.observe(account, operationId, path, options.body, exchange)) {
        this.record(found.check, "fact", found.passed, step, { ...context, message: found.message, section: found.section });
      }
    }
    const actual = `${exchange.status} ${excerpt(exchange.text)}`;

    if (options.expect === "success") {
      this.record("status_code_conformance", "fact", exchange.status === 200, step, {
        ...context,
        message: `the operation should have succeeded with 200 (section 4), got ${exchange.status}: ${excerpt(exchange.text)}`,
        section: "4",
        expected: "200",
        actual,
      });
    } else if (options.expect !== "any") {
      const { refusal, tier = "fact", section, rule } = options.expect;
      const refused = exchange.status < 200 || exchange.status >= 300;
      this.record(refusal, tier, refused, step, {
        ...context,
        message: `should have been refused${rule ? ` (${rule})` : ""}, got ${exchange.status}: ${excerpt(exchange.text)}`,
        ...(section ? { section } : {}),
        expected: "a refusal (any status but 2xx)",
        actual,
      });
    }

    this.deps.emit({ kind: "step", step, operation: operationId, request, durationMs: exchange.durationMs, results: this.results.slice(before) });
    return exchange;
  }

  /**
   * Sends a request outside the contract's operations (an unknown route, a method a path does not take), with
   * the primary account's credentials: only a server error fails it. For profiling what the service answers.
   */
  async probe(step: string, method: string, path: string, options: { body?: unknown; point: string }): Promise<Exchange | undefined> {
    if (this.#run.signal?.aborted) throw new RunInterrupted();
    const headers = this.#headers("primary", "valid");
    const request: ExchangeSummary = { method, path };
    if (options.body !== undefined) request.body = options.body;
    request.curl = curlCommand({ method, url: `${this.#run.baseUrl.replace(/\/+$/, "")}${path}`, headers, body: options.body, reveal: this.#run.revealCredentials });
    if (this.lostContact) return undefined;
    const sent = await this.#run.exchange({ method, path, headers: Object.fromEntries(headers.map(({ name, value }) => [name, value])), body: options.body });
    if (this.#run.signal?.aborted) throw new RunInterrupted();
    this.exchanges += 1;
    const before = this.results.length;
    const operation = `${method} ${path}`;
    if (!sent.ok) {
      this.#noAnswer(step, operation, request, sent.failure);
    } else {
      this.#unansweredInARow = 0;
      request.status = sent.exchange.status;
      this.record("not_a_server_error", "fact", sent.exchange.status < 500, step, { operation, request, message: `answered ${sent.exchange.status}: ${excerpt(sent.exchange.text)}` });
      this.#observe(step, undefined, "primary", "valid", { expect: "any", point: options.point }, sent.exchange);
    }
    this.deps.emit({ kind: "step", step, operation, request, durationMs: sent.ok ? sent.exchange.durationMs : 0, results: this.results.slice(before) });
    return sent.ok ? sent.exchange : undefined;
  }

  /** Tells the profile observer of a value a step worked out from an answer it already checked. */
  observeOnly(step: string, exchange: Exchange, point: string, value: unknown): void {
    this.#observe(step, undefined, "primary", "valid", { expect: "any", point, observed: value }, exchange);
  }

  #observe(step: string, operationId: string | undefined, account: AccountName, credentials: CredentialMode, options: CallOptions, exchange: Exchange): void {
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
    const request: ExchangeSummary | undefined = exchange ? { method: exchange.method, path: exchange.path, status: exchange.status } : undefined;
    if (request && exchange?.requestBody !== undefined) request.body = exchange.requestBody;
    if (request && exchange) request.curl = this.#curlOf(exchange);
    const result = this.record(check, tier, passed, step, {
      message,
      ...(operation ? { operation } : {}),
      ...(request ? { request } : {}),
      ...(section ? { section } : {}),
      ...(expected !== undefined ? { expected } : {}),
      ...(actual !== undefined ? { actual } : {}),
    });
    this.deps.emit({ kind: "check", result });
  }

  /**
   * Why something resting on these answers cannot be judged: one of them never came. The request named is the
   * one of that step when the run knows it, else the latest that went unanswered.
   */
  missing(needs: Needs | undefined, step?: string): string | undefined {
    if (!needs || !needs.some((answer) => answer === undefined)) return undefined;
    const latest = this.unanswered.findLast((entry) => entry.step === step) ?? this.unanswered.at(-1);
    if (!latest) return undefined;
    return `rests on the answer to ${latest.method} ${latest.path} ("${latest.step}"), which never came: ${latest.reason}`;
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
      this.lostContact = `the service stopped answering at ${failure.method} ${failure.path}: ${failure.reason}${failure.kind === "unreachable" ? "" : ` (${UNANSWERED_IN_A_ROW} requests in a row without an answer)`}`;
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

  /** Records that a request was sent again (after a 429 or 503 with Retry-After, or a dropped connection), for the report. */
  noteRetry(step: string, method: string, path: string, retried: Retried, status: number | undefined): void {
    const entry: RetriedRequest = { step, method, path, answers: retried.answers, waitedMs: retried.waitedMs };
    if (retried.dropped !== undefined) entry.dropped = retried.dropped;
    if (status !== undefined) entry.finalStatus = status;
    if (retried.gaveUp) entry.gaveUp = retried.gaveUp;
    this.retried.push(entry);
  }

  /**
   * Deletes every agent and document the run created and has not deleted yet, with the credentials of the
   * account it was created under, and returns what is left behind and why. Runs after an interruption too.
   */
  async cleanUp(): Promise<string[]> {
    await this.#labelProperties();
    const leftBehind = this.properties.map((property) => {
      const label = property.label && "title" in property.label ? `, titled ${JSON.stringify(property.label.title)} with external id ${property.label.externalId}` : property.label ? `, not labelled (${property.label.failed})` : "";
      return `property ${property.nid}, ${property.by}${label} (the service has no operation to delete a property)`;
    });
    leftBehind.push(...this.unknownCreates);
    for (const record of this.#created.values()) {
      const path = record.kind === "agent" ? `${API}/agent_card/${record.nid}` : `${API}/document/${record.nid}`;
      const headers = Object.fromEntries(this.#headers(record.as, "valid").map(({ name, value }) => [name, value]));
      const sent = await this.#run.cleanupExchange({ method: "DELETE", path, headers });
      this.exchanges += 1;
      if (sent.ok && sent.exchange.status === 200) continue;
      leftBehind.push(`${record.kind} ${record.nid} of the ${record.as} account (DELETE ${path} ${sent.ok ? `answered ${sent.exchange.status}` : `got no answer: ${sent.failure.reason}`})`);
    }
    this.#created.clear();
    return leftBehind;
  }

  /**
   * Gives every property the run created a title and an external id that say which run made it (section 4.1,
   * endpoint 4: an edit takes any field of 2.1 with a string value), so that whoever finds one on the account
   * knows where it came from: `Contract Run <tag> (k)` and `contract-<tag>-k`, one external id per property. A
   * property is labelled at the end, after every check that reads its title or external id, and whatever a
   * generated case wrote there before. Not when the service stopped answering: each edit would wait for nothing.
   */
  async #labelProperties(): Promise<void> {
    const tag = this.#run.tag;
    if (!tag) return;
    for (const [index, property] of this.properties.entries()) {
      if (property.label) continue;
      if (this.lostContact) {
        property.label = { failed: "the service stopped answering before the run could label it" };
        continue;
      }
      const label = { title: `Contract Run ${tag} (${index + 1})`, externalId: `contract-${tag}-${index + 1}` };
      const headers = Object.fromEntries(this.#headers(property.account, "valid").map(({ name, value }) => [name, value]));
      const sent = await this.#run.cleanupExchange({ method: "PUT", path: `${API}/property/${encodeURIComponent(property.nid)}`, headers, body: { title: label.title, external_id: label.externalId } });
      this.exchanges += 1;
      property.label = sent.ok && sent.exchange.status === 200 ? label : { failed: sent.ok ? `the edit answered ${sent.exchange.status}` : `the edit got no answer: ${sent.failure.reason}` };
    }
  }

  /** Keeps the list of created records current from the answers: what a create made, what a delete removed. */
  #track(step: string, operationId: string, path: string, exchange: Exchange, account: AccountName, credentials: CredentialMode): void {
    if (exchange.status !== 200) return;
    const body = exchange.body as { nid?: unknown } | undefined;
    const nid = body !== null && typeof body === "object" && (typeof body.nid === "string" || typeof body.nid === "number") ? String(body.nid) : undefined;
    const how = credentials === "valid" ? "" : ` (created with ${credentials} credentials)`;
    // A record created with broken credentials belongs to whichever account the service chose; the account's
    // own credentials are the best guess for deleting it.
    if (operationId === "createProperty" && nid && this.noteProperty(nid, `made by the step "${step}"${how}`, account)) this.#scenarioProperties += 1;
    if (operationId === "createAgentCard" && nid) this.#created.set(`agent:${nid}`, { kind: "agent", nid, as: account });
    if (operationId === "createDocument" && nid) this.#created.set(`document:${nid}`, { kind: "document", nid, as: account });
    const deleted = path.split("/").pop() ?? "";
    if (operationId === "deleteAgentCard") this.#created.delete(`agent:${deleted}`);
    if (operationId === "deleteDocument") this.#created.delete(`document:${deleted}`);
  }

  #headers(account: AccountName, mode: CredentialMode): CurlHeader[] {
    const own = this.#run.accounts[account];
    if (!own) throw new Error(`The scenario acts as the ${account} account, which the run has no credentials for`);
    const names = VARIABLES[account];
    const headers: CurlHeader[] = [{ name: "content-type", value: "application/json" }, { name: "accept", value: "application/json" }];
    const key: CurlHeader = { name: "API-KEY", value: own.apiKey, masked: `\${${names.key}}` };
    const token: CurlHeader = { name: "TOKEN", value: own.token, masked: `\${${names.token}}` };
    switch (mode) {
      case "valid":
        return [...headers, key, token];
      case "none":
        return headers;
      case "no-key":
        return [...headers, token];
      case "no-token":
        return [...headers, key];
      case "wrong-token":
        return [...headers, key, { ...token, value: `${own.token}-not-this-one`, masked: `\${${names.token}}-not-this-one` }];
      case "other-token": {
        const other = this.#run.accounts.other;
        if (!other) throw new Error("The scenario sends the other account's TOKEN without credentials for it");
        return [...headers, key, { name: "TOKEN", value: other.token, masked: `\${${VARIABLES.other.token}}` }];
      }
    }
  }

  #curlOf(exchange: Exchange): string {
    const headers: CurlHeader[] = Object.entries(exchange.requestHeaders).map(([name, value]) => {
      const masked = this.#maskOf(name, value);
      return masked === undefined ? { name, value } : { name, value, masked };
    });
    return curlCommand({ method: exchange.method, url: `${this.#run.baseUrl.replace(/\/+$/, "")}${exchange.path}`, headers, body: exchange.requestBody, reveal: this.#run.revealCredentials });
  }

  #maskOf(name: string, value: string): string | undefined {
    for (const account of ["primary", "other", "fresh"] as const) {
      const own = this.#run.accounts[account];
      if (!own) continue;
      if (name === "API-KEY" && value === own.apiKey) return `\${${VARIABLES[account].key}}`;
      if (name === "TOKEN" && value === own.token) return `\${${VARIABLES[account].token}}`;
      if (name === "TOKEN" && value === `${own.token}-not-this-one`) return `\${${VARIABLES[account].token}}-not-this-one`;
    }
    return undefined;
  }
}
