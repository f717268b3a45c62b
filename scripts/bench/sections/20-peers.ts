/**
 * The mock beside its peers, each started as a process the way users start it, on the same request (retrieve
 * one property) and the same fixtures: the mock's bin (and with --validate-responses), json-server 0.17 serving
 * fixtures/db.json, Prism's static mock of the spec, and a bare node:http server answering the mock's exact
 * bytes. Start-up is timed from spawn to the first answer, `npm start` included. Goals 1, 2a, 2b, 2d, 3.
 */
import { DEFAULT_FIXTURES_PATH } from "../../../src/hosts/node/state/load-fixtures.ts";
import { bytes, count, micros, ms, percent, perSecond, ratio, ratioOf, table, UNMEASURED } from "../format.ts";
import {
  eachProcessLines,
  groupProcessesOf,
  measureInterleaved,
  measureOptionsOf,
  warmUpWords,
  type Contender,
  type ServerFigure,
} from "../measure-servers.ts";
import { startServer, type RunningServer, type ServerCommand } from "../processes.ts";
import { API, repeatedRequest } from "../scenarios.ts";
import type { BenchSection, Goal } from "../section.ts";
import { bareServer, jsonServer, mockBin, npmStart, prism, sampleAnswer } from "../servers.ts";
import { median } from "../stats.ts";

interface StartFigure {
  server: string;
  starts: number;
  medianMs: number;
  allMs: number[];
}

/**
 * One server's row of the side-by-side table (the bench's and the performance page's): its start-up, throughput
 * and the mock's, CPU per request and bare node:http's, latency and memory.
 */
export function peerCells(
  entry: ServerFigure,
  started: number | undefined,
  mock: ServerFigure,
  bare: ServerFigure,
): string[] {
  return [
    entry.server,
    started === undefined ? "" : ms(started),
    `${perSecond(entry.requestsPerSecond)} req/s`,
    ratio(entry.requestsPerSecond / mock.requestsPerSecond),
    micros(entry.cpuMicrosPerRequest),
    ratioOf(entry.cpuMicrosPerRequest, bare.cpuMicrosPerRequest),
    ms(entry.p50Ms),
    ms(entry.p99Ms),
    bytes(entry.rssBytes),
  ];
}

export interface PeersFigures {
  request: string;
  startup: StartFigure[];
  servers: ServerFigure[];
}

const NID = 1001; // a property of the demo account in fixtures/db.json

