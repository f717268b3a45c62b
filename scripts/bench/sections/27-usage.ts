/**
 * Recording a consumer's usage (issue 38): a GET of one property with recording off and on, side by side, through
 * the process (the mock's bin with and without `--record-usage`, three processes each, the runs in turn, as the
 * profile's section compares) and through MSW's setupServer (handler sets with and without the `usage` option,
 * in this process, rounds in turn). A test begins before every 20 GETs, as a suite's tests would
 * (`POST /__admin/usage/tests`, `usage.beginTest`), so that the recording is what a suite pays: each test's
 * calls kept, and written when it ends. Goals 38a (process) and 38b (MSW): recording adds at most 10 %.
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { setupServer } from "msw/node";
import { createMockHandlers, type MockHandlers } from "../../../src/msw.ts";
import { count, micros, perSecond, ratio, ratioOf, table } from "../format.ts";
import {
  eachProcessLines,
  groupProcessesOf,
  measureInterleaved,
  measureOptionsOf,
  type Contender,
  type ServerFigure,
} from "../measure-servers.ts";
import type { RunningServer, ServerCommand } from "../processes.ts";
import { API, type Scenario, type Step } from "../scenarios.ts";
import { mswRequestsOf, roundsOf, type BenchSection, type Goal } from "../section.ts";
import { MOCK_LISTENING } from "../servers.ts";

const NID = 1001; // a property of the demo account in fixtures/db.json
/** GETs per test of the recorded suite. */
const PER_TEST = 20;
const MSW_BASE = "http://usage.bench.test";
const HEADERS = { "API-KEY": "demo-key", TOKEN: "demo-token", "content-type": "application/json" };
const IN_FLIGHT = 16;
/** Rounds of the MSW figures, each side in turn (one in a `--quick` run: section.ts, roundsOf). */
const MSW_ROUNDS = 6;

export interface UsageFigures {
  servers: ServerFigure[];
  msw: { requestsPerRound: number; rounds: number; offRequestsPerSecond: number; onRequestsPerSecond: number };
}

function mock(name: string, usageFile?: string): ServerCommand {
  return {
    name,
    command: process.execPath,
    args: (port) => [
      fileURLToPath(new URL("../../../dist/cli/mock.js", import.meta.url)),
      "--port",
      String(port),
      "--host",
      "127.0.0.1",
      "--quiet",
      ...(usageFile ? ["--record-usage", usageFile, "--consumer", "bench"] : []),
    ],
    readyPath: "/healthz",
    readyLine: MOCK_LISTENING,
    spawnsServerItself: true,
  };
}

/** Jobs of one test each: the test begun (answered 409 where recording is off), then {@link PER_TEST} GETs. */
function suiteScenario(jobs: number): Scenario {
  const begin: Step = {
    method: "POST",
    path: "/__admin/usage/tests",
    body: JSON.stringify({ name: "bench > GET one property" }),
    headers: { "content-type": "application/json" },
    expect: [200, 409],
  };
  const get: Step = { method: "GET", path: `${API}/property/${NID}`, expect: 200 };
  const job = [begin, ...Array.from({ length: PER_TEST }, () => get)];
  const warmup = Math.min(50, Math.ceil(jobs / 10));
  return {
    name: `a test: begin + ${PER_TEST} × GET property/{nid}`,
    unit: "request",
    credentials: "demo",
    warmup,
    jobs: Array.from({ length: warmup + jobs }, () => job),
    storeProperties: 0,
    validateResponses: false,
  };
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
      if (sent % PER_TEST === 0) handlers.usage?.beginTest("bench > GET one property");
      sent += 1;
      const response = await fetch(`${MSW_BASE}${API}/property/${NID}`, { headers: HEADERS });
      await response.arrayBuffer();
      if (response.status !== 200 && failures.length < 5)
        failures.push(`usage: GET through MSW answered ${response.status}`);
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, lane));
  return performance.now() - started;
}

