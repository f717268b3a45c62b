/**
 * The `--db` figures of `npm run bench` (issue 11): the mock started as a process, the way a user runs it
 * (`node dist/cli/mock.js`), loaded from this process over keep-alive connections on the loopback.
 * Every figure that has a peer is a ratio to it in the same run: `--db` against the same mock in memory, GETs
 * while edits are persisted against GETs with none.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { Agent, request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { FIXTURE_ACCOUNTS } from "../../src/fixtures/generate-fixtures.ts";
import type { Database } from "../../src/mock/store/records.ts";
import { stateLines } from "../../src/mock/store/state-lines.ts";

/** What the section needs from the bench: its generated stores and its counts. */
export interface DurabilitySettings {
  /** The large store (100,000 properties by default): GETs, memory, start-up and compaction are measured on it. */
  large: Database;
  /** The small store the create throughput is measured on. */
  small: Database;
  /** Creates per throughput run. */
  creates: number;
  /** Milliseconds of each GET run. */
  getRunMs: number;
  /**
   * Whether an editor sends its first edit as it starts rather than one period ({@link EDITS_PER_SECOND}) later:
   * a GET run shorter than a few periods (a quick run's) then still has edits persisted during it.
   */
  firstEditAtOnce: boolean;
  /** Unmeasured GETs the large store's first start answers before its GET runs. */
  warmUpGets: number;
  /** Changes in the journal the start-up figure reads back. */
  journalChanges: number;
  concurrency: number;
}

/** Figures of one load run. */
export interface LoadFigure {
  requests: number;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  failures: number;
}

/** The section's figures. */
export interface DurabilityReport {
  creates: { memory: LoadFigure; fsync: LoadFigure; none: LoadFigure; fsyncRatio: number; noneRatio: number };
  reads: {
    properties: number;
    quiet: LoadFigure;
    whileEditing: LoadFigure;
    editsPerSecond: number;
    editsAcknowledged: number;
    throughputRatio: number;
  };
  /**
   * Peak resident memory over the process's life (its first start, which writes the snapshot, the GETs, the
   * edits and the journal of many changes), now after the edits, and its peak before the journal of many changes
   * (the start, the GETs and 20 edits/s: goal 32.3).
   */
  memory: {
    peakRssBytes: number;
    rssAfterEditsBytes: number;
    peakWhileEditingBytes: number;
    /**
     * The same, started from a state that is already there, as one JSON document (`db.json`) and in JSON Lines
     * (`db.jsonl`, converted from it): nothing is written at start; GETs with 20 edits/s persisted (goal 32.3a).
     */
    fromDocumentPeakBytes: number;
    fromLinesPeakBytes: number;
  };
  startUp: {
    firstStartMs: number;
    journalChanges: number;
    journalBytes: number;
    withJournalMs: number;
    snapshotOnlyMs: number;
    /** The same seed without --db: the peer of the start-up figures. */
    inMemoryMs: number;
    snapshotBytes: number;
  };
  compaction: { ms: number };
}

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const API = "/api/v1/object";
const DEMO = FIXTURE_ACCOUNTS[0]!;
const HEADERS = { "API-KEY": DEMO.apiKey, TOKEN: DEMO.token, "content-type": "application/json" };
const EDITS_PER_SECOND = 20;
const MOCK_VARIABLES = ["BASE_URL", "PORT", "HOST", "MOCK_DB", "MOCK_DB_SYNC"];

