import { curlCommand, type CurlHeader } from "./curl-command.ts";
import { createExchanger, type Exchange, type ExchangeResult, type Exchanger } from "./http-exchange.ts";
import { proxiedFetch, usesProxy, type ProxySettings } from "./proxy-settings.ts";
import { secretRedactor, type Secret } from "./redact-secrets.ts";
import { DEFAULT_RETRY_LIMITS, withRetries, type RetryBudget, type RetryLimits } from "./retry-policy.ts";

/** The credentials of one account: the `API-KEY` and `TOKEN` headers (section 5). */
export interface Credentials {
  apiKey: string;
  token: string;
}

/** The accounts a run may act as: the one it checks, a second one, and one without agents for the seat checks. */
export type AccountName = "primary" | "other" | "fresh";

/** The credentials of every account a run may act as; the primary one always. */
export type RunAccounts = { primary: Credentials; other?: Credentials; fresh?: Credentials };

/**
 * Which credentials a call sends: the account's own, none, only one of the two headers, the account's key with
 * a TOKEN of no account, or with the other account's TOKEN.
 */
export type CredentialMode = "valid" | "none" | "no-key" | "no-token" | "wrong-token" | "other-token";

/** Thrown out of a step when the run is interrupted; the run then cleans up and reports what ran. */
export class RunInterrupted extends Error {
  constructor() {
    super("The contract run was interrupted.");
    this.name = "RunInterrupted";
  }
}

/** The environment variables each account's credentials are shown as, in curl lines and redacted reports. */
export const CREDENTIAL_VARIABLES: Record<AccountName, { key: string; token: string }> = {
  primary: { key: "CONTRACT_API_KEY", token: "CONTRACT_TOKEN" },
  other: { key: "CONTRACT_OTHER_API_KEY", token: "CONTRACT_OTHER_TOKEN" },
  fresh: { key: "CONTRACT_FRESH_API_KEY", token: "CONTRACT_FRESH_TOKEN" },
};

/** How a run reaches the service: its address, the limit per answer, the proxies, waiting on Retry-After. */
export interface SenderOptions {
  baseUrl: string;
  timeoutMs: number;
  proxy?: ProxySettings;
  retryLimits?: RetryLimits;
  fetch?: typeof globalThis.fetch;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
  signal?: AbortSignal;
}

/**
 * The two exchangers of a run, both waiting on a 429 or 503 with Retry-After from one budget of waiting for the
 * whole run (retry-policy.ts), both through the proxies: one for the run's requests, which stops at once when the
 * run is interrupted, and one for the clean-up, which must go out even after an interruption.
 */
export async function createRunExchangers(
  options: SenderOptions,
): Promise<{ exchange: Exchanger; cleanupExchange: Exchanger }> {
  const now = options.now ?? Date.now;
  const fetch =
    options.fetch ?? (options.proxy && usesProxy(options.proxy) ? await proxiedFetch(options.proxy) : undefined);
  const fetchOption = fetch ? { fetch } : {};
  const budget: RetryBudget = { limits: options.retryLimits ?? DEFAULT_RETRY_LIMITS, waitedMs: 0 };
  const retrying = { budget, now, sleep: options.sleep ?? ((ms: number) => interruptibleSleep(ms, options.signal)) };
  const exchange = withRetries(
    createExchanger({
      baseUrl: options.baseUrl,
      timeoutMs: options.timeoutMs,
      ...fetchOption,
      ...(options.signal ? { signal: options.signal } : {}),
    }),
    retrying,
  );
  const cleanupExchange = withRetries(
    createExchanger({ baseUrl: options.baseUrl, timeoutMs: options.timeoutMs, ...fetchOption }),
    { ...retrying, sleep: options.sleep ?? ((ms: number) => interruptibleSleep(ms, undefined)) },
  );
  return { exchange, cleanupExchange };
}

