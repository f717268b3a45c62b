/**
 * The request log's cost: the bin as `npm start` runs it, logging a line per request to a pipe (read by the
 * bench, as a terminal or `docker logs` reads it), beside the same bin with `--quiet`, on the peers' request
 * (retrieve one property of the demo account). Goal 23a (issue 23: the logging mock answered 0.72× the
 * throughput of --quiet when every line was its own write).
 */
import { count, micros, perSecond, ratio, table } from "../format.ts";
import {
  eachProcessLines,
  groupProcessesOf,
  measureInterleaved,
  measureOptionsOf,
  warmUpWords,
} from "../measure-servers.ts";
import type { RunningServer } from "../processes.ts";
import { API, repeatedRequest } from "../scenarios.ts";
import type { BenchSection } from "../section.ts";
import { mockBin } from "../servers.ts";
import type { ServerFigure } from "../measure-servers.ts";

export interface RequestLogFigures {
  request: string;
  quiet: ServerFigure;
  logging: ServerFigure;
  /** Throughput of the logging mock over the quiet one. */
  throughputRatio: number;
}

const NID = 1001; // a property of the demo account in fixtures/db.json

export const section: BenchSection<RequestLogFigures> = {
  key: "log",
  async run({ settings, progress, load, servers }) {
    const failures: string[] = [];
    const running: RunningServer[] = [];
    // Processes on each side (measure-servers.ts), two runs each.
    const processes = groupProcessesOf(settings);
    const rounds = 2 * processes;
    try {
      progress(`log: starting the mock with --quiet and logging, ${processes} processes each…`);
      const [quiet, logging] = (await servers.startGroups(
        [mockBin({ name: "mock --quiet" }), mockBin({ name: "mock, request log on", log: true })],
        processes,
        running,
      )) as [RunningServer[], RunningServer[]];
      const jobs = Math.max(1, Math.ceil(settings.requests / rounds));
      const step = { method: "GET" as const, path: `${API}/property/${NID}`, expect: 200 };
      const scenario = repeatedRequest("GET property/{nid}", step, jobs);
      progress(`log: ${count(jobs * rounds)} requests to each side, interleaved…`);
      const [quietFigure, loggingFigure] = await measureInterleaved(
        load,
        [
          { server: quiet[0]!, replicas: quiet.slice(1), scenario },
          { server: logging[0]!, replicas: logging.slice(1), scenario },
        ],
        rounds,
        failures,
        measureOptionsOf(settings),
      );
      const throughputRatio = loggingFigure!.requestsPerSecond / quietFigure!.requestsPerSecond;
      const lines = [
        "The request log: the bin logging a line per request to a pipe, beside the bin with --quiet",
        "",
        `GET ${step.path}, ${count(jobs * rounds)} requests to each side in ${rounds} interleaved runs after ` +
          `${warmUpWords(measureOptionsOf(settings))};`,
        `${processes} processes on each side taking the runs in turn, ${settings.concurrency} keep-alive connections.`,
        "",
        ...table(
          ["server", "throughput", "vs --quiet", "CPU/request", "p50", "p99"],
          [quietFigure!, loggingFigure!].map((figure) => [
            figure.server,
            `${perSecond(figure.requestsPerSecond)} req/s`,
            ratio(figure.requestsPerSecond / quietFigure!.requestsPerSecond),
            micros(figure.cpuMicrosPerRequest),
            `${figure.p50Ms.toFixed(2)} ms`,
            `${figure.p99Ms.toFixed(2)} ms`,
          ]),
          "lrrrrr",
        ),
        ...eachProcessLines([quietFigure!, loggingFigure!]),
      ];
      return {
        figures: { request: `GET ${step.path}`, quiet: quietFigure!, logging: loggingFigure!, throughputRatio },
        lines,
        goals: [
          {
            id: "23a",
            name: "throughput, mock logging each request (npm start) / --quiet",
            measured: ratio(throughputRatio),
            target: "≥ 0.92×",
            pass: throughputRatio >= 0.92,
          },
        ],
        failures,
      };
    } finally {
      for (const server of running) await server.stop();
    }
  },
};