export const section: BenchSection<PeersFigures> = {
  key: "peers",
  async run({ settings, progress, load, servers: pool }) {
    const failures: string[] = [];
    const fixtures = DEFAULT_FIXTURES_PATH;
    // Processes of the mock, of the mock with --validate-responses and of bare node:http, that the rounds go to in
    // turn: goal 2d compares the first two, whose true difference is small (measure-servers.ts). Bare node:http,
    // the peer of goals 1 and 23c, takes its runs the same way, so that each of its processes waits as long
    // between its runs as the mock's: a Node process that waited some seconds since its last request spends more
    // CPU on the next thousands, bare node:http too, and a single bare process, taking every round, waited less.
    const mockProcesses = groupProcessesOf(settings);
    // Runs of each server, interleaved: more and shorter runs spread a change of the machine's load over every
    // server; two for each process of the mock.
    const rounds = 2 * mockProcesses;

    // Start-up, interleaved: the median of `starts` starts of each program.
    const [mockCommand, jsonCommand] = [mockBin(), jsonServer(fixtures)];
    const startCommands: ServerCommand[] = [mockCommand, npmStart(), jsonCommand];
    if (settings.baseline) startCommands.push(mockBin({ bin: settings.baseline, name: "mock (baseline build)" }));
    const startTimes = startCommands.map(() => [] as number[]);
    // The last start of the mock's bin and of json-server goes to the pool (server-pool.ts): a quick run lends
    // them to the load below rather than start them again; a full run stops them and starts anew the servers it
    // loads, in the order its comparisons need.
    const running: RunningServer[] = [];
    for (let round = 0; round < settings.starts; round++) {
      for (const [index, command] of startCommands.entries()) {
        progress(`peers: start-up ${round + 1}/${settings.starts} of ${command.name}…`);
        const server = await startServer(command);
        startTimes[index]!.push(server.startupMs);
        if (round === settings.starts - 1 && (command === mockCommand || command === jsonCommand))
          await pool.release(command, server);
        else await server.stop();
      }
    }
    const startup = startCommands.map((command, index) => ({
      server: command.name,
      starts: settings.starts,
      medianMs: median(startTimes[index]!),
      allMs: startTimes[index]!,
    }));

    // Throughput, latency, CPU per request and memory, on the same request.
    try {
      progress("peers: starting the servers…");
      const mock = await pool.start(mockBin());
      running.push(mock);
      const path = `${API}/property/${NID}`;
      const answer = await sampleAnswer(mock.url, path);
      const validating = await pool.start(mockBin({ validateResponses: true }));
      running.push(validating);
      const [mockReplicas, validatingReplicas] = (await pool.startGroups(
        [mockBin(), mockBin({ validateResponses: true })],
        mockProcesses - 1,
        running,
      )) as [RunningServer[], RunningServer[]];
      const json = await pool.start(jsonServer(fixtures));
      running.push(json);
      const bares = await pool.startServers(bareServer(answer), mockProcesses, running);
      const bare = bares[0]!;
      const baseline = settings.baseline
        ? await pool.start(mockBin({ bin: settings.baseline, name: "mock (baseline build)" }))
        : undefined;
      if (baseline) running.push(baseline);
      const prismServer = settings.skipPrism ? undefined : await pool.start(prism(), 120_000);
      if (prismServer) running.push(prismServer);

      const jobs = Math.max(1, Math.ceil(settings.requests / rounds));
      const step = { method: "GET" as const, path, expect: 200 };
      const contenders: Contender[] = [
        { server: mock, replicas: mockReplicas, scenario: repeatedRequest("GET property/{nid}", step, jobs) },
        {
          server: validating,
          replicas: validatingReplicas,
          scenario: repeatedRequest("GET property/{nid}", step, jobs, { validateResponses: true }),
        },
        ...(baseline ? [{ server: baseline, scenario: repeatedRequest("GET property/{nid}", step, jobs) }] : []),
        {
          server: json,
          scenario: repeatedRequest(
            "GET /properties/{id}",
            { method: "GET", path: `/properties/${NID}`, expect: 200 },
            jobs,
            { credentials: "none" },
          ),
        },
        ...(prismServer ? [{ server: prismServer, scenario: repeatedRequest("GET property/{nid}", step, jobs) }] : []),
        { server: bare, replicas: bares.slice(1), scenario: repeatedRequest("GET property/{nid}", step, jobs) },
      ];
      progress(`peers: ${count(jobs * rounds)} requests to each of ${contenders.length} servers, interleaved…`);
      const servers = await measureInterleaved(load, contenders, rounds, failures, measureOptionsOf(settings));
      const figure = (name: string) => servers.find((entry) => entry.server === name);
      const startOf = (name: string) => startup.find((entry) => entry.server === name)?.medianMs;

      const mockFigure = figure(mock.name)!;
      const bareFigure = figure(bare.name)!;
      const lines = [
        `GET of one property (${answer.body.length} B) with the demo credentials; each server started as a ` +
          `process, ${count(jobs * rounds)} requests`,
        `each in ${rounds} interleaved runs, after ${warmUpWords(measureOptionsOf(settings))}, on ` +
          `${settings.concurrency} keep-alive connections from a separate load process`,
        `(the mock, the mock with --validate-responses and bare node:http: ${mockProcesses} processes each, ` +
          `taking the runs in turn). CPU is the server`,
        `process's user + system time per request; start-up is spawn to first answer, median of ` +
          `${settings.starts} starts.`,
        "",
        ...table(
          ["server", "start-up", "throughput", "vs mock", "CPU/request", "vs bare", "p50", "p99", "RSS after"],
          servers.map((entry) => peerCells(entry, startOf(entry.server), mockFigure, bareFigure)),
          "lrrrrrrrr",
        ),
        ...eachProcessLines(servers),
        "",
        ...table(
          ["start-up", "median", "vs json-server", "each start"],
          startup.map((entry) => [
            entry.server,
            ms(entry.medianMs),
            ratio(entry.medianMs / startOf("json-server")!),
            `${entry.allMs.map((value) => Math.round(value)).join(", ")} ms`,
          ]),
          "lrrl",
        ),
      ];

      const goals: Goal[] = [];
      const cpuGoals = [
        { id: "1", name: "CPU per answered GET, mock / bare node:http (same bytes)", target: "≤ 3.00×", bound: 3 },
        {
          id: "23c",
          name: "CPU per answered GET, mock / bare node:http (same bytes), request validation on",
          target: "≤ 1.60×",
          bound: 1.6,
        },
      ];
      for (const { bound, ...cpuGoal } of cpuGoals) {
        if (mockFigure.cpuMicrosPerRequest === null || bareFigure.cpuMicrosPerRequest === null) {
          goals.push({ ...cpuGoal, measured: `${UNMEASURED} (send more requests)`, pass: false, unmeasured: true });
        } else {
          const cpuRatio = mockFigure.cpuMicrosPerRequest / bareFigure.cpuMicrosPerRequest;
          goals.push({ ...cpuGoal, measured: ratio(cpuRatio), pass: cpuRatio <= bound });
        }
      }
      const prismFigure = prismServer ? figure(prismServer.name) : undefined;
      if (prismFigure) {
        const value = mockFigure.requestsPerSecond / prismFigure.requestsPerSecond;
        goals.push({
          id: "2a",
          name: "throughput, mock / Prism",
          measured: ratio(value),
          target: "≥ 3.00×",
          pass: value >= 3,
        });
      }
      const jsonFigure = figure(json.name)!;
      const overJson = mockFigure.requestsPerSecond / jsonFigure.requestsPerSecond;
      goals.push({
        id: "2b",
        name: "throughput, mock / json-server",
        measured: ratio(overJson),
        target: "≥ 2.00×",
        pass: overJson >= 2,
      });
      const validatingFigure = figure(validating.name)!;
      const cost = (1 - validatingFigure.requestsPerSecond / mockFigure.requestsPerSecond) * 100;
      goals.push({
        id: "2d",
        name: "throughput cost of --validate-responses",
        measured: percent(cost),
        target: "≤ 10.0 %",
        pass: cost <= 10,
      });
      const jsonStart = startOf("json-server")!;
      for (const [id, name] of [
        ["3a", "mock (bin)"],
        ["3b", "npm start"],
      ] as const) {
        const value = startOf(name)! / jsonStart;
        goals.push({
          id,
          name: `start-up, ${name} / json-server (same fixtures)`,
          measured: ratio(value),
          target: "≤ 1.50×",
          pass: value <= 1.5,
        });
      }
      return {
        figures: { request: `GET ${path}`, startup, servers },
        lines: ["Peers: the mock beside Prism, json-server and bare node:http", "", ...lines],
        goals,
        failures,
      };
    } finally {
      for (const server of running) await server.stop();
    }
  },
};
