/**
 * A service's answers served back to a consumer's suite (`--answers`, `MOCK_ANSWERS`, `--rerun`): a GET of one
 * property served from the answers against the same GET recorded (what the suite pays when it records its
 * usage), through MSW's setupServer in this process, rounds in turn, a test begun before every 20 GETs. Then
 * `--rerun` on the example consumer against the independent implementation on loopback, timed beside what it is
 * made of: one replay writing the answers (`--usage --base-url --write-answers`) and one run of the suite against
 * them (`MOCK_ANSWERS`), each in turn twice, the least of each taken. Goals 49a (serving costs a GET no more
 * than recording: ≥ 0.90× its throughput) and 49b (`--rerun` adds nothing to the replay and one run of the
 * suite: ≤ 1.15× their sum).
 */
import { execFile } from "node:child_process";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { setupServer } from "msw/node";
import type { AnswersDocument, ServiceAnswer } from "../../../src/contract/usage/answers-document.ts";
import { createMockHandlers, type MockHandlers } from "../../../src/msw.ts";
import { exampleConsumerProject, runExampleSuite } from "../../../test/support/example-consumer.ts";
import { startIndependentService } from "../../../test/support/independent-service/index.ts";
import { credentialsEnv } from "../../../test/support/run-contract-cli.ts";
import { count, ms, perSecond, ratio, table } from "../format.ts";
import { API } from "../scenarios.ts";
import { mswRequestsOf, roundsOf, type BenchSection, type Goal } from "../section.ts";

const NID = 1001; // a property of the demo account in fixtures/db.json
const PER_TEST = 20;
const TEST = "bench > GET one property";
const MSW_BASE = "http://answers.bench.test";
const HEADERS = { "API-KEY": "demo-key", TOKEN: "demo-token", "content-type": "application/json" };
const IN_FLIGHT = 16;
/** Rounds of each figure, its sides in turn (one of each in a `--quick` run: section.ts, roundsOf). */
const MSW_ROUNDS = 6;
const RERUN_ROUNDS = 2;
const CONTRACT_BIN = fileURLToPath(new URL("../../../dist/cli/contract.js", import.meta.url));
/**
 * What a `--quick` run adds to each run of the example's suite: vitest's cache of transformed modules on disk, in
 * the example's copy, so that the suite's second and third runs there (against the answers, and within `--rerun`)
 * do not transform again the modules the first transformed, which only a measure of a suite's cold run needs.
 */
const QUICK_VITEST_ARGS = ["--experimental.fsModuleCache"];
const VITEST = fileURLToPath(new URL("../../../node_modules/vitest/vitest.mjs", import.meta.url));

export interface AnswersFigures {
  msw: {
    requestsPerRound: number;
    rounds: number;
    recordingRequestsPerSecond: number;
    servingRequestsPerSecond: number;
  };
  rerun: { suiteMs: number; replayMs: number; rerunMs: number; exitCode: number | string };
}

/**
 * Sends `total` GETs through MSW, `IN_FLIGHT` at a time, a test begun before every {@link PER_TEST}; the elapsed
 * milliseconds.
 */
async function drive(handlers: MockHandlers, total: number, failures: string[]): Promise<number> {
  const started = performance.now();
  let sent = 0;
  const lane = async () => {
    while (sent < total) {
      if (sent % PER_TEST === 0) handlers.usage?.beginTest(TEST);
      sent += 1;
      const response = await fetch(`${MSW_BASE}${API}/property/${NID}`, { headers: HEADERS });
      await response.arrayBuffer();
      if (response.status !== 200 && failures.length < 5)
        failures.push(`answers: GET through MSW answered ${response.status}`);
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, lane));
  return performance.now() - started;
}

/**
 * The answers of one test of {@link PER_TEST} GETs: the mock's own answer to each, as a service would have given
 * it, and {@link IN_FLIGHT} more, for the GETs still on their way when the next test begins (every GET is alike).
 */
