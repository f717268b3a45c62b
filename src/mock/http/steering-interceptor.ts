import type { OperationId } from "../../contract/operation-id.ts";
import { MAX_DELAY_MS } from "../services/delay-limit.ts";
import type { DocumentedAnswer } from "../services/documented-answers.ts";
import type { AppliedRule, FaultRules } from "../services/fault-rules.ts";
import { pickLatency, type Latency } from "../services/latency.ts";
import { parsePrefer, preferenceApplied, type Preferences } from "../services/parse-prefer.ts";
import type { Outcome } from "../problems.ts";
import type { AppliedFaults } from "../services/request-journal.ts";
import type { Answered, ApiCall, ApiHandler, ApiInterceptor } from "./api-interceptor.ts";
import type { MockRequest } from "./mock-request.ts";
import { readBody } from "./read-body.ts";
import { problemReply, type Reply } from "./reply.ts";

const NO_PREFERENCES: Outcome<Preferences> = { ok: true, value: {} };

/** Collaborators of {@link steerRequests}. */
export interface SteeringDeps {
  faults: FaultRules;
  /** `--latency`, added to every API answer. */
  latency?: Latency | undefined;
  /** Draws the latency; `Math.random` unless a test wants it fixed. */
  random?: () => number;
  /** The example the spec documents for this status of an operation, for `Prefer: code`. */
  documented: (operationId: string, status: number) => DocumentedAnswer | undefined;
  /** Finds the operation a request addresses (the handler has not run yet when steering answers by itself). */
  operationOf: (method: string, path: string) => OperationId | undefined;
  /** Largest request body read, in bytes (the API's own limit). */
  bodyLimit: number;
}

/**
 * What a test asks of the mock for one API call: `Prefer: code=<status>` and `Prefer: delay=<ms>`
 * (Prism's convention), the first matching fault rule, and `--latency`. It waits (all delays added, at most
 * {@link MAX_DELAY_MS}; a client that leaves meanwhile ends the call, and nothing runs), then drops the
 * connection, or answers the status asked for without running the operation, or lets the API handler answer.
 * Its own answers skip the contract check of `validateResponses`: a test asked for them.
 */
export function steerRequests(deps: SteeringDeps): ApiInterceptor {
  const random = deps.random ?? Math.random;
  // A call nothing steers (most) goes on at once, without the promise of an async function around the next step.
  return (call, next) => {
    const given = call.request.headers.prefer;
    const header = Array.isArray(given) ? given.join(", ") : given;
    const preferred = header === undefined ? NO_PREFERENCES : parsePrefer(header);
    if (!preferred.ok) {
      const reply = problemReply(preferred.failure, call.path);
      return readForJournal(call, deps.bodyLimit).then((rawBody): Answered => ({ reply, rawBody }));
    }
    const prefer = preferred.value;
    const rule = deps.faults.take(call.method, call.path);
    if (!rule && !deps.latency && prefer.code === undefined && prefer.delay === undefined) return next(call);
    return steer(call, next, prefer, rule);
  };

  async function steer(
    call: ApiCall,
    next: ApiHandler,
    prefer: Preferences,
    rule: AppliedRule | undefined,
  ): Promise<Answered> {
    const applied: AppliedFaults = {};
    if (rule) applied.rule = rule;
    if (prefer.code !== undefined || prefer.delay !== undefined) applied.prefer = prefer;
    const latency = deps.latency ? pickLatency(deps.latency, random) : 0;
    if (deps.latency) applied.latency = latency;

    const delay = Math.min(MAX_DELAY_MS, latency + (prefer.delay ?? 0) + (rule?.delay ?? 0));
    if (delay > 0 && !(await wait(delay, call.request))) return { reply: undefined, fault: applied };

    if (rule?.drop)
      return { reply: undefined, rawBody: await readForJournal(call, deps.bodyLimit), fault: applied, dropped: true };
    const status = rule?.status ?? prefer.code;
    let answered: Answered;
    if (status === undefined) {
      const inner = await next(call);
      // What an inner interceptor did on purpose (a service's answers) is added to what this one did.
      answered = { ...inner, fault: inner.fault ? { ...applied, ...inner.fault } : applied };
    } else {
      const rawBody = await readForJournal(call, deps.bodyLimit);
      // The operation addressed, for the journal and coverage too: an answer of its own, not the handler's.
      const addressed = deps.operationOf(call.method, call.path);
      const operationId = rule?.status === undefined ? addressed : undefined;
      const answer = operationId === undefined ? undefined : deps.documented(operationId, status);
      const by = rule?.status !== undefined ? `fault rule ${rule.id}` : "the Prefer header";
      const reply: Reply = answer
        ? { status, contentType: answer.contentType as Reply["contentType"], body: answer.body }
        : problemReply(
            { problem: "injectedFault", status, detail: `Answered ${status} as asked by ${by}; nothing was changed.` },
            call.path,
          );
      answered = { reply, operationId: addressed, rawBody, fault: applied };
    }
    const appliedHeader = preferenceApplied(prefer);
    const { reply } = answered;
    return reply && appliedHeader
      ? { ...answered, reply: { ...reply, headers: { ...reply.headers, "Preference-Applied": appliedHeader } } }
      : answered;
  }
}

/** Waits, unless the client leaves first; true when the call should still be answered. */
function wait(ms: number, request: MockRequest): Promise<boolean> {
  return new Promise((resolve) => {
    let gone = false;
    const timer = setTimeout(() => {
      stop?.();
      resolve(!gone);
    }, ms);
    const stop = request.onLeave?.(() => {
      gone = true;
      clearTimeout(timer);
      resolve(false);
    });
  });
}

/** Reads the body of a call steering answers by itself, so the journal shows what the client sent. */
async function readForJournal(call: ApiCall, limit: number): Promise<Uint8Array | undefined> {
  const read = await readBody(call.request, limit);
  return read.kind === "bytes" ? read.bytes : undefined;
}
