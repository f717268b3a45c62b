/**
 * The load client: a child process (`load-client-child.ts`) that sends a scenario's requests over keep-alive
 * connections, so the server under test has its event loop to itself, and answers raw figures.
 */
import { fork, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { FIXTURE_ACCOUNTS } from "../../src/fixtures/generate-fixtures.ts";
import type { HttpFigure } from "./http-figure.ts";
import type { Scenario } from "./scenarios.ts";
import { percentile } from "./stats.ts";

export interface RunMessage {
  kind: "run";
  id: number;
  baseUrl: string;
  concurrency: number;
  scenario: Scenario;
  /**
   * The demo account's API-KEY and TOKEN, sent from here: the child imports nothing of the fixtures' generator (and
   * its faker), which only this process needs.
   */
  demoCredentials: { "API-KEY": string; TOKEN: string };
}

const DEMO_CREDENTIALS = { "API-KEY": FIXTURE_ACCOUNTS[0]!.apiKey, TOKEN: FIXTURE_ACCOUNTS[0]!.token };

/** The raw figures of one run of a scenario: its measured jobs' latencies, in the order they were started. */
export interface LoadRun {
  wallMs: number;
  latenciesMs: number[];
  bytes: number;
  failures: number;
  failureSamples: string[];
  concurrency: number;
}

export type ClientReply =
  | ({ kind: "done"; id: number } & Omit<LoadRun, "concurrency">)
  | { kind: "crashed"; id: number; message: string };

export interface LoadClient {
  run(baseUrl: string, scenario: Scenario): Promise<LoadRun>;
  stop(): Promise<void>;
}

export function startLoadClient(concurrency: number): LoadClient {
  const child: ChildProcess = fork(fileURLToPath(new URL("./load-client-child.ts", import.meta.url)), [], {
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const waiting = new Map<number, (reply: ClientReply) => void>();
  child.on("message", (message: unknown) => {
    const reply = message as Partial<ClientReply>;
    if ((reply.kind === "done" || reply.kind === "crashed") && typeof reply.id === "number")
      waiting.get(reply.id)?.(reply as ClientReply);
  });
  child.once("exit", (code) => {
    for (const [id, resolve] of waiting)
      resolve({ kind: "crashed", id, message: `the load client exited with code ${code}` });
  });
  let nextId = 1;

  return {
    async run(baseUrl, scenario) {
      const id = nextId++;
      const connections = scenario.concurrency ?? concurrency;
      const reply = await new Promise<ClientReply>((resolve) => {
        waiting.set(id, resolve);
        const message: RunMessage = {
          kind: "run",
          id,
          baseUrl,
          concurrency: connections,
          scenario,
          demoCredentials: DEMO_CREDENTIALS,
        };
        child.send(message);
      });
      waiting.delete(id);
      if (reply.kind === "crashed") throw new Error(`The load client failed on "${scenario.name}": ${reply.message}`);
      const { kind: _kind, id: _id, ...run } = reply;
      return {
        ...run,
        concurrency: connections,
        failureSamples: run.failureSamples.map((sample) => `${scenario.name}: ${sample}`),
      };
    },
    async stop() {
      if (child.connected) child.disconnect();
      await exited;
    },
  };
}

/** One figure from one or more runs of a scenario: jobs over the summed wall time, percentiles over all jobs. */
export function summarise(scenario: Scenario, runs: readonly LoadRun[]): HttpFigure {
  const sorted = Float64Array.from(runs.flatMap((run) => run.latenciesMs)).sort();
  const jobs = sorted.length;
  const wallMs = runs.reduce((sum, run) => sum + run.wallMs, 0);
  const requests = jobs * (scenario.jobs[0]?.length ?? 1);
  return {
    scenario: scenario.name,
    storeProperties: scenario.storeProperties,
    unit: scenario.unit,
    jobs,
    requests,
    concurrency: runs[0]?.concurrency ?? 0,
    validateResponses: scenario.validateResponses,
    wallMs,
    jobsPerSecond: jobs / (wallMs / 1000),
    requestsPerSecond: requests / (wallMs / 1000),
    p50Ms: percentile(sorted, 50),
    p95Ms: percentile(sorted, 95),
    p99Ms: percentile(sorted, 99),
    meanResponseBytes: runs.reduce((sum, run) => sum + run.bytes, 0) / jobs,
    failures: runs.reduce((sum, run) => sum + run.failures, 0),
    ...(scenario.note ? { note: scenario.note } : {}),
  };
}
