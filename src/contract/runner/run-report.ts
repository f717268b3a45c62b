import type { ContractViolation, Tier } from "../contract-violation.ts";
import type { CheckName } from "./checks.ts";
import type { FuzzSummary } from "./fuzz/fuzz-summary.ts";

/** How one evaluation of a check ended. A warning is a failed check that rests only on our assumptions. */
export type CheckStatus = "passed" | "failed" | "warning" | "skipped";

/** The request line and status of an exchange, to show with a result. */
export interface ExchangeSummary {
  method: string;
  path: string;
  status?: number;
  /** The JSON body sent, when there was one. */
  body?: unknown;
  /** A curl command that sends the same request again (credentials as environment variables unless revealed). */
  curl?: string;
}

/** One evaluation of one check. */
export interface CheckResult {
  check: CheckName;
  status: CheckStatus;
  tier: Tier;
  /** The step of the scenario it belongs to: `create a property`. */
  step: string;
  operation?: string;
  /** Why it failed, warned or was skipped. */
  message?: string;
  /** The section of the interface document the rule comes from; every fact-tier result has one. */
  section?: string;
  /** What the rule demands, when the check compares one value: `a refusal (not 2xx)`. */
  expected?: string;
  /** What the service did instead: `200 {"nid":"1042",…}`. */
  actual?: string;
  request?: ExchangeSummary;
  violations?: ContractViolation[];
  /** The consumer test it belongs to, when the run replays or judges a consumer's usage (`--usage`). */
  consumerTest?: string;
}

/** A request that got no answer within the limit (or at all): it failed once, and what rested on it was skipped. */
export interface UnansweredRequest {
  step: string;
  method: string;
  path: string;
  reason: string;
}

/** A request the runner sent again after a 429 or 503 with Retry-After. */
export interface RetriedRequest {
  step: string;
  method: string;
  path: string;
  /** The answers that asked for a wait, each with its Retry-After as given. */
  answers: Array<{ status: number; retryAfter: string }>;
  /** Set when a try's connection closed without an answer and the request was sent again at once: why it closed. */
  dropped?: string;
  /** What the runner waited for this request, in all. */
  waitedMs: number;
  /** The status of the answer judged in the end; absent when the last try got no answer. */
  finalStatus?: number;
  /** Why the runner stopped waiting while the service still asked for it: the request's 3 tries, or the run's 30 s. */
  gaveUp?: string;
}

/** Per operation: whether it ran, and which statuses it answered and documents. */
export interface OperationCoverage {
  statuses: number[];
  documented: string[];
}

/** What part of a recording was checked, and what was left out as not addressed to the service. */
export interface RecordingScope {
  /** The recording's file name. */
  file: string;
  /** The base URL that selected the exchanges, when one was given. */
  baseUrl?: string;
  /** The path prefix that selected the exchanges, when no base URL was given: `/api/v1/object/`. */
  apiPrefix?: string;
  /** Entries in the recording. */
  entries: number;
  /** Exchanges with the service, each checked. */
  checked: number;
  /** CORS preflights to the service: the browser's, not the client's, so not checked. */
  preflights: number;
  /** Entries to other addresses (pages, assets, other services). */
  otherTraffic: number;
}

/**
 * A property the run created and left on the service (section 4 gives properties no delete), with the title and
 * external id the run gave it to say which run made it, or why it could not.
 */
export interface CreatedRecord {
  kind: "property";
  nid: string;
  /** What made it: `made by the step "…"`, or `made by a generated case`. */
  by: string;
  title?: string;
  externalId?: string;
  /** Why the run could not label it (the edit was refused, or the service stopped answering). */
  notLabelled?: string;
}

/** Everything a run found. */
export interface RunReport {
  /**
   * The implementation the scenario ran against; for a recording, the base URL given to select its exchanges, or "".
   */
  baseUrl: string;
  /** Set when the report is of a recording rather than a run against a service. */
  recording?: RecordingScope;
  specVersion: string;
  strict: boolean;
  startedAt: string;
  durationMs: number;
  result: "passed" | "failed";
  results: CheckResult[];
  /** Counts per check. */
  summary: Record<string, Record<CheckStatus, number>>;
  coverage: Record<string, OperationCoverage>;
  exchanges: number;
  /** Records the run created and could not delete (properties have no delete operation), and why. */
  leftBehind: string[];
  /** Requests sent again after a 429 or 503 with Retry-After (at most 3 times each, 30 s per run). */
  retried?: RetriedRequest[];
  /** Requests that got no answer within --timeout. */
  unanswered?: UnansweredRequest[];
  /** The run's id, part of every email and external id it creates. */
  runId?: string;
  /**
   * The run's tag, `<run id>-<random>`: every property the run leaves carries it in its title
   * (`Contract Run <tag> (k)`) and external id (`contract-<tag>-k`), and every email it creates holds it.
   */
  runTag?: string;
  /** Every property the run created and left behind, with its label: the full list behind `leftBehind`'s count. */
  created?: CreatedRecord[];
  /** Set when the run was stopped (Ctrl-C) before its end: the checks listed are those that ran. */
  interrupted?: boolean;
  /** Set when another client changed the records a check depends on while it ran (two runs at once on one account). */
  clash?: string;
  /** The seed of the run's generated cases (`--seed` repeats them); set on every run against a service. */
  seed?: number;
  /** What the generated phase (`--fuzz`) sent, per operation. */
  fuzz?: FuzzSummary;
  /** Set when the run replayed a consumer's usage (`--usage`), or judged it against a profile: each test's verdict. */
  usage?: UsageVerdicts;
}

/** A consumer's usage, test by test, as a replay or a profile judged it. */
export interface UsageVerdicts {
  consumer: string;
  /** The usage file. */
  file: string;
  /** `service`: replayed against the service; `profile`: judged against a recorded service profile, nothing sent. */
  against: "service" | "profile";
  /** With `against: "profile"`: the profile file, its run and when it was recorded. */
  profile?: string;
  tests: Array<{
    name: string;
    /**
     * `failed`: the consumer rests on something the service does not do, or the service broke a fact; `skipped`:
     * not run, the whole test or one of its interactions could not be sent (the reports say "not run").
     */
    result: "passed" | "failed" | "skipped";
    interactions: number;
    /** The assumptions (names of docs/assumptions.md) and profile points the test's answers rest on. */
    restsOn: string[];
    /** Why the test was not run, or which interaction could not be sent, when skipped. */
    reason?: string;
  }>;
}

/** What the runner tells a reporter while it runs. */
export type RunEvent =
  | {
      kind: "step";
      step: string;
      operation: string;
      request: ExchangeSummary;
      durationMs: number;
      results: CheckResult[] /** Many generated requests, not one: no status to show. */;
      generated?: true;
    }
  | { kind: "check"; result: CheckResult };
