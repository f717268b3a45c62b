/**
 * Runs one request against several servers started as processes, interleaved (A B C A B C) so that a change of
 * the machine's background load hits every server alike: throughput and latency from the load client, CPU time
 * per request and resident memory from the server's own process.
 */
import type { HttpFigure } from "./http-figure.ts";
import { summarise, type LoadClient, type LoadRun } from "./load-client.ts";
import type { RunningServer } from "./processes.ts";
import type { Scenario } from "./scenarios.ts";

/** One server's figures over its runs. */
export interface ServerFigure extends HttpFigure {
  server: string;
  /** User + system CPU time of the server process per request of the measured rounds (their warm-up requests included), in microseconds. */
  cpuMicrosPerRequest: number;
  /** Resident set size after the runs, in bytes. */
  rssBytes: number;
}

/** A server and the scenario it is measured with (the same request, in each server's own path). */
export interface Contender {
  server: RunningServer;
  scenario: Scenario;
}

export async function measureInterleaved(load: LoadClient, contenders: readonly Contender[], rounds: number, failures: string[]): Promise<ServerFigure[]> {
  // One unmeasured run of each first: a server just started spends its first thousands of requests compiling
  // its hot code (twice the CPU per request here), more so the one with more code on its path (the response
  // checks of --validate-responses), which the steady state the goals are about does not pay.
  for (const { server, scenario } of contenders) {
    const run = await load.run(server.url, scenario);
    failures.push(...run.failureSamples.map((sample) => `${server.name}: ${sample}`));
  }
  const runs = contenders.map(() => [] as LoadRun[]);
  const cpu = contenders.map(() => 0);
  const sent = contenders.map(() => 0);
  for (let round = 0; round < rounds; round++) {
    for (const [index, { server, scenario }] of contenders.entries()) {
      const before = server.cpuMs();
      const run = await load.run(server.url, scenario);
      cpu[index]! += server.cpuMs() - before;
      sent[index]! += scenario.jobs.length * (scenario.jobs[0]?.length ?? 1);
      runs[index]!.push(run);
      failures.push(...run.failureSamples.map((sample) => `${server.name}: ${sample}`));
    }
  }
  return contenders.map(({ server, scenario }, index) => ({
    ...summarise(scenario, runs[index]!),
    server: server.name,
    cpuMicrosPerRequest: (cpu[index]! * 1000) / sent[index]!,
    rssBytes: server.rssBytes(),
  }));
}
