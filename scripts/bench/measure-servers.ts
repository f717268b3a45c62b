/**
 * Runs one request against several servers started as processes, interleaved (A B C A B C) so that a change of
 * the machine's background load hits every server alike: throughput and latency from the load client, CPU time
 * per request and resident memory from the server's own process.
 */
import { micros } from "./format.ts";
import type { HttpFigure } from "./http-figure.ts";
import { summarise, type LoadClient, type LoadRun } from "./load-client.ts";
import { cpuClock, type RunningServer } from "./processes.ts";
import type { Scenario } from "./scenarios.ts";
import { median } from "./stats.ts";

/** One server's figures over its runs. */
export interface ServerFigure extends HttpFigure {
  server: string;
  /**
   * CPU time of the server process per request of the measured rounds, in microseconds; `null` when the process
   * used too little CPU for the clock to measure (under {@link MEASURABLE_CPU_MS}): never a 0 that a ratio would
   * turn into Infinity. With replicas, the median of {@link cpuMicrosPerProcess}: one process that V8's memory
   * reducer reached late (see {@link MEMORY_REDUCER_SETTLE_MS}) spends two to four times the CPU of the others
   * for thousands of requests, which the group's mean would carry into the goals, and the median does not.
   */
  cpuMicrosPerRequest: number | null;
  /** Resident set size after the runs, in bytes. */
  rssBytes: number;
  /**
   * With replicas: each process's CPU time per request of its own runs (µs, `null` where too little to measure),
   * the first process first, so that one process far from the others shows beside the group's figure.
   */
  cpuMicrosPerProcess?: Array<number | null>;
}

/** A server and the scenario it is measured with (the same request, in each server's own path). */
export interface Contender {
  server: RunningServer;
  scenario: Scenario;
  /**
   * More processes of the same server, started the same way: the rounds go to each process in turn, and the
   * figures are over all of them (CPU per request: their median). Two processes of the same program measured
   * alike differ by up to ±8 % in throughput here (where their code and memory land), which a ratio between two
   * of them would take for a difference between the programs.
   */
  replicas?: readonly RunningServer[];
}

/** The least CPU time a figure is taken from: 50 of the clock's steps, so that its resolution is under 2 % of it. */
export const MEASURABLE_CPU_MS = 50 * cpuClock.resolutionMs;

/** Requests each process answers, unmeasured, before its figures are taken (fewer in a short run). */
export const WARM_UP_REQUESTS = 5_000;

/**
 * Processes a side of a comparison between two groups of one program (goals 2d, 20a, 23a), started in turn and
 * taking the runs in turn, two runs each: two processes of one program differ by up to ±8 % in throughput here,
 * and a group of three by up to ±15 % at equal CPU per request (2d read -14 % to +21 % over a day's runs with
 * three each, at 0.85-1.07× the CPU per request); five narrow it, they do not remove it.
 */
export const GROUP_PROCESSES = 5;

/**
 * Processes a side of such a comparison takes in a run with these settings: two in a `--quick` one, a look at the
 * bench rather than its figures, still several processes taking the runs in turn; {@link GROUP_PROCESSES} else.
 */
export function groupProcessesOf(settings: { quick: boolean }): number {
  return settings.quick ? 2 : GROUP_PROCESSES;
}

/**
 * How long every process is left without requests between its two warm-ups (a full run; a `--quick` one does not
 * wait). A Node process whose heap a full collection has grown is collected again by V8's memory reducer once it
 * finds the process idle (its timer runs 8 s): that collection shrinks the heap and discards optimized code of
 * Node's HTTP and stream path, and the next thousands of requests pay while it is optimized again. Between the
 * rounds, where each process waits for the others' runs, it came at any moment, to some processes and not others,
 * which then read far above the rest (docs/performance.md). Bare node:http allocates too little for a full
 * collection at this load, so it is never collected so. Leaving every process idle long enough for the reducer to
 * have run, then warming it up again, measures most processes in the steady state the goals are about: the reducer
 * does not run again until a full collection has grown the heap well beyond what it left. One it reaches late can
 * stay slow for thousands of requests, which a group's median leaves out (ServerFigure's cpuMicrosPerRequest).
 */
export const MEMORY_REDUCER_SETTLE_MS = 20_000;

/** The settle of a run with these settings: none for a `--quick` one, a look at the bench rather than its figures. */
export function settleMsOf(settings: { quick: boolean }): number {
  return settings.quick ? 0 : MEMORY_REDUCER_SETTLE_MS;
}

