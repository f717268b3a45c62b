import { randomBytes } from "node:crypto";
import { USAGE_CHECKS, RECORDING_CHECKS } from "../runner/checks.ts";
import { openRun } from "../runner/open-run.ts";
import { retriesOf } from "../runner/retry-policy.ts";
import { RunContext } from "../runner/run-context.ts";
import type { RunOptions, RunOutcome } from "../runner/run-contract.ts";
import type { RunEvent } from "../runner/run-report.ts";
import { runRedactor, RunInterrupted, Sender, type AccountName } from "../runner/sender.ts";
import { interactionStep, recordDifferences, testVerdicts } from "./consumer-verdicts.ts";
import { judgeAnswer } from "./judge-answer.ts";
import { rebindRequest, type Rebinding } from "./rebind-request.ts";
import { serviceAnswerOf, type AnswersCollector } from "./collect-answers.ts";
import { accountUid, fillSeats, freeSeats, makeStartRecords } from "./start-records.ts";
import type { UsageDocument, UsageTest } from "./usage-document.ts";
import type { ServiceAnswer } from "./answers-document.ts";

/**
 * Options of {@link replayUsage}: how to reach the service, as for a run of the scenario (the same credentials,
 * timeouts, retries, proxies and collaborators), and the usage to replay.
 */
export interface ReplayOptions extends Omit<RunOptions, "profile" | "recordProfile" | "fuzz" | "seed"> {
  usage: UsageDocument;
  /** The usage file, for the report. */
  file: string;
  /** Given each interaction's answer (free of credentials whatever `revealCredentials` says), for `--write-answers`. */
  answers?: AnswersCollector;
}

const ROLES: Record<string, AccountName> = { primary: "primary", other: "other", fresh: "fresh" };

/**
 * Replays a consumer's usage against a service (`--usage <file> --base-url <url>`): each test's interactions in
 * order, as the client sent them, with every id rebound to what the service answered (and the account's uid to
 * the service's), after making on the service the start records the test named (and the seat-limit state on the
 * fresh account). Each answer is held to the contract, as every answer of the runner is, and to what the client
 * got from the mock (usage/judge-answer.ts): a difference on an assumption fails the consumer, on a fact the
 * service. What the replay makes is the runner's own: counted, labelled, deleted where the service can.
 */
export async function replayUsage(options: ReplayOptions): Promise<RunOutcome> {
  const opened = await openRun(options, false);
  if (opened.kind !== "opened") return opened;
  const {
    now,
    started,
    exchange,
    cleanupExchange,
    accounts,
    contract,
    closedContract,
    preflightAnswers: answers,
    preflightLate: late,
  } = opened;

  const redact = runRedactor(accounts, options.baseUrl, options.revealCredentials ?? false);
  const redactAlways = runRedactor(accounts, options.baseUrl, false);
  const keep =
    options.answers &&
    ((test: string, index: number, answer: ServiceAnswer) =>
      options.answers!.answered(test, index, redactAlways(answer)));
  const onEvent = options.onEvent;
  const emit = onEvent ? (event: RunEvent) => onEvent(redact(event)) : () => {};
  const runId = options.runId ?? `${started.toString(36)}-usage`;
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
    contract,
    closedContract,
    strict: options.strict ?? false,
    emit,
    propertyLimit: Number.POSITIVE_INFINITY,
    ...(options.publicBaseUrl !== undefined ? { publicBaseUrl: options.publicBaseUrl } : {}),
  });
  for (const { step, operation, exchange: answer } of answers) {
    ctx.exchanges += 1 + retriesOf(answer.retried);
    ctx.checkAnswer(
      step,
      { operation, request: { method: answer.method, path: answer.path, status: answer.status } },
      answer,
    );
  }
  for (const { step, operation, failure } of late) ctx.unansweredPreflight(step, operation, failure);

  const skipped = new Map<string, string>();
  const uids = new Map<AccountName, string>();
  let interrupted = false;
  let leftBehind: string[] = [];
  try {
    for (const test of options.usage.tests) {
      const from = ctx.results.length;
      const reason = await replayTest(ctx, test, {
        tag,
        uids,
        fresh: options.fresh,
        skipSeatChecks: options.skipSeatChecks ?? false,
        ...(keep ? { keep } : {}),
      });
      if (reason) {
        options.answers?.notReplayed(test.name, redactAlways(reason));
        skipped.set(test.name, reason);
        ctx.skip("consumer_assumption", test.name, `not replayed: ${reason}`);
      }
      for (const result of ctx.results.slice(from)) result.consumerTest = test.name;
    }
  } catch (error) {
    if (!(error instanceof RunInterrupted)) throw error;
    interrupted = true;
  } finally {
    leftBehind = await ctx.cleanUp();
  }
  const checks = [...RECORDING_CHECKS.filter((check) => check !== "request_conformance"), ...USAGE_CHECKS];
  const full = ctx.report({
    baseUrl: options.baseUrl,
    startedAt: started,
    finishedAt: now(),
    checks,
    leftBehind,
    runId,
    interrupted,
  });
  full.runTag = tag;
  full.created = ctx.leaves.reported();
  if (ctx.retried.length > 0) full.retried = ctx.retried;
  if (ctx.unanswered.length > 0) full.unanswered = ctx.unanswered;
  full.usage = {
    consumer: options.usage.consumer,
    file: options.file,
    against: "service",
    tests: testVerdicts(options.usage.tests, full.results, skipped),
  };
  return { kind: "report", report: redact(full) };
}