/**
 * What a run is given to reach the service as its accounts: `SenderOptions` with the credentials (a run's, a replay's).
 */
export interface RunTransportOptions extends Omit<SenderOptions, "timeoutMs"> {
  timeoutMs?: number;
  apiKey: string;
  token: string;
  other?: Credentials;
  fresh?: Credentials;
}

/** A run's exchangers (see {@link createRunExchangers}, 10 s per answer unless told) and its accounts. */
export async function runTransport(
  options: RunTransportOptions,
): Promise<{ exchange: Exchanger; cleanupExchange: Exchanger; accounts: RunAccounts }> {
  const { apiKey, token, other, fresh, timeoutMs, ...sending } = options;
  const exchangers = await createRunExchangers({ ...sending, timeoutMs: timeoutMs ?? 10_000 });
  const accounts: RunAccounts = { primary: { apiKey, token } };
  if (other) accounts.other = { apiKey: other.apiKey, token: other.token };
  if (fresh) accounts.fresh = { apiKey: fresh.apiKey, token: fresh.token };
  return { ...exchangers, accounts };
}

/**
 * Every secret of a run as it is shown instead: each account's key and token as its variable, and a password in
 * the base address. No secret reaches a report or a progress line unless the caller reveals credentials.
 */
export function runRedactor(accounts: RunAccounts, baseUrl: string, reveal: boolean): <T>(value: T) => T {
  if (reveal) return <T>(value: T) => value;
  const secrets: Secret[] = [];
  for (const account of ["primary", "other", "fresh"] as const) {
    const own = accounts[account];
    if (own)
      secrets.push(
        { value: own.apiKey, shownAs: `\${${CREDENTIAL_VARIABLES[account].key}}` },
        { value: own.token, shownAs: `\${${CREDENTIAL_VARIABLES[account].token}}` },
      );
  }
  const password = new URL(baseUrl).password;
  if (password)
    secrets.push({ value: password, shownAs: "***" }, { value: decodeURIComponent(password), shownAs: "***" });
  return secretRedactor(secrets);
}

/** A wait that ends early when the run is interrupted (the next request then sees the signal). */
export function interruptibleSleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    }
    signal?.addEventListener("abort", done, { once: true });
  });
}

/** Collaborators of a {@link Sender}. */
export interface SenderDeps {
  /** Sends the run's requests; stops at once when the run is interrupted. */
  exchange: Exchanger;
  /** Sends the clean-up requests, which must go out even after an interruption. */
  cleanupExchange: Exchanger;
  baseUrl: string;
  accounts: RunAccounts;
  /** Show credentials in curl lines instead of environment variables. */
  revealCredentials: boolean;
  signal?: AbortSignal;
}

/**
 * Sends requests to the service as one of the run's accounts: the headers with the credentials asked for, the
 * curl line that sends it again (credentials as their variables), an answer that never came as a value. The
 * scenario, the generated phase and the replay of a consumer's usage share it.
 */
export class Sender {
  readonly #deps: SenderDeps;

  constructor(deps: SenderDeps) {
    this.#deps = deps;
  }

  get baseUrl(): string {
    return this.#deps.baseUrl;
  }

  get signal(): AbortSignal | undefined {
    return this.#deps.signal;
  }

  /** Whether the run has credentials for this account. */
  has(account: AccountName): boolean {
    return this.#deps.accounts[account] !== undefined;
  }