/** How the processes were warmed up, for a section's lines. */
export function warmUpWords({ settleMs, warmUpRuns }: Required<MeasureOptions>): string {
  const each =
    warmUpRuns === 1
      ? "one unmeasured run of the scenario on each process"
      : `${WARM_UP_REQUESTS.toLocaleString("en-US")} unmeasured requests to each process`;
  return settleMs > 0
    ? `two warm-ups of ${each}, ${Math.round(settleMs / 1000)} s apart (V8's memory reducer runs between them, ` +
        `measure-servers.ts)`
    : each;
}

export interface MeasureOptions {
  /** Milliseconds every process is left idle between its two warm-ups; 0: one warm-up and no wait. */
  settleMs: number;
  /**
   * Runs of its scenario each process is sent in a warm-up, at most {@link WARM_UP_REQUESTS} jobs in all
   * ({@link WARM_UP_RUNS} unless given).
   */
  warmUpRuns?: number;
}

/** Runs of the scenario in a warm-up of a process: a short run's scenario is short, and ten of it warm it some. */
export const WARM_UP_RUNS = 10;

/**
 * How a run with these settings measures servers: a `--quick` one, a look at the bench rather than its figures,
 * neither settles nor warms up more than one run of each scenario (ten were five times what it measures).
 */
export function measureOptionsOf(settings: { quick: boolean }): Required<MeasureOptions> {
  return { settleMs: settleMsOf(settings), warmUpRuns: settings.quick ? 1 : WARM_UP_RUNS };
}

export async function measureInterleaved(
  load: LoadClient,
  contenders: readonly Contender[],
  rounds: number,
  failures: string[],
  options: MeasureOptions,
): Promise<ServerFigure[]> {
  const processes = (contender: Contender) => [contender.server, ...(contender.replicas ?? [])];
  // Unmeasured runs of each process first, at least WARM_UP_REQUESTS: a server just started spends its first
  // thousands of requests compiling its hot code (twice the CPU per request here), more so the one with more
  // code on its path (the response checks of --validate-responses), which the steady state the goals are about
  // does not pay.
  const warmUp = async () => {
    for (const contender of contenders) {
      for (const server of processes(contender)) {
        const runs = options.warmUpRuns ?? WARM_UP_RUNS;
        const target = Math.min(WARM_UP_REQUESTS, runs * contender.scenario.jobs.length); // a short run warms less
        for (let sent = 0; sent < target; sent += contender.scenario.jobs.length) {
          const run = await load.run(server.url, contender.scenario);
          failures.push(...run.failureSamples.map((sample) => `${server.name}: ${sample}`));
        }
      }
    }
  };
  await warmUp();
  if (options.settleMs > 0) {
    await new Promise((resolve) => setTimeout(resolve, options.settleMs));
    await warmUp();
  }
  const runs = contenders.map(() => [] as LoadRun[]);
  const cpuOf = contenders.map((contender) => processes(contender).map(() => 0));
  const sentTo = contenders.map((contender) => processes(contender).map(() => 0));
  for (let round = 0; round < rounds; round++) {
    for (const [index, contender] of contenders.entries()) {
      const all = processes(contender);
      const which = round % all.length;
      const server = all[which]!;
      const before = server.cpuMs();
      const run = await load.run(server.url, contender.scenario);
      const spent = server.cpuMs() - before;
      const requests = contender.scenario.jobs.length * (contender.scenario.jobs[0]?.length ?? 1);
      cpuOf[index]![which]! += spent;
      sentTo[index]![which]! += requests;
      runs[index]!.push(run);
      failures.push(...run.failureSamples.map((sample) => `${server.name}: ${sample}`));
    }
  }
  return contenders.map((contender, index) => {
    const spentBy = cpuOf[index]!;
    const perProcess = spentBy.map((spent, which) =>
      spent >= MEASURABLE_CPU_MS / spentBy.length ? (spent * 1000) / sentTo[index]![which]! : null,
    );
    const measured = perProcess.filter((figure): figure is number => figure !== null);
    return {
      ...summarise(contender.scenario, runs[index]!),
      server: contender.server.name,
      // A median only where most processes spent enough CPU to measure: else too little for any figure.
      cpuMicrosPerRequest: measured.length > perProcess.length / 2 ? median(measured) : null,
      rssBytes: contender.server.rssBytes(),
      ...(perProcess.length > 1 ? { cpuMicrosPerProcess: perProcess } : {}),
    };
  });
}

/**
 * A line per group of processes with each one's CPU per request, in the order they were started: one far from
 * the others shows beside the group's figure, their median.
 */
export function eachProcessLines(servers: readonly ServerFigure[]): string[] {
  return servers.flatMap((entry) =>
    entry.cpuMicrosPerProcess
      ? [
          `CPU/request of each process of ${entry.server} (its figure is their median): ` +
            `${entry.cpuMicrosPerProcess.map(micros).join(", ")}`,
        ]
      : [],
  );
}
