import type { ApiInterceptor } from "../http/api-interceptor.ts";
import type { UsageRecorder } from "./usage-recorder.ts";

/**
 * Records each API call in a consumer's usage: the start records its path names before it is answered, the
 * call and its answer after. Beside the journal, outside the faults, so that it knows what a test asked for. A
 * call answered synchronously is recorded synchronously.
 */
export function recordUsage(recorder: UsageRecorder): ApiInterceptor {
  return (call, next) => {
    recorder.before(call);
    const answer = next(call);
    if (answer instanceof Promise) return answer.then((reply) => (reply ? recorder.record(call, reply) : reply));
    return answer ? recorder.record(call, answer) : answer;
  };
}
