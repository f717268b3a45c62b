import type { Answered, ApiCall, ApiInterceptor } from "../http/api-interceptor.ts";
import { andThen } from "../http/maybe-async.ts";
import type { UsageRecorder } from "./usage-recorder.ts";

/**
 * Records each API call in a consumer's usage: the start records its path names before it is answered, the
 * call and its answer after. Beside the journal, outside the faults, so that it knows what a test asked for. A
 * call answered synchronously is recorded synchronously.
 */
export function recordUsage(recorder: UsageRecorder): ApiInterceptor {
  // Made once, not per call: the call is handed to it as andThen's context.
  const record = (answered: Answered, call: ApiCall) => recorder.record(call, answered);
  return (call, next) => {
    recorder.before(call);
    return andThen(next(call), record, undefined, call);
  };
}
