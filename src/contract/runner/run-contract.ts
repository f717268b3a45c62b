import { randomBytes, randomInt } from "node:crypto";
import type { Contract } from "../create-contract.ts";
import { compareWithProfile } from "../profile/compare-profile.ts";
import { ProfileObserver } from "../profile/profile-observer.ts";
import type { ServiceProfile } from "../profile/service-profile.ts";
import { SCENARIO_CHECKS } from "./checks.ts";
import type { FuzzSummary } from "./fuzz/fuzz-summary.ts";
import { openRun } from "./open-run.ts";
import type { ProxySettings } from "./proxy-settings.ts";
import { retriesOf, type RetryLimits } from "./retry-policy.ts";
import { RunContext } from "./run-context.ts";
import { runRedactor, RunInterrupted, Sender, type Credentials } from "./sender.ts";
import type { RunEvent, RunReport } from "./run-report.ts";
import { runScenario } from "./scenario.ts";
import { profileSteps } from "./steps/profile-steps.ts";

/** Options of {@link runContract}. */
export interface RunOptions {
  /** Where the implementation under test answers: `http://127.0.0.1:4010` or the real service's base URL. */
  baseUrl: string;
  /**
   * The address clients reach the service at, when the runner talks to it through another one (a proxy, a
   * private address): the auto-login `uri` of a create or edit must start with it (section 4.1). `baseUrl` by default.
   */
  publicBaseUrl?: string;
  apiKey: string;
  token: string;
  /** A second account: its TOKEN is sent with the first account's API-KEY, which must be refused (section 5). */
  other?: Credentials;
  /** An account without agents, for the seat limit (sections 7 and 8); `seats` is its limit when known. */
  fresh?: Credentials & { seats?: number };
  /** Do not fill agent seats (production): the seat checks are reported as skipped. */
  skipSeatChecks?: boolean;
  /** Fail on checks that rest only on our assumptions too (exact error statuses, the problem+json shape). */
  strict?: boolean;
  /** Milliseconds to wait for each answer. */
  timeoutMs?: number;
  /**
   * Part of the emails and external ids the run creates (a random suffix keeps reused ids apart); from the clock unless
   * given.
   */
  runId?: string;
  /** Show credentials in the curl lines of the report instead of environment variables. */
  revealCredentials?: boolean;
  /** Stops the run (Ctrl-C): it deletes what it created and reports what ran, marked interrupted. */
  signal?: AbortSignal;
  /** Told of each step and check while the run goes on. */
  onEvent?: (event: RunEvent) => void;
  /**
   * The proxies to go through (`readProxySettings(process.env)`: HTTP_PROXY, HTTPS_PROXY, NO_PROXY); none by default.
   */
  proxy?: ProxySettings;
  /** How often and how long to wait for a 429 or 503 with Retry-After: 3 times per request, 30 s per run by default. */
  retryLimits?: RetryLimits;
  /** Injectable collaborators. */
  fetch?: typeof globalThis.fetch;
  /** Waits between a 429 or 503 with Retry-After and the next try; a timer by default. */
  sleep?: (ms: number) => Promise<void>;
  contract?: Contract;
  closedContract?: Contract;
  now?: () => number;
  /** The random suffix of the run's records; 6 random characters unless given. */
  nonce?: string;
  /** Hold the service to this profile too (`--profile`): every difference fails `profile_conformance`. */
  profile?: ServiceProfile;
  /** Record what the service does where the document is silent (`--write-profile`): the outcome carries the profile. */
  recordProfile?: boolean;
  /** `--fuzz <n>`: after the scenario, n generated cases per operation that takes input (fuzz/run-fuzz-phase.ts). */
  fuzz?: number;
  /** The seed of the generated cases (`--seed`); drawn at random unless given, and printed in every report. */
  seed?: number;
}

/** A finished run, or why it could not give a verdict (nothing answers, or a usage mistake). */
export type RunOutcome =
  | { kind: "report"; report: RunReport; profile?: ServiceProfile }
  | { kind: "unreachable" | "usage"; message: string };

/**
 * Runs the contract scenario against an implementation and reports every check. The run fails when a check of
 * a documented fact fails (or, with `strict`, any check). Whatever happens, it deletes the agents and documents
 * it created and lists what it could not delete.
 *
 * @example
 * const outcome = await runContract({ baseUrl: "http://127.0.0.1:4010", apiKey: "demo-key", token: "demo-token" });
 * if (outcome.kind === "report" && outcome.report.result === "failed") process.exitCode = 1;
 */