async function answersOfTest(): Promise<AnswersDocument> {
  const recording = createMockHandlers({ baseUrl: MSW_BASE, usage: { consumer: "bench" } });
  const server = setupServer(...recording.handlers);
  server.listen({ onUnhandledRequest: "error" });
  try {
    recording.usage!.beginTest(TEST);
    for (let sent = 0; sent < PER_TEST; sent += 1)
      await (await fetch(`${MSW_BASE}${API}/property/${NID}`, { headers: HEADERS })).arrayBuffer();
  } finally {
    server.close();
  }
  const usage = recording.usage!.toJSON();
  const recorded = usage.tests[0]!.interactions;
  const interactions: ServiceAnswer[] = [...recorded, ...recorded.slice(0, IN_FLIGHT)].map((interaction) => ({
    operation: interaction.operation,
    path: interaction.request.path,
    status: interaction.response.status,
    mediaType: interaction.response.mediaType,
    headers: { "content-type": "application/json; charset=utf-8" },
    body: interaction.response.body,
  }));
  return {
    answersVersion: 1,
    consumer: "bench",
    source: { kind: "service", baseUrl: "https://service.example" },
    usage,
    tests: [{ name: TEST, interactions }],
  };
}

function timed(
  command: string,
  args: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<{ ms: number; code: number | string }> {
  const started = performance.now();
  return new Promise((resolve) => {
    execFile(
      command,
      args,
      { cwd: options.cwd, env: { ...process.env, ...options.env }, maxBuffer: 64 * 1024 * 1024 },
      (error) => {
        resolve({
          ms: performance.now() - started,
          code: error ? ((error as { code?: number | string }).code ?? 1) : 0,
        });
      },
    );
  });
}

export const section: BenchSection<AnswersFigures> = {
  key: "answers",
  async run({ settings, progress, scratch }) {
    const failures: string[] = [];
    const mswRounds = roundsOf(settings, MSW_ROUNDS);
    const rerunRounds = roundsOf(settings, RERUN_ROUNDS);
    progress("answers: MSW handlers recording usage and serving a service's answers…");
    const recording = createMockHandlers({ baseUrl: MSW_BASE, usage: { consumer: "bench" } });
    const serving = createMockHandlers({
      baseUrl: MSW_BASE,
      usage: { consumer: "bench" },
      answers: await answersOfTest(),
    });
    const server = setupServer();
    server.listen({ onUnhandledRequest: "error" });
    const { perRound, warmUp } = mswRequestsOf(settings);
    const elapsed = { recording: 0, serving: 0 };
    for (const handlers of [recording, serving]) {
      server.resetHandlers(...handlers.handlers);
      await drive(handlers, warmUp, failures);
    }
    for (let round = 0; round < mswRounds; round++) {
      for (const side of round % 2 === 0 ? (["recording", "serving"] as const) : (["serving", "recording"] as const)) {
        const handlers = side === "recording" ? recording : serving;
        server.resetHandlers(...handlers.handlers);
        elapsed[side] += await drive(handlers, perRound, failures);
      }
    }
    server.close();
    if (serving.answers!.notCovered().length > 0)
      failures.push(`answers: ${serving.answers!.notCovered().length} GETs were not served from the answers`);
    const recordingRate = ((perRound * mswRounds) / elapsed.recording) * 1000;
    const servingRate = ((perRound * mswRounds) / elapsed.serving) * 1000;

    progress("answers: --rerun on the example consumer, beside one replay and one run of its suite…");
    const project = exampleConsumerProject();
    const service = await startIndependentService();
    let rerun: AnswersFigures["rerun"];
    try {
      const usageFile = join(project, "usage.json");
      const env = credentialsEnv(service.accounts);
      const vitestArgs = settings.quick ? QUICK_VITEST_ARGS : [];
      const command =
        `cd '${project}' && USAGE_FILE='${usageFile}' '${process.execPath}' '${VITEST}' run` +
        vitestArgs.map((arg) => ` ${arg}`).join("");
      const times = { suite: [] as number[], replay: [] as number[], rerun: [] as number[] };
      let exitCode: number | string = 0;
      // Each run in turn, rerunRounds times; the least of each is its figure, the one least disturbed by other work.
      const recorded = await runExampleSuite(project, usageFile, {}, vitestArgs);
      if (recorded.code !== 0) failures.push(`answers: the example's suite failed on the mock (exit ${recorded.code})`);
      const answersFile = join(scratch, "answers.json");
      for (let round = 0; round < rerunRounds; round += 1) {
        // What --rerun is made of: the replay writing the answers, then one run of the suite against them.
        const replay = await timed(
          process.execPath,
          [
            CONTRACT_BIN,
            "--usage",
            usageFile,
            "--base-url",
            service.url,
            "--quiet",
            "--reporter",
            "json",
            "--output",
            join(scratch, "replay.json"),
            "--write-answers",
            answersFile,
          ],
          { env },
        );
        times.replay.push(replay.ms);
        const startedSuite = performance.now();
        const suite = await runExampleSuite(project, usageFile, { MOCK_ANSWERS: answersFile }, vitestArgs);
        times.suite.push(performance.now() - startedSuite);
        if (suite.code !== 1)
          failures.push(
            `answers: the example's suite against the service's answers exited ${suite.code}, not 1 (the ` +
              `header test breaking)`,
          );
        const again = await timed(
          process.execPath,
          [
            CONTRACT_BIN,
            "--usage",
            usageFile,
            "--base-url",
            service.url,
            "--quiet",
            "--rerun",
            command,
            "--reporter",
            "json",
            "--output",
            join(scratch, "rerun.json"),
          ],
          { env },
        );
        times.rerun.push(again.ms);
        exitCode = again.code;
        // The example has one test that breaks against the service's answers: exit 1 is the expected verdict.
        if (again.code !== 1) failures.push(`answers: --rerun exited ${again.code}, not 1 (the header test breaking)`);
      }
      rerun = {
        suiteMs: Math.min(...times.suite),
        replayMs: Math.min(...times.replay),
        rerunMs: Math.min(...times.rerun),
        exitCode,
      };
    } finally {
      await service.close();
      rmSync(project, { recursive: true, force: true });
    }

    const servingRatio = servingRate / recordingRate;
    const rerunRatio = rerun.rerunMs / (rerun.replayMs + rerun.suiteMs);
    const goals: Goal[] = [
      {
        id: "49a",
        name: "GET throughput serving a service's answers / recording usage, MSW (setupServer)",
        measured: ratio(servingRatio),
        target: "≥ 0.90×",
        pass: servingRatio >= 0.9,
      },
      {
        id: "49b",
        name: "--rerun on the example consumer / (one replay + one run of its suite)",
        measured: ratio(rerunRatio),
        target: "≤ 1.15×",
        pass: rerunRatio <= 1.15,
      },
    ];
    const lines = [
      "A service's answers served to a consumer's suite, and --rerun",
      "",
      `MSW's setupServer in this process, tests of ${PER_TEST} GETs of one property, ${count(perRound)} GETs ` +
        `per round, ${mswRounds} rounds in turn, ${IN_FLIGHT} in flight:`,
      "",
      ...table(
        ["handlers", "throughput", "vs recording"],
        [
          ["recording usage (usage: { consumer })", perSecond(recordingRate), ratio(1)],
          ["serving answers (answers)", perSecond(servingRate), ratio(servingRatio)],
        ],
        "lrr",
      ),
      "",
      `The example consumer against the independent implementation on loopback, the least of ${rerunRounds} ` +
        `runs in turn:`,
      "",
      ...table(
        ["run", "time"],
        [
          ["the replay (--usage --base-url --write-answers)", ms(rerun.replayMs)],
          ["its suite, once, against the answers (MOCK_ANSWERS)", ms(rerun.suiteMs)],
          ["--rerun (replay, answers, suite)", ms(rerun.rerunMs)],
        ],
        "lr",
      ),
    ];
    return {
      figures: {
        msw: {
          requestsPerRound: perRound,
          rounds: mswRounds,
          recordingRequestsPerSecond: recordingRate,
          servingRequestsPerSecond: servingRate,
        },
        rerun,
      },
      lines,
      goals,
      failures,
    };
  },
};
