import type { MockRequest } from "./mock-request.ts";
import type { AppliedFaults } from "../services/request-journal.ts";
import type { Reply } from "./reply.ts";

/**
 * One request to the API (`/api/...`) on its way through the mock. The listener creates it; the API handler
 * fills in what it learns (the operation, the parsed body) so that an interceptor can read it afterwards.
 */
export interface ApiCall {
  /** The request as the host delivered it (mock-request.ts). */
  readonly request: MockRequest;
  readonly method: string;
  /** The request target as sent: path and query (`/api/v1/object/property/42?x=1`). */
  readonly url: string;
  /** The path without the query: what the contract matches and what problem bodies name as `instance`. */
  readonly path: string;
  /** `performance.now()` when the request reached the listener. */
  readonly receivedAt: number;
  /** The operation the request matched, once the API handler has matched it (undefined for 404/405). */
  operationId?: string;
  /** The parsed JSON body, once the API handler has read and parsed it (undefined when there was none). */
  body?: unknown;
  /** The body bytes as received, whoever read them (the handler, or an interceptor answering by itself). */
  rawBody?: Uint8Array;
  /** What the steering interceptor did to this call on purpose, for the request journal. */
  fault?: AppliedFaults;
  /**
   * Set by an interceptor that answers nothing on purpose (a fault rule that drops the connection): the host
   * then ends the exchange without an answer (Node closes the socket, MSW gives a network error).
   */
  dropped?: boolean;
}

/**
 * Answers an API call. `undefined` means nothing is to be written: the client left, or an interceptor dropped
 * the exchange (`call.dropped`).
 */
export type ApiHandler = (call: ApiCall) => Promise<Reply | undefined>;

/**
 * Wraps the API handler. An interceptor sees the call before the handler runs and the final reply after it
 * (status, headers and body, validated when `validateResponses` is on), and may:
 * - observe: `const reply = await next(); record(call, reply); return reply;` (a request journal);
 * - delay: `await sleep(ms); return next();` (latency injection);
 * - short-circuit: return its own reply without calling `next` (fault rules), or set `call.dropped` and return
 *   `undefined`;
 * - replace the reply `next` gave.
 * It must not throw for an expected condition: an exception is a bug and answers 500 `internalError`.
 */
export type ApiInterceptor = (call: ApiCall, next: () => Promise<Reply | undefined>) => Promise<Reply | undefined>;

/**
 * The seam between the listener and the API handler: the interceptors in order, outermost first, around the
 * handler. With no interceptors it is the handler itself, so the plain path pays nothing for the seam.
 */
export function wrapApiHandler(handler: ApiHandler, interceptors: readonly ApiInterceptor[] = []): ApiHandler {
  let wrapped = handler;
  for (const interceptor of [...interceptors].reverse()) {
    const inner = wrapped;
    wrapped = (call) => interceptor(call, () => inner(call));
  }
  return wrapped;
}