export const section: BenchSection<UsageFigures> = {
  key: "usage",
  async run({ settings, progress, load, scratch, servers: pool }) {
    const failures: string[] = [];
    const running: RunningServer[] = [];
    let servers: ServerFigure[];
    // Processes on each side (measure-servers.ts), two runs each.
    const processes = groupProcessesOf(settings);
    const rounds = 2 * processes;
    const mswRounds = roundsOf(settings, MSW_ROUNDS);
    try {
      progress("usage: starting the mock with and without --record-usage…");
      const [offGroup, onGroup] = (await pool.startGroups(
        [mock("mock (bin)"), mock("mock --record-usage", join(scratch, "usage.json"))],
        processes,
        running,
      )) as [RunningServer[], RunningServer[]];
      const [off, ...offReplicas] = offGroup;
      const [on, ...onReplicas] = onGroup;
      const jobs = Math.max(1, Math.ceil(settings.requests / rounds / (PER_TEST + 1)));
      const contenders: Contender[] = [
        { server: off!, replicas: offReplicas, scenario: suiteScenario(jobs) },
        { server: on!, replicas: onReplicas, scenario: suiteScenario(jobs) },
      ];
      progress(`usage: ${count(jobs * rounds)} tests of ${PER_TEST + 1} requests to each, interleaved…`);
      servers = await measureInterleaved(load, contenders, rounds, failures, measureOptionsOf(settings));
    } finally {
      for (const server of running) await server.stop();
    }
    const offFigure = servers.find((entry) => entry.server === "mock (bin)")!;
    const onFigure = servers.find((entry) => entry.server === "mock --record-usage")!;

    progress("usage: MSW handlers with and without recording…");
    const plain = createMockHandlers({ baseUrl: MSW_BASE });
    const recording = createMockHandlers({ baseUrl: MSW_BASE, usage: { consumer: "bench" } });
    const server = setupServer();
    server.listen({ onUnhandledRequest: "error" });
    const { perRound, warmUp } = mswRequestsOf(settings);
    const elapsed = { off: 0, on: 0 };
    for (const handlers of [plain, recording]) {
      server.resetHandlers(...handlers.handlers);
      await drive(handlers, warmUp, failures);
    }
    for (let round = 0; round < mswRounds; round++) {
      for (const side of round % 2 === 0 ? (["off", "on"] as const) : (["on", "off"] as const)) {
        const handlers = side === "off" ? plain : recording;
        server.resetHandlers(...handlers.handlers);
        elapsed[side] += await drive(handlers, perRound, failures);
      }
    }
    server.close();
    const offRate = ((perRound * mswRounds) / elapsed.off) * 1000;
    const onRate = ((perRound * mswRounds) / elapsed.on) * 1000;

    const processRatio = onFigure.requestsPerSecond / offFigure.requestsPerSecond;
    const goals: Goal[] = [
      {
        id: "38a",
        name: "GET throughput recording usage / not, the process",
        measured: ratio(processRatio),
        target: "≥ 0.90×",
        pass: processRatio >= 0.9,
      },
      {
        id: "38b",
        name: "GET throughput recording usage / not, MSW (setupServer)",
        measured: ratio(onRate / offRate),
        target: "≥ 0.90×",
        pass: onRate / offRate >= 0.9,
      },
    ];
    const lines = [
      `Recording a consumer's usage: tests of one begin and ${PER_TEST} GETs of one property, recording off and on`,
      "",
      `The mock's bin with and without --record-usage, ${processes} processes each, ${rounds} runs in turn:`,
      "",
      ...table(
        ["server", "throughput", "vs off", "CPU/request", "vs off"],
        [offFigure, onFigure].map((entry) => [
          entry.server,
          `${perSecond(entry.requestsPerSecond)} req/s`,
          ratio(entry.requestsPerSecond / offFigure.requestsPerSecond),
          micros(entry.cpuMicrosPerRequest),
          ratioOf(entry.cpuMicrosPerRequest, offFigure.cpuMicrosPerRequest),
        ]),
        "lrrrr",
      ),
      ...eachProcessLines([offFigure, onFigure]),
      "",
      `MSW's setupServer in this process, ${count(perRound)} GETs per round, ${mswRounds} rounds in turn, ` +
        `${IN_FLIGHT} in flight:`,
      "",
      ...table(
        ["handlers", "throughput", "vs off"],
        [
          ["recording off", perSecond(offRate), ratio(1)],
          ["recording on (usage: { consumer })", perSecond(onRate), ratio(onRate / offRate)],
        ],
        "lrr",
      ),
    ];
    return {
      figures: {
        servers,
        msw: {
          requestsPerRound: perRound,
          rounds: mswRounds,
          offRequestsPerSecond: offRate,
          onRequestsPerSecond: onRate,
        },
      },
      lines,
      goals,
      failures,
    };
  },
};
