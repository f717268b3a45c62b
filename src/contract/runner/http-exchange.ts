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
  /**
   * Set when the request was sent again (retry-policy.ts): after a 429 or 503 with Retry-After, or once after a
   * connection that closed without an answer.
   */
  retried?: Retried;
}

/** The answers a request was sent again after, and how long the runner waited for them. */
export interface Retried {
  /** One per answer sent again after: its status and Retry-After header as given. */
  answers: Array<{ status: number; retryAfter: string }>;
  /** Set when a try's connection closed without an answer and the request was sent again at once: why it closed. */
  dropped?: string;
  waitedMs: number;
  /** Why the last answer was not waited for again, when it too asked for a wait: `3 retries`, `the run's 30 s`. */
  gaveUp?: string;
}

/**
 * Why a request got no answer: `timeout` (none within the limit), `interrupted` (Ctrl-C), `unreachable`
 * (nothing listening, a name that does not resolve, TLS refused: the service is not there at all), `network`
 * (a reset connection and the like).
 */
export type NoAnswerKind = "timeout" | "interrupted" | "unreachable" | "network";

/** A request that got no answer: nothing listening, a reset connection, or a timeout. */
export interface NoAnswer {
  method: string;
  path: string;
  reason: string;
  kind: NoAnswerKind;
  /** Set when earlier answers to the same request asked for a wait (429/503 with Retry-After). */
  retried?: Retried;
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

/** One request to the service under test, relative to its base address. */
export interface ExchangeRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: unknown;
  /**
   * Whether the request may be sent again after a 429 or 503 with Retry-After (retry-policy.ts). By the method
   * when not given: GET, HEAD, OPTIONS, PUT and DELETE are idempotent (RFC 9110, 9.2.2), POST is not.
   */
  repeatable?: boolean;
}

/** Sends requests to the service under test, relative to its base address. */
export type Exchanger = (request: ExchangeRequest) => Promise<ExchangeResult>;

export function createExchanger({ baseUrl, timeoutMs, fetch = globalThis.fetch, signal }: ExchangerOptions): Exchanger {
  const base = baseUrl.replace(/\/+$/, "");
  return async ({ method, path, headers, body }) => {
    const started = performance.now();
    let response: Response;
    let text: string;
    const deadline = requestDeadline(timeoutMs, signal);
    try {
      response = await fetch(`${base}${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        redirect: "manual",
        signal: deadline.signal,
      });
      text = await response.text();
    } catch (error) {
      const { kind, reason } = describeNetworkError(error, timeoutMs);
      return { ok: false, failure: { method, path, reason, kind } };
    } finally {
      deadline.done();
    }
    const exchange: Exchange = {
      method,
      path,
      requestHeaders: headers,
      status: response.status,
      // A fetch other than the global one (undici's own, through a proxy) has a Headers class of its own: copied
      // into the global one, which the contract knows.
      headers:
        response.headers instanceof Headers
          ? response.headers
          : new Headers([...(response.headers as unknown as Iterable<[string, string]>)]),
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

/**
 * The signal of one request: aborted with a `TimeoutError` once `timeoutMs` have passed, as `AbortSignal.timeout`
 * does, or with the run's reason when the run is interrupted, as `AbortSignal.any` does; `done` once the answer is
 * read. A controller and a timer cleared at the end cost a run's hundreds of requests half what a timeout signal
 * (and a signal following two others) does, each kept until the collector finds it.
 */
function requestDeadline(timeoutMs: number, run: AbortSignal | undefined): { signal: AbortSignal; done(): void } {
  const controller = new AbortController();
  if (run?.aborted) {
    controller.abort(run.reason);
    return { signal: controller.signal, done: () => {} };
  }
  const timer = setTimeout(
    () => controller.abort(new DOMException("The operation was aborted due to timeout", "TimeoutError")),
    timeoutMs,
  );
  // Like AbortSignal.timeout's, the timer does not keep the process alive.
  timer.unref();
  const interrupted = () => controller.abort(run?.reason);
  run?.addEventListener("abort", interrupted, { once: true });
  return {
    signal: controller.signal,
    done: () => {
      clearTimeout(timer);
      run?.removeEventListener("abort", interrupted);
    },
  };
}

/** Error codes of Node's TLS layer: the address answers, but not with a connection the runner can trust. */
const TLS_CODES =
  /^(ERR_TLS_|ERR_SSL_|CERT_|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_(GET|VERIFY)_|EPROTO)/;

function describeNetworkError(error: unknown, timeoutMs: number): { kind: NoAnswerKind; reason: string } {
  const failure = error as Error & { cause?: { code?: string; message?: string } };
  if (failure.name === "TimeoutError")
    return { kind: "timeout", reason: `no answer within ${timeoutMs} ms (--timeout)` };
  if (failure.name === "AbortError") return { kind: "interrupted", reason: "the run was interrupted" };
  const cause = failure.cause;
  if (cause?.code && TLS_CODES.test(cause.code)) {
    return {
      kind: "unreachable",
      reason:
        `TLS failed (${cause.code}: ${cause.message ?? "no detail"}); check that the address is https only ` +
        `where the service speaks TLS, and that its certificate is trusted (NODE_EXTRA_CA_CERTS names extra CA ` +
        `certificates)`,
    };
  }
  if (cause?.code === "ECONNREFUSED")
    return { kind: "unreachable", reason: `nothing is listening there (${cause.message ?? "connection refused"})` };
  if (cause?.code === "ENOTFOUND" || cause?.code === "EAI_AGAIN")
    return { kind: "unreachable", reason: `the host name does not resolve (${cause.message ?? cause.code})` };
  // A proxy that refuses the tunnel (CONNECT answered 403, 407, 502...) or cannot be reached.
  if (
    /proxy/i.test(cause?.message ?? "") ||
    ((cause?.code ?? "").startsWith("UND_ERR_") && /proxy/i.test(failure.message))
  ) {
    const detail = cause?.message ?? failure.message;
    const hint = /407/.test(detail)
      ? "; give its user and password in its address, http://user:password@host:port"
      : "";
    return { kind: "unreachable", reason: `the proxy failed: ${detail} (HTTP_PROXY, HTTPS_PROXY, NO_PROXY${hint})` };
  }
  return { kind: "network", reason: cause?.message ?? failure.message };
}