  /** Throws {@link RunInterrupted} once the run is interrupted. */
  throwIfInterrupted(): void {
    if (this.#deps.signal?.aborted) throw new RunInterrupted();
  }

  /** Sends a request of the run; throws {@link RunInterrupted} when the run was interrupted meanwhile. */
  async send(
    method: string,
    path: string,
    headers: CurlHeader[],
    body?: unknown,
    repeatable?: boolean,
  ): Promise<ExchangeResult> {
    this.throwIfInterrupted();
    const sent = await this.trySend(method, path, headers, body, repeatable);
    this.throwIfInterrupted();
    return sent;
  }

  /** Sends a request of the run; an interruption is an answer that never came (kind `interrupted`), not a throw. */
  trySend(
    method: string,
    path: string,
    headers: CurlHeader[],
    body?: unknown,
    repeatable?: boolean,
  ): Promise<ExchangeResult> {
    return this.#deps.exchange({
      method,
      path,
      headers: headerRecord(headers),
      body,
      ...(repeatable !== undefined ? { repeatable } : {}),
    });
  }

  /** Sends a clean-up request as an account, with its own credentials: it goes out even after an interruption. */
  sendCleanup(account: AccountName, method: string, path: string, body?: unknown): Promise<ExchangeResult> {
    return this.#deps.cleanupExchange({
      method,
      path,
      headers: headerRecord(this.headers(account, "valid")),
      ...(body !== undefined ? { body } : {}),
    });
  }

  /** The curl line of a request, credentials as their variables unless revealed. */
  curl(method: string, path: string, headers: CurlHeader[], body?: unknown): string {
    return curlCommand({
      method,
      url: `${this.#deps.baseUrl.replace(/\/+$/, "")}${path}`,
      headers,
      body,
      reveal: this.#deps.revealCredentials,
    });
  }

  /** The curl line of a request already sent, each credential it carried shown as its variable. */
  curlOf(exchange: Exchange): string {
    const headers: CurlHeader[] = Object.entries(exchange.requestHeaders).map(([name, value]) => {
      const masked = this.#maskOf(name, value);
      return masked === undefined ? { name, value } : { name, value, masked };
    });
    return this.curl(exchange.method, exchange.path, headers, exchange.requestBody);
  }

  /** The headers of a request as an account, with the credentials `mode` asks for. */
  headers(account: AccountName, mode: CredentialMode): CurlHeader[] {
    const own = this.#deps.accounts[account];
    if (!own) throw new Error(`The scenario acts as the ${account} account, which the run has no credentials for`);
    const names = CREDENTIAL_VARIABLES[account];
    const headers: CurlHeader[] = [
      { name: "content-type", value: "application/json" },
      { name: "accept", value: "application/json" },
    ];
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
        return [
          ...headers,
          key,
          { ...token, value: `${own.token}-not-this-one`, masked: `\${${names.token}}-not-this-one` },
        ];
      case "other-token": {
        const other = this.#deps.accounts.other;
        if (!other) throw new Error("The scenario sends the other account's TOKEN without credentials for it");
        return [
          ...headers,
          key,
          { name: "TOKEN", value: other.token, masked: `\${${CREDENTIAL_VARIABLES.other.token}}` },
        ];
      }
    }
  }

  #maskOf(name: string, value: string): string | undefined {
    for (const account of ["primary", "other", "fresh"] as const) {
      const own = this.#deps.accounts[account];
      if (!own) continue;
      if (name === "API-KEY" && value === own.apiKey) return `\${${CREDENTIAL_VARIABLES[account].key}}`;
      if (name === "TOKEN" && value === own.token) return `\${${CREDENTIAL_VARIABLES[account].token}}`;
      if (name === "TOKEN" && value === `${own.token}-not-this-one`)
        return `\${${CREDENTIAL_VARIABLES[account].token}}-not-this-one`;
    }
    return undefined;
  }
}

/** Headers as a plain record, for fetch. */
export function headerRecord(headers: CurlHeader[]): Record<string, string> {
  return Object.fromEntries(headers.map(({ name, value }) => [name, value]));
}

/** The headers with another content-type, or none (`null`); unchanged when `contentType` is undefined. */
export function withContentType(headers: CurlHeader[], contentType: string | null | undefined): CurlHeader[] {
  if (contentType === undefined) return headers;
  const others = headers.filter((header) => header.name !== "content-type");
  return contentType === null ? others : [{ name: "content-type", value: contentType }, ...others];
}
