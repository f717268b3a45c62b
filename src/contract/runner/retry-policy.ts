import type { Exchange, ExchangeRequest, ExchangeResult, Exchanger, Retried } from "./http-exchange.ts";

/**
 * The statuses by which a service says "not now, come back later" (RFC 9110 15.6.4 for 503, RFC 6585 4 for 429):
 * with a Retry-After header the runner waits and sends the request again, instead of judging a blip.
 */
export const WAIT_STATUSES: ReadonlySet<number> = new Set([429, 503]);

/** Methods whose requests can be sent twice with the effect of once (RFC 9110, 9.2.2). POST is not one. */
export const IDEMPOTENT_METHODS: ReadonlySet<string> = new Set(["GET", "HEAD", "OPTIONS", "PUT", "DELETE"]);

/** The bounds of waiting: per request, and over a whole run (both exchangers of a run share one budget). */
export interface RetryLimits {
  /** How many times one request is sent again at most. */
  perRequest: number;
  /** Milliseconds a run waits at most, all requests together. */
  perRunMs: number;
}

/**
 * The default bounds: a few tries per request, and a budget of waiting for the whole run, so that a service that keeps
 * asking to wait cannot hold a run forever.
 */
export const DEFAULT_RETRY_LIMITS: RetryLimits = { perRequest: 3, perRunMs: 30_000 };

/** What a run has waited so far, shared by every exchanger of the run. */
export interface RetryBudget {
  readonly limits: RetryLimits;
  waitedMs: number;
}

/** Collaborators of {@link withRetries}, injectable so that a test controls the clock and the wait. */
export interface RetryDeps {
  budget: RetryBudget;
  /** The wall clock, for a Retry-After given as an HTTP-date. */
  now?: () => number;
  /** Waits this many milliseconds; stopped early by the run's signal. */
  sleep?: (ms: number) => Promise<void>;
}

/**
 * How long a Retry-After header asks to wait, in milliseconds, or undefined when it says nothing usable.
 * RFC 9110 10.2.3: `delay-seconds` (a non-negative integer) or an HTTP-date (a date in the past means now).
 */
export function retryAfterMs(header: string | null, now: number): number | undefined {
  if (header === null) return undefined;
  const text = header.trim();
  if (/^[0-9]+$/.test(text)) return Number(text) * 1000;
  // An HTTP-date names its weekday and zone (IMF-fixdate, or the obsolete RFC 850 and asctime forms); a bare number or
  // word is not one.
  if (!/^(Mon|Tue|Wed|Thu|Fri|Sat|Sun)[a-z]*,? /.test(text)) return undefined;
  const at = Date.parse(/GMT$/.test(text) ? text : `${text} GMT`);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/**
 * An exchanger that waits for a 429 or 503 with Retry-After and sends the request again, when it is safe to
 * repeat (`repeatable`, by the method unless the caller says otherwise), at most `perRequest` times and never
 * past the run's budget. The answer that is judged is the last one; it carries what was waited for (`retried`),
 * so the report can say which requests were retried and how long the run waited. A 5xx without Retry-After, a
 * request not safe to repeat, or a wait past the budget: the answer is judged as it came.
 *
 * A request safe to repeat whose connection closed without an answer (reset, or closed by the other side: what a
 * kept-alive connection that the service or a proxy closed while idle gives the next request on it, and what a
 * proxy that drops one request gives) is sent again once, at once, as HTTP lets a client do
 * (RFC 9110 9.2.2). A second close is judged: no answer. A late answer (the timeout) is not sent again.
 */
export function withRetries(
  exchange: Exchanger,
  { budget, now = Date.now, sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms)) }: RetryDeps,
): Exchanger {
  return async (request: ExchangeRequest): Promise<ExchangeResult> => {
    const repeatable = request.repeatable ?? IDEMPOTENT_METHODS.has(request.method.toUpperCase());
    let retried: Retried | undefined;
    for (;;) {
      const result = await exchange(request);
      if (retried) (result.ok ? result.exchange : result.failure).retried = retried;
      if (!result.ok && result.failure.kind === "network" && repeatable && retried?.dropped === undefined) {
        retried ??= { answers: [], waitedMs: 0 };
        retried.dropped = result.failure.reason;
        continue;
      }
      if (!result.ok || !repeatable || !WAIT_STATUSES.has(result.exchange.status)) return result;
      const attempt = retried?.answers.length ?? 0;
      const answer: Exchange = result.exchange;
      const header = answer.headers.get("retry-after");
      const wait = retryAfterMs(header, now());
      if (wait === undefined) return result;
      const gaveUp =
        attempt >= budget.limits.perRequest
          ? `sent ${budget.limits.perRequest} times again already`
          : budget.waitedMs + wait > budget.limits.perRunMs
            ? `a wait of ${seconds(wait)} would pass the run's ${seconds(budget.limits.perRunMs)} of waiting ` +
              `(${seconds(budget.waitedMs)} spent)`
            : undefined;
      if (gaveUp) {
        if (retried) retried.gaveUp = gaveUp;
        else answer.retried = { answers: [], waitedMs: 0, gaveUp };
        return result;
      }
      retried ??= { answers: [], waitedMs: 0 };
      retried.answers.push({ status: answer.status, retryAfter: header! });
      retried.waitedMs += wait;
      budget.waitedMs += wait;
      if (wait > 0) await sleep(wait);
    }
  };
}

/** How many times a request was sent again: once per answer that asked for a wait, once after a dropped connection. */
export function retriesOf(retried: Retried | undefined): number {
  return retried ? retried.answers.length + (retried.dropped === undefined ? 0 : 1) : 0;
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(ms % 1000 === 0 ? 0 : 1)} s`;
}

/**
 * Which operations of the document the runner sends again after a 429 or 503 with Retry-After, each with why.
 * By HTTP's methods (RFC 9110 9.2.2) every GET, PUT and DELETE is idempotent and no POST is; one POST of this API
 * is a read: endpoint 6 "Retrieve an agent card (the retrieve operation uses POST)" (section 4), with no body, so
 * it is repeated too. The three creates are not: a create sent twice may make two records (a property cannot be
 * deleted, and a second agent with the same email is refused), so their 429 or 503 is judged as it came.
 */
export const REPEATABLE_OPERATIONS: Readonly<Record<string, { repeat: boolean; why: string }>> = {
  retrieveProperty: { repeat: true, why: "GET" },
  retrievePropertyByExternalId: { repeat: true, why: "GET" },
  createProperty: {
    repeat: false,
    why: "POST that creates: sent twice, it may leave two properties, which cannot be deleted",
  },
  editProperty: { repeat: true, why: "PUT: the same edit twice leaves the property as once" },
  listUserProperties: { repeat: true, why: "GET" },
  retrieveAgentCard: {
    repeat: true,
    why: "a POST the document names a retrieve (section 4, endpoint 6): it reads, changes nothing",
  },
  createAgentCard: {
    repeat: false,
    why: "POST that creates: sent twice, the second may be refused as a duplicate email or take a seat",
  },
  updateAgentCard: { repeat: true, why: "PUT" },
  deleteAgentCard: { repeat: true, why: "DELETE" },
  listAgentCards: { repeat: true, why: "GET" },
  createDocument: { repeat: false, why: "POST that creates: sent twice, it may attach two documents" },
  updateDocument: { repeat: true, why: "PUT" },
  retrieveDocument: { repeat: true, why: "GET" },
  deleteDocument: { repeat: true, why: "DELETE" },
  retrieveTemplateCatalogue: { repeat: true, why: "GET" },
};