/** Runs the section; `progress` is told what it is doing. Temporary files are removed at the end. */
export async function measureDurability(
  settings: DurabilitySettings,
  progress: (line: string) => void,
): Promise<DurabilityReport> {
  const dir = mkdtempSync(join(tmpdir(), "plk-bench-db-"));
  const processes: MockProcess[] = [];
  const start = async (name: string, args: string[]) => {
    const mock = await startMock(args);
    processes.push(mock);
    progress(`       ${name}: ready in ${Math.round(mock.readyMs)} ms`);
    return mock;
  };
  try {
    // Create throughput: the same mock, same small seed, in memory and with --db, one after the other.
    progress(
      `     create throughput at ${settings.small.properties.length} properties (memory, --db fsync, --db none)…`,
    );
    const small = join(dir, "small.json");
    writeFileSync(small, JSON.stringify(settings.small));
    const sides = [];
    for (const [side, extra] of [
      ["memory", []],
      ["fsync", ["--db", join(dir, "fsync", "db.json")]],
      ["none", ["--db", join(dir, "none", "db.json"), "--db-sync", "none"]],
    ] as const) {
      const mock = await start(side, ["--fixtures", small, ...extra]);
      await drive(mock.url, {
        concurrency: settings.concurrency,
        total: Math.min(500, settings.creates),
        next: createRequest,
      }); // warm-up
      sides.push({ side, mock, runs: [] as LoadFigure[] });
    }
    // Interleaved (A B C A B C), so a change of background load hits every side alike.
    for (let round = 0; round < 2; round += 1) {
      for (const side of sides)
        side.runs.push(
          await drive(side.mock.url, {
            concurrency: settings.concurrency,
            total: Math.ceil(settings.creates / 2),
            next: createRequest,
          }),
        );
    }
    const createRuns = Object.fromEntries(sides.map((side) => [side.side, merge(side.runs)])) as Record<
      "memory" | "fsync" | "none",
      LoadFigure
    >;
    for (const side of sides) await side.mock.stop();

    // The large store, with --db: reads without and with edits persisted, then a journal of many changes.
    const properties = settings.large.properties.length;
    const nids = settings.large.properties
      .filter((property) => property.uid === DEMO.id)
      .map((property) => property.id);
    // In JSON Lines, as a large state is best given to the mock (docs/large-stores.md).
    const large = join(dir, "large.jsonl");
    writeFileSync(large, [...stateLines(settings.large)].join(""));
    const dbFile = join(dir, "large", "db.json");
    const dbArgs = ["--fixtures", large, "--db", dbFile];

    progress("     first start (writes the snapshot), then GETs without and with 20 edits per second…");
    const first = await start("first start", dbArgs);
    const retrieve = (index: number) => ({
      method: "GET",
      path: `${API}/property/${nids[(index * 7919) % nids.length]}`,
    });
    // Warm-up.
    await drive(first.url, { concurrency: settings.concurrency, total: settings.warmUpGets, next: retrieve });
    const quietRuns: LoadFigure[] = [];
    const editingRuns: LoadFigure[] = [];
    let edits = 0;
    let editsAcknowledged = 0;
    for (let round = 0; round < 2; round += 1) {
      quietRuns.push(
        await drive(first.url, { concurrency: settings.concurrency, durationMs: settings.getRunMs, next: retrieve }),
      );
      const editor = startEditor(
        first.url,
        nids,
        () => (edits += 1),
        () => (editsAcknowledged += 1),
        settings.firstEditAtOnce,
      );
      editingRuns.push(
        await drive(first.url, { concurrency: settings.concurrency, durationMs: settings.getRunMs, next: retrieve }),
      );
      await editor.stop();
    }
    const rssAfterEditsBytes = first.rss().current;
    const peakWhileEditingBytes = first.rss().peak;

    progress(`     ${settings.journalChanges} edits into the journal…`);
    await drive(first.url, {
      concurrency: settings.concurrency,
      total: settings.journalChanges,
      next: (index) => editRequest(nids[index % nids.length]!, index),
    });
    const peakRssBytes = first.rss().peak;
    await first.stop();
    const journalBytes = statSync(`${dbFile}.journal`).size;

    progress("     start-up with the journal, then one compaction…");
    const withJournal = await start("start with journal", [...dbArgs, "--db-compact-after", "1"]);
    const compacted = withJournal.waitForOutput(/Compacted the journal into .* in ([0-9]+) ms/);
    await drive(withJournal.url, { concurrency: 1, total: 1, next: (index) => editRequest(nids[0]!, index) });
    const compactionMs = Number((await compacted)[1]);
    await withJournal.stop();
    const snapshotOnly = await start("start from the snapshot alone", dbArgs);
    await snapshotOnly.stop();

    // From a state already there, in each form: its start, then GETs with edits persisted, and the peak of both.
    progress("     from the state as one JSON document, and in JSON Lines: start, GETs with 20 edits per second…");
    const linesFile = join(dir, "large", "db.jsonl");
    const converted = spawnSync(process.execPath, ["dist/cli/mock.js", "--convert-state", dbFile, linesFile], {
      cwd: ROOT,
      encoding: "utf8",
    });
    if (converted.status !== 0) throw new Error(`--convert-state failed: ${converted.stderr}`);
    const peakFrom = async (name: string, file: string) => {
      const mock = await start(name, ["--fixtures", large, "--db", file]);
      const editor = startEditor(
        mock.url,
        nids,
        () => {},
        () => {},
        settings.firstEditAtOnce,
      );
      await drive(mock.url, { concurrency: settings.concurrency, durationMs: settings.getRunMs, next: retrieve });
      await editor.stop();
      const peak = mock.rss().peak;
      await mock.stop();
      return peak;
    };
    const fromDocumentPeakBytes = await peakFrom("from db.json, GETs and edits", dbFile);
    const fromLinesPeakBytes = await peakFrom("from db.jsonl, GETs and edits", linesFile);
    const inMemory = await start("start in memory from the same seed", ["--fixtures", large]);
    await inMemory.stop();

    const quiet = merge(quietRuns);
    const whileEditing = merge(editingRuns);
    return {
      creates: {
        ...createRuns,
        fsyncRatio: createRuns.fsync.requestsPerSecond / createRuns.memory.requestsPerSecond,
        noneRatio: createRuns.none.requestsPerSecond / createRuns.memory.requestsPerSecond,
      },
      reads: {
        properties,
        quiet,
        whileEditing,
        editsPerSecond: edits / ((settings.getRunMs * editingRuns.length) / 1000),
        editsAcknowledged,
        throughputRatio: whileEditing.requestsPerSecond / quiet.requestsPerSecond,
      },
      memory: { peakRssBytes, rssAfterEditsBytes, peakWhileEditingBytes, fromDocumentPeakBytes, fromLinesPeakBytes },
      startUp: {
        firstStartMs: first.readyMs,
        journalChanges: settings.journalChanges,
        journalBytes,
        withJournalMs: withJournal.readyMs,
        snapshotOnlyMs: snapshotOnly.readyMs,
        inMemoryMs: inMemory.readyMs,
        snapshotBytes: statSync(dbFile).size,
      },
      compaction: { ms: compactionMs },
    };
  } finally {
    for (const mock of processes) mock.kill();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The section as lines of text, for the bench's report. */
export function printDurability(report: DurabilityReport): string[] {
  const { creates, reads, memory, startUp, compaction } = report;
  const row = (name: string, figure: LoadFigure) =>
    `  ${name.padEnd(34)} ${Math.round(figure.requestsPerSecond).toLocaleString("en-US").padStart(8)} req/s  ` +
    ` p50 ${figure.p50Ms.toFixed(1).padStart(6)} ms   p99 ${figure.p99Ms.toFixed(1).padStart(6)} ms` +
    `${figure.failures ? `   ${figure.failures} FAILED` : ""}`;
  const mib = (value: number) => `${(value / 1024 / 1024).toFixed(0)} MiB`;
  const seconds = (value: number) => `${(value / 1000).toFixed(1)} s`;
  return [
    "The mock as a process (node dist/cli/mock.js), loaded over keep-alive connections; with --db every 2xx " +
      "to a write is on disk.",
    row("create, in memory", creates.memory),
    row("create, --db (fsync)", creates.fsync),
    row("create, --db --db-sync none", creates.none),
    `  create throughput --db / in memory: ${creates.fsyncRatio.toFixed(2)}x (goal >= 0.5x); --db-sync none: ` +
      `${creates.noneRatio.toFixed(2)}x`,
    row(`GET at ${reads.properties.toLocaleString("en-US")}, no writes`, reads.quiet),
    row(
      `GET at ${reads.properties.toLocaleString("en-US")}, ${reads.editsPerSecond.toFixed(0)} edits/s persisted`,
      reads.whileEditing,
    ),
    `  GET throughput while editing / without: ${reads.throughputRatio.toFixed(2)}x (goal >= 0.85x); p99 ` +
      `${reads.whileEditing.p99Ms.toFixed(1)} ms (goal <= 20 ms); ${reads.editsAcknowledged} edits acknowledged`,
    `  peak resident memory of the --db mock: ${mib(memory.peakRssBytes)} (goal <= 800 MiB); after the ` +
      `edits: ${mib(memory.rssAfterEditsBytes)}; ` +
      `peak before the journal of ${report.startUp.journalChanges.toLocaleString("en-US")} changes (start, ` +
      `GETs, 20 edits/s): ${mib(memory.peakWhileEditingBytes)}; ` +
      `from the state already there, start, GETs and edits: ${mib(memory.fromDocumentPeakBytes)} (one JSON ` +
      `document), ${mib(memory.fromLinesPeakBytes)} (JSON Lines) (goal <= 480 MiB)`,
    `  start-up at ${reads.properties.toLocaleString("en-US")}: in memory ${seconds(startUp.inMemoryMs)}; ` +
      `--db first start (writes a ${mib(startUp.snapshotBytes)} snapshot) ${seconds(startUp.firstStartMs)};`,
    `    with a journal of ${startUp.journalChanges.toLocaleString("en-US")} changes (` +
      `${mib(startUp.journalBytes)}) ${seconds(startUp.withJournalMs)} (` +
      `${(startUp.withJournalMs / startUp.inMemoryMs).toFixed(2)}x in memory); from the snapshot alone ` +
      `${seconds(startUp.snapshotOnlyMs)}`,
    `  one compaction (journal folded into a new snapshot, in the background): ${seconds(compaction.ms)}`,
  ];
}

// -----------------------------------------------------------------------------------------------------------
// The mock as a process
// -----------------------------------------------------------------------------------------------------------

interface MockProcess {
  url: string;
  /** From spawn until /healthz answered 200. */
  readyMs: number;
  /** Resident memory now and its peak over the process's life (VmRSS, VmHWM). */
  rss(): { current: number; peak: number };
  waitForOutput(pattern: RegExp): Promise<RegExpMatchArray>;
  /** SIGTERM, and wait for the exit. */
  stop(): Promise<void>;
  kill(): void;
}

async function startMock(args: string[]): Promise<MockProcess> {
  const started = performance.now();
  const child: ChildProcess = spawn(process.execPath, ["dist/cli/mock.js", "--port", "0", "--quiet", ...args], {
    cwd: ROOT,
    // Settings the mock reads from the environment come from the arguments here only (a test runner exports
    // BASE_URL=/).
    env: Object.fromEntries(Object.entries(process.env).filter(([name]) => !MOCK_VARIABLES.includes(name))),
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (chunk) => (output += chunk));
  child.stderr!.on("data", (chunk) => (output += chunk));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const waitForOutput = async (pattern: RegExp) => {
    for (;;) {
      const match = output.match(pattern);
      if (match) return match;
      if (child.exitCode !== null) throw new Error(`The mock exited:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
  const [, url] = await waitForOutput(/listening on (http:\/\/127\.0\.0\.1:[0-9]+)/);
  for (;;) {
    const status = await send(url!, { method: "GET", path: "/healthz" }, new Agent()).then(
      (answer) => answer.status,
      () => 0,
    );
    if (status === 200) break;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const readyMs = performance.now() - started;
  return {
    url: url!,
    readyMs,
    rss() {
      const status = readFileSync(`/proc/${child.pid}/status`, "utf8");
      const kib = (name: string) => Number(new RegExp(`${name}:\\s+([0-9]+) kB`).exec(status)?.[1] ?? 0) * 1024;
      return { current: kib("VmRSS"), peak: kib("VmHWM") };
    },
    waitForOutput,
    async stop() {
      child.kill("SIGTERM");
      await exited;
    },
    kill() {
      if (child.exitCode === null) child.kill("SIGKILL");
    },
  };
}

// -----------------------------------------------------------------------------------------------------------
// Load
// -----------------------------------------------------------------------------------------------------------

interface Job {
  method: string;
  path: string;
  body?: string;
}

const createRequest = (index: number): Job => ({
  method: "POST",
  path: `${API}/property`,
  body: JSON.stringify({ street: `${index} Bench St`, city: "Austin", state: "TX", zip: "78701" }),
});

const editRequest = (nid: number, index: number): Job => ({
  method: "PUT",
  path: `${API}/property/${nid}`,
  body: JSON.stringify({ title: `Edited ${index}` }),
});

/**
 * Sends jobs over `concurrency` keep-alive connections, either `total` of them or for `durationMs`, and measures
 * each from send to the end of its answer.
 */
async function drive(
  url: string,
  options: { concurrency: number; total?: number; durationMs?: number; next: (index: number) => Job },
): Promise<LoadFigure> {
  const agent = new Agent({ keepAlive: true, maxSockets: options.concurrency });
  const latencies: number[] = [];
  let failures = 0;
  let issued = 0;
  const started = performance.now();
  const more = () =>
    options.total !== undefined ? issued < options.total : performance.now() - started < options.durationMs!;
  await Promise.all(
    Array.from({ length: options.concurrency }, async () => {
      while (more()) {
        const job = options.next(issued++);
        const sent = performance.now();
        const { status } = await send(url, job, agent).catch(() => ({ status: 0 }));
        latencies.push(performance.now() - sent);
        if (status !== 200) failures += 1;
      }
    }),
  );
  const elapsed = performance.now() - started;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  return {
    requests: latencies.length,
    requestsPerSecond: latencies.length / (elapsed / 1000),
    p50Ms: quantile(latencies, 0.5),
    p99Ms: quantile(latencies, 0.99),
    failures,
  };
}

/** Edits at {@link EDITS_PER_SECOND} on a connection of its own until stopped; the first at once if asked. */
function startEditor(
  url: string,
  nids: readonly number[],
  onSent: () => void,
  onAcknowledged: () => void,
  firstAtOnce: boolean,
): { stop(): Promise<void> } {
  const agent = new Agent({ keepAlive: true });
  const inFlight = new Set<Promise<unknown>>();
  let index = 0;
  const sendEdit = () => {
    onSent();
    const job = editRequest(nids[(index * 104_729) % nids.length]!, index);
    index += 1;
    const sending = send(url, job, agent).then(
      ({ status }) => status === 200 && onAcknowledged(),
      () => {},
    );
    inFlight.add(sending);
    void sending.finally(() => inFlight.delete(sending));
  };
  if (firstAtOnce) sendEdit();
  const timer = setInterval(sendEdit, 1000 / EDITS_PER_SECOND);
  return {
    async stop() {
      clearInterval(timer);
      await Promise.all(inFlight);
      agent.destroy();
    },
  };
}

function send(url: string, job: Job, agent: Agent): Promise<{ status: number }> {
  return new Promise((resolve, reject) => {
    const outgoing = request(`${url}${job.path}`, { method: job.method, agent, headers: HEADERS }, (answer) => {
      answer.resume();
      answer.on("end", () => resolve({ status: answer.statusCode ?? 0 }));
      answer.on("error", reject);
    });
    outgoing.on("error", reject);
    outgoing.end(job.body);
  });
}

function merge(runs: readonly LoadFigure[]): LoadFigure {
  const requests = runs.reduce((sum, run) => sum + run.requests, 0);
  return {
    requests,
    requestsPerSecond: runs.reduce((sum, run) => sum + run.requestsPerSecond, 0) / runs.length,
    p50Ms: Math.max(...runs.map((run) => run.p50Ms)),
    p99Ms: Math.max(...runs.map((run) => run.p99Ms)),
    failures: runs.reduce((sum, run) => sum + run.failures, 0),
  };
}

function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}
