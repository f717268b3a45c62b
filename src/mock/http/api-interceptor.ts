import type { OperationId } from "../../contract/operation-id.ts";
import type { MockRequest } from "./mock-request.ts";
import type { AppliedFaults } from "../services/request-journal.ts";
import type { MaybePromise } from "./maybe-async.ts";
import type { Reply } from "./reply.ts";

/**
 * One request to the API (`/api/...`) on its way through the mock: the request as received, read-only. What
 * answering it teaches (the operation, the account, the body, a fault) comes back in the {@link Answered}
 * value of the handler and each interceptor, never written onto the call.
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
}

/**
 * What answering an API call gave: the reply to send, and what the handler and the interceptors learned on the
 * way, for those around them (the journal, the usage recorder) to read from the value `next` returned.
 */
export interface Answered {
  /** The reply to send; undefined when nothing is to be written (the client left, or the call was dropped). */
  readonly reply: Reply | undefined;
  /** The operation the request matched (undefined for 404/405). */
  readonly operationId?: OperationId | undefined;
  /** The uid of the account the call authenticated as. */
  readonly account?: number | undefined;
  /** The parsed JSON body (undefined when there was none, or it was not read). */
  readonly body?: unknown;
  /** The body bytes as received, whoever read them (the handler, or an interceptor answering by itself). */
  readonly rawBody?: Uint8Array | undefined;
  /** What was done to this call on purpose (steering, a service's answers), for the request journal. */
  readonly fault?: AppliedFaults | undefined;
  /**
   * An interceptor answered nothing on purpose (a fault rule that drops the connection): the host then ends the
   * exchange without an answer (Node closes the socket, MSW gives a network error).
   */
  readonly dropped?: boolean | undefined;
}

/**
 * What answering an API call gives: its {@link Answered} value at once when nothing on the way waits (a GET of
 * the API: the store is in memory), else a promise of it (a body to read, a delay, a write to put on disk). Kept
 * synchronous where it can be: every request paid for the promises (and the turns of the microtask queue) of an
 * `async` path whether it waited or not, about a tenth of a GET's CPU.
 */
export type ApiAnswer = MaybePromise<Answered>;

/** Answers an API call. */
export type ApiHandler = (call: ApiCall) => ApiAnswer;

/**
 * Wraps the API handler. An interceptor sees the call before the handler runs and, in the value `next(call)`
 * gives (at once or as a promise: `await` takes either, `andThen` of maybe-async.ts keeps the first
 * synchronous), the final reply (status, headers and body, validated when `validateResponses` is on) and what
 * was learned on the way (operation, account, bodies, faults). An interceptor may:
 * - observe: `const answered = await next(call); record(call, answered); return answered;` (a request journal);
 * - delay: `await sleep(ms); return next(call);` (latency injection);
 * - short-circuit: return `{ reply }` of its own without calling `next` (fault rules), or
 *   `{ reply: undefined, dropped: true }` for no answer at all;
 * - replace the reply or add to what was learned: `{ ...answered, reply, fault }`, a new value.
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