/** Replays one test; returns why it could not be replayed, or undefined. */
async function replayTest(
  ctx: RunContext,
  test: UsageTest,
  run: {
    tag: string;
    uids: Map<AccountName, string>;
    fresh: ReplayOptions["fresh"];
    skipSeatChecks: boolean;
    keep?: (test: string, index: number, answer: ServiceAnswer) => void;
  },
): Promise<string | undefined> {
  const roles = new Set<string>();
  for (const interaction of test.interactions) {
    if (interaction.request.account) roles.add(interaction.request.account);
    for (const binding of interaction.bindings) if (binding.from === "account-uid") roles.add(binding.account);
  }
  // The full account of a seats-full start is the fresh one; a usage that names it primary means the same account.
  const seatsFull = test.start.kind === "named" && test.start.name === "seats-full";
  const roleOf: Record<string, AccountName> = seatsFull && !roles.has("fresh") ? { ...ROLES, primary: "fresh" } : ROLES;
  for (const role of roles) {
    const account = roleOf[role];
    if (!account)
      return `the test acts as the account ${role}; a replay has the primary, other and fresh accounts only`;
    if (!ctx.has(account))
      return (
        `the test acts as the ${role} account: give its credentials (CONTRACT_${role.toUpperCase()}_API_KEY ` +
        `and CONTRACT_${role.toUpperCase()}_TOKEN)`
      );
  }
  if (ctx.lostContact) return ctx.lostContact;
  let seatAgents: string[] = [];
  try {
    if (seatsFull) {
      if (run.skipSeatChecks)
        return "it starts with the fresh account's seats full, and --skip-seat-checks forbids filling them";
      if (!ctx.has("fresh"))
        return (
          "it starts with the fresh account's seats full: give the fresh account (CONTRACT_FRESH_API_KEY and " +
          "CONTRACT_FRESH_TOKEN)"
        );
      const filled = await fillSeats(ctx, test, run.tag, run.fresh?.seats);
      seatAgents = filled.agents;
      if (filled.failed) return filled.failed;
    }
    const firstRole = test.interactions.find((interaction) =>
      interaction.bindings.some((binding) => binding.from === "start-record"),
    )?.request.account;
    const made = await makeStartRecords(ctx, test, roleOf[firstRole ?? "primary"] ?? "primary", run.tag);
    if ("failed" in made) return made.failed;
    const rebinding: Rebinding = {
      start: made.ids,
      answers: [],
      uids: new Map(),
      tag: run.tag,
      ids: new Map(),
      recorded: test.interactions,
    };
    for (const [key, id] of made.ids) rebinding.ids.set(key.split(":")[1]!, id);
    for (const role of roles) {
      if (
        !test.interactions.some((interaction) =>
          interaction.bindings.some((binding) => binding.from === "account-uid" && binding.account === role),
        )
      )
        continue;
      const uid = await accountUid(ctx, roleOf[role]!, run.uids);
      if (!uid) return `the ${role} account's uid could not be learnt from the service`;
      rebinding.uids.set(role, uid);
    }
    for (const [index, interaction] of test.interactions.entries()) {
      const step = interactionStep(test, index, interaction);
      const operation = ctx.contract.operation(interaction.operation)!;
      const rebound = rebindRequest(interaction, operation.pathTemplate, rebinding, index);
      if ("missing" in rebound) {
        rebinding.answers[index] = undefined;
        ctx.skip("consumer_assumption", step, `not sent: ${rebound.missing}`, interaction.operation);
        run.keep?.(test.name, index, { operation: interaction.operation, notSent: rebound.missing });
        continue;
      }
      const request = interaction.request;
      const as = request.account ? roleOf[request.account]! : roleOf.primary!;
      const credentials = request.account ? "valid" : request.credentials === "wrong" ? "wrong-token" : "none";
      const contentType = request.headers["content-type"];
      const answer = await ctx.call(step, interaction.operation, rebound.path, {
        as,
        credentials,
        expect: "any",
        ...(rebound.body !== undefined ? { body: rebound.body } : {}),
        ...(contentType !== undefined && contentType !== "application/json" ? { contentType } : {}),
      });
      rebinding.answers[index] = answer?.body;
      if (!answer) {
        const missing = ctx.missing([answer], step) ?? "no answer";
        ctx.skip("consumer_assumption", step, missing, interaction.operation);
        run.keep?.(test.name, index, { operation: interaction.operation, notSent: missing });
        continue;
      }
      run.keep?.(test.name, index, serviceAnswerOf(interaction.operation, answer));
      const recordedNid = nidOf(interaction.response.body);
      const serviceNid = nidOf(answer.body);
      if (recordedNid !== undefined && serviceNid !== undefined) rebinding.ids.set(recordedNid, serviceNid);
      const mediaType = answer.headers.get("content-type")?.split(";")[0]?.trim() ?? null;
      const differences = judgeAnswer(interaction, { status: answer.status, mediaType, body: answer.body }, (mockId) =>
        rebinding.ids.get(mockId),
      );
      recordDifferences(
        ctx.ledger,
        {
          test,
          index,
          interaction,
          request: { method: answer.method, path: answer.path, status: answer.status, curl: ctx.sender.curlOf(answer) },
          by: "the service",
        },
        differences,
      );
    }
    return undefined;
  } finally {
    if (seatAgents.length > 0) await freeSeats(ctx, test, seatAgents);
  }
}

function nidOf(body: unknown): string | undefined {
  const nid =
    body !== null && typeof body === "object" && !Array.isArray(body) ? (body as { nid?: unknown }).nid : undefined;
  return typeof nid === "string" || typeof nid === "number" ? String(nid) : undefined;
}