export async function runContract(options: RunOptions): Promise<RunOutcome> {
  // The generated phase (fast-check) is loaded only when asked for, and before the first request: loading it
  // between the scenario's last request and the phase's first left the connection idle long enough, on a busy
  // machine, to be closed under it.
  const fuzzPhase = options.fuzz ? (await import("./fuzz/run-fuzz-phase.ts")).runFuzzPhase : undefined;
  const opened = await openRun(options, !options.skipSeatChecks);
  if (opened.kind !== "opened") return opened;
  const {
    now,
    started,
    exchange,
    cleanupExchange,
    accounts,
    contract,
    closedContract,
    preflightAnswers,
    preflightLate,
  } = opened;

  // No secret reaches a report or a progress line unless --show-credentials: a service may echo one in an answer.
  const redact = runRedactor(accounts, options.baseUrl, options.revealCredentials ?? false);
  const onEvent = options.onEvent;
  const emit = onEvent ? (event: RunEvent) => onEvent(redact(event)) : () => {};
  const seed = options.seed ?? randomInt(2 ** 31 - 1);
  // The run's id: the start time and the seed, so that a property left on the service leads back to its run's report.
  const runId = options.runId ?? `${started.toString(36)}-s${seed}`;
  const observer =
    options.profile || options.recordProfile
      ? new ProfileObserver({ runId, document: contract.document, now })
      : undefined;
  const tag = `${runId}-${options.nonce ?? randomBytes(4).toString("hex").slice(0, 6)}`;
  const sender = new Sender({
    exchange,
    cleanupExchange,
    baseUrl: options.baseUrl,
    accounts,
    revealCredentials: options.revealCredentials ?? false,
    ...(options.signal ? { signal: options.signal } : {}),
  });
  const ctx = new RunContext({
    tag,
    sender,
    ...(options.publicBaseUrl !== undefined ? { publicBaseUrl: options.publicBaseUrl } : {}),
    contract,
    closedContract,
    strict: options.strict ?? false,
    emit,
    ...(observer ? { observe: (answer) => observer.observe(answer) } : {}),
  });
  // The preflight's answers are answers of the service like any other: a 5xx there fails the run too.
  for (const { step, operation, exchange: answer } of preflightAnswers) {
    ctx.exchanges += 1 + retriesOf(answer.retried);
    const request = { method: answer.method, path: answer.path, status: answer.status };
    ctx.checkAnswer(step, { operation, request }, answer);
    if (answer.retried) ctx.noteRetry(step, answer.method, answer.path, answer.retried, answer.status);
  }
  for (const { step, operation, failure } of preflightLate) ctx.unansweredPreflight(step, operation, failure);
  let clash: string | undefined;
  let interrupted = false;
  let leftBehind: string[] = [];
  let fuzz: FuzzSummary | undefined;
  try {
    ({ clash } = await runScenario(ctx, {
      tag,
      seats: {
        skip: options.skipSeatChecks ?? false,
        ...(options.fresh?.seats !== undefined ? { seats: options.fresh.seats } : {}),
      },
    }));
    if (observer) await profileSteps(ctx, { tag });
    if (observer && options.profile) {
      for (const { point, status, step, message } of compareWithProfile(options.profile, observer)) {
        if (status === "skipped") ctx.skip("profile_conformance", step, message);
        else
          ctx.check("profile_conformance", {
            step: `${step} (profile: ${point})`,
            passed: status === "passed",
            tier: "profile",
            message,
          });
      }
    }
    if (fuzzPhase && options.fuzz && !ctx.lostContact) {
      fuzz = await fuzzPhase(
        ctx,
        {
          contract,
          closedContract,
          strict: options.strict ?? false,
          emit,
          ...(options.signal ? { signal: options.signal } : {}),
        },
        { cases: options.fuzz, seed },
      );
    }
  } catch (error) {
    if (!(error instanceof RunInterrupted)) throw error;
    interrupted = true;
  } finally {
    // Runs also when a step throws: a bug in the runner must not leave the service littered.
    leftBehind = await ctx.cleanUp();
  }
  const checks = options.profile ? [...SCENARIO_CHECKS, "profile_conformance" as const] : SCENARIO_CHECKS;
  const full = ctx.report({
    baseUrl: options.baseUrl,
    startedAt: started,
    finishedAt: now(),
    checks,
    leftBehind,
    runId,
    interrupted,
    ...(clash ? { clash } : {}),
  });
  full.seed = seed;
  full.runTag = tag;
  full.created = ctx.leaves.reported();
  if (ctx.retried.length > 0) full.retried = ctx.retried;
  if (ctx.unanswered.length > 0) full.unanswered = ctx.unanswered;
  const report = redact(full);
  if (fuzz) report.fuzz = redact(fuzz);
  if (!observer || !options.recordProfile) return { kind: "report", report };
  return {
    kind: "report",
    report,
    profile: observer.profile({ recordedAt: new Date(started).toISOString(), baseUrl: options.baseUrl }),
  };
}
