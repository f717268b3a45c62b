import { isJsonMediaType } from "../create-contract.ts";

/** One request to the service under test and what came back, or why nothing did. */
export interface Exchange {
  method: string;
  path: string;
  requestHeaders: Record<string, string>;
  requestBody?: unknown;
  status: number;
  headers: Headers;
  /** The parsed JSON body; undefined when the body is empty or not JSON. */
  body: unknown;
  /** The raw body text. */
  text: string;
  /** Why a body announced as JSON could not be parsed. */
  jsonError?: string;
  durationMs: number;
}

/** A request that got no answer: nothing listening, a reset connection, or a timeout. */
export interface NoAnswer {
  method: string;
  path: string;
  reason: string;
}

export type ExchangeResult = { ok: true; exchange: Exchange } | { ok: false; failure: NoAnswer };

/** Settings of {@link createExchanger}. */
export interface ExchangerOptions {
  baseUrl: string;
  /** Milliseconds to wait for an answer. */
  timeoutMs: number;
  /** Injectable for tests; the global fetch by default. */
  fetch?: typeof globalThis.fetch;
  /** Aborts a request under way (Ctrl-C). */
  signal?: AbortSignal;
}

/** Sends requests to the service under test, relative to its base address. */
export type Exchanger = (request: { method: string; path: string; headers: Record<string, string>; body?: unknown }) => Promise<ExchangeResult>;

export function createExchanger({ baseUrl, timeoutMs, fetch = globalThis.fetch, signal }: ExchangerOptions): Exchanger {
  const base = baseUrl.replace(/\/+$/, "");
  return async ({ method, path, headers, body }) => {
    const started = performance.now();
    let response: Response;
    let text: string;
    try {
      response = await fetch(`${base}${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        redirect: "manual",
        signal: signal ? AbortSignal.any([AbortSignal.timeout(timeoutMs), signal]) : AbortSignal.timeout(timeoutMs),
      });
      text = await response.text();
    } catch (error) {
      return { ok: false, failure: { method, path, reason: describeNetworkError(error, timeoutMs) } };
    }
    const exchange: Exchange = {
      method,
      path,
      requestHeaders: headers,
      status: response.status,
      headers: response.headers,
      body: undefined,
      text,
      durationMs: Math.round(performance.now() - started),
    };
    if (body !== undefined) exchange.requestBody = body;
    const contentType = response.headers.get("content-type") ?? "";
    if (text !== "" && isJsonMediaType(contentType)) {
      try {
        exchange.body = JSON.parse(text);
      } catch (error) {
        exchange.jsonError = (error as Error).message;
      }
    }
    return { ok: true, exchange };
  };
}

/** Error codes of Node's TLS layer: the address answers, but not with a connection the runner can trust. */
const TLS_CODES = /^(ERR_TLS_|ERR_SSL_|CERT_|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_(GET|VERIFY)_|EPROTO)/;

function describeNetworkError(error: unknown, timeoutMs: number): string {
  const failure = error as Error & { cause?: { code?: string; message?: string } };
  if (failure.name === "TimeoutError") return `no answer within ${timeoutMs} ms`;
  if (failure.name === "AbortError") return "the run was interrupted";
  const cause = failure.cause;
  if (cause?.code && TLS_CODES.test(cause.code)) {
    return `TLS failed (${cause.code}: ${cause.message ?? "no detail"}); check that the address is https only where the service speaks TLS, and that its certificate is trusted (NODE_EXTRA_CA_CERTS names extra CA certificates)`;
  }
  if (cause?.code === "ECONNREFUSED") return `nothing is listening there (${cause.message ?? "connection refused"})`;
  if (cause?.code === "ENOTFOUND" || cause?.code === "EAI_AGAIN") return `the host name does not resolve (${cause.message ?? cause.code})`;
  return cause?.message ?? failure.message;
}
