import type { OperationId } from "../../contract/operation-id.ts";
import type { MockRequest } from "./mock-request.ts";
import type { AppliedFaults } from "../services/request-journal.ts";
import type { MaybePromise } from "./maybe-async.ts";
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
  operationId?: OperationId;
  /** The uid of the account the call authenticated as, once the API handler has authenticated it. */
  account?: number;
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
 * What answering an API call gives: the reply at once when nothing on the way waits (a GET of the API: the store
 * is in memory), else a promise of it (a body to read, a delay, a write to put on disk). `undefined` means
 * nothing is to be written: the client left, or an interceptor dropped the exchange (`call.dropped`). Kept
 * synchronous where it can be: every request paid for the promises (and the turns of the microtask queue) of an
 * `async` path whether it waited or not, about a tenth of a GET's CPU.
 */
export type ApiAnswer = MaybePromise<Reply | undefined>;

/** Answers an API call. */
export type ApiHandler = (call: ApiCall) => ApiAnswer;

/**
 * Wraps the API handler. An interceptor sees the call before the handler runs and the final reply after it
 * (status, headers and body, validated when `validateResponses` is on); `next(call)` runs the rest of the chain,
 * and gives a reply or a promise of one (`await` takes either). An interceptor may:
 * - observe: `const reply = await next(call); record(call, reply); return reply;` (a request journal);
 * - delay: `await sleep(ms); return next(call);` (latency injection);
 * - short-circuit: return its own reply without calling `next` (fault rules), or set `call.dropped` and return
 *   `undefined`;
 * - replace the reply `next` gave.
 * One that has nothing to do for a call returns `next(call)` as it is, so that a call nobody waits for is
 * answered synchronously. It must not throw for an expected condition: an exception is a bug and answers 500
 * `internalError`.
 */
export type ApiInterceptor = (call: ApiCall, next: ApiHandler) => ApiAnswer;

/**
 * The seam between the listener and the API handler: the interceptors in order, outermost first, around the
 * handler. With no interceptors it is the handler itself, so the plain path pays nothing for the seam; with
 * some, a call makes no function of its own on its way through them.
 */
export function wrapApiHandler(handler: ApiHandler, interceptors: readonly ApiInterceptor[] = []): ApiHandler {
  let wrapped = handler;
  for (const interceptor of [...interceptors].reverse()) {
    const inner = wrapped;
    wrapped = (call) => interceptor(call, inner);
  }
  return wrapped;
}
