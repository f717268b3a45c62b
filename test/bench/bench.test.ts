/**
 * `npm run bench` as a user runs it, once, in its --quick form with even smaller counts (every section's code
 * runs; the counts only set how long: a few hundred properties, tens of requests), printing its tables and
 * writing the same figures as JSON with --json-file. Only the shape of the report is checked: that every section
 * is there with finite, positive figures, that the counts asked for are the counts measured, and that every goal
 * (issues 9 and 11) is reported with a verdict. Speed is the benchmark's output, never a threshold here, since it
 * depends on the machine and on what else runs on it.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DOCKER_AVAILABLE } from "../support/docker.ts";
import { PACKAGE_ROOT } from "../support/start-process.ts";
import type { HttpFigure } from "../../scripts/bench/http-figure.ts";
import type { ServerFigure } from "../../scripts/bench/measure-servers.ts";
import { micros, ratioOf } from "../../scripts/bench/format.ts";
import { verdict } from "../../scripts/bench/section.ts";
import { parseBenchArgs } from "../../scripts/bench/settings.ts";

const RUN_TIMEOUT_MS = 240_000;

interface Finished {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a command in the package root and collects its two streams separately (stdout holds the report). */
function run(command: string, args: string[]): Promise<Finished> {
  const child = spawn(command, args, { cwd: PACKAGE_ROOT, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk) => (stdout += chunk));
  child.stderr.on("data", (chunk) => (stderr += chunk));
  return new Promise((resolve) => child.on("close", (code) => resolve({ code, stdout, stderr })));
}

const tsx = join(PACKAGE_ROOT, "node_modules/.bin/tsx");
const bench = (args: string[]) => run(tsx, ["--expose-gc", "scripts/bench/main.ts", ...args]);

/** A figure that must be a finite number above zero. */
function positive(value: unknown, name: string): void {
  expect(typeof value, name).toBe("number");
  expect(Number.isFinite(value), `${name} is finite`).toBe(true);
  expect(value as number, name).toBeGreaterThan(0);
}

function checkHttpFigure(figure: HttpFigure): void {
  const name = `${(figure as Partial<ServerFigure>).server ?? ""} ${figure.scenario}`;
  for (const key of [
    "jobs",
    "requests",
    "concurrency",
    "wallMs",
    "jobsPerSecond",
    "requestsPerSecond",
    "p50Ms",
    "p95Ms",
    "p99Ms",
    "meanResponseBytes",
  ] as const) {
    positive(figure[key], `${name}: ${key}`);
  }
  expect(figure.p50Ms, `${name}: p50 ≤ p95`).toBeLessThanOrEqual(figure.p95Ms);
  expect(figure.p95Ms, `${name}: p95 ≤ p99`).toBeLessThanOrEqual(figure.p99Ms);
  expect(figure.failures, `${name}: failures`).toBe(0);
}

/**
 * The smallest counts that still measure something in every section: --quick's are 2,000 / 300 / 3,000; and two
 * store sizes for growth, one generated for it and one the run's own store.
 */
const SMALL = { properties: 300, requests: 40, soak: 400 };
const SMALL_ARGS = [
  "--properties",
  String(SMALL.properties),
  "--requests",
  String(SMALL.requests),
  "--soak",
  String(SMALL.soak),
  "--growth-sizes",
  "30,300",
];

/** The container section (7) sets its goals only where a Docker engine answers. */
const GOALS = [
  "1",
  "2a",
  "2b",
  "2c",
  "2d",
  "3a",
  "3b",
  "4a",
  "4b",
  "4c",
  "4d",
  "4e",
  "5",
  "11a",
  "11b",
  "11c",
  "11d",
  "20a",
  "23a",
  "23b",
  "23c",
  "30a",
  "30b",
  "32.1a",
  "32.1b",
  "32.1c",
  "32.2a",
  "32.2b",
  "32.3a",
  "32.3b",
  ...(DOCKER_AVAILABLE ? ["32.4a", "32.4b"] : []),
  "38a",
  "38b",
  "38c",
  "49a",
  "49b",
];

describe("npm run bench", () => {
  // One run through the npm script for the two tests of this block: the tables on stdout, the same figures as JSON
  // in a file (--json-file), so that the peers, Prism among them, start once.
  describe("--quick with small counts and --json-file", () => {
    let finished: Finished;
    /** The JSON file as the bench wrote it, as loosely typed as JSON.parse gives it. */
    let report: any;
    let folder = "";
    afterAll(() => {
      if (folder) rmSync(folder, { recursive: true, force: true });
    });
    beforeAll(async () => {
      folder = mkdtempSync(join(tmpdir(), "plk-bench-"));
      const file = join(folder, "bench.json");
      finished = await run("npm", [
        "run",
        "--silent",
        "bench",
        "--",
        "--quick",
        "--starts",
        "1",
        ...SMALL_ARGS,
        "--json-file",
        file,
      ]);
      if (finished.code === 0) report = JSON.parse(readFileSync(file, "utf8"));
    }, RUN_TIMEOUT_MS);

    it("writes every section as JSON with --json-file: peers side by side, finite figures, each goal's verdict", () => {
      expect(finished.code, finished.stderr).toBe(0);
      expect(report.settings).toMatchObject({
        quick: true,
        properties: SMALL.properties,
        requests: SMALL.requests,
        soakRequests: SMALL.soak,
        starts: 1,
      });
      expect(report.environment.gcForced).toBe(true);
      // Servers' CPU time comes from a clock that sees a quick run's few milliseconds: the scheduler's, to the µs
      expect(report.environment.cpuClock).toEqual({
        name: expect.stringContaining("schedstat"),
        resolutionMs: 0.001,
      });
      expect(report.failures).toEqual([]);

      // Contract validation
      for (const figure of report.contract.compile) positive(figure.medianMs, `compile ${figure.contract}`);
      expect(report.contract.validation).toHaveLength(14);
      for (const figure of report.contract.validation) positive(figure.microsPerCall, `${figure.check}: microsPerCall`);
      expect(report.contract.recording.entries).toBe(SMALL.requests);

      // Peers: the same request to each server started as a process; CPU and memory from its own process
      const servers = report.peers.servers.map((figure: ServerFigure) => figure.server);
      expect(servers).toEqual(["mock (bin)", "mock --validate-responses", "json-server", "Prism", "bare node:http"]);
      for (const figure of report.peers.servers as ServerFigure[]) {
        checkHttpFigure(figure);
        // Measured, even for the bare server of a quick run on a busy machine: never 0 (nor a ratio of Infinity)
        positive(figure.cpuMicrosPerRequest, `${figure.server}: cpuMicrosPerRequest`);
        positive(figure.rssBytes, `${figure.server}: rssBytes`);
      }
      expect(report.peers.startup.map((figure: { server: string }) => figure.server)).toEqual([
        "mock (bin)",
        "npm start",
        "json-server",
      ]);
      for (const figure of report.peers.startup) positive(figure.medianMs, `start-up of ${figure.server}`);

      // Scale, persistence, soak
      const { scale } = report;
      expect(scale.properties).toBe(SMALL.properties);
      for (const key of ["startupMs", "rssAfterStartBytes", "fixturesFileBytes"]) positive(scale[key], `scale: ${key}`);
      for (const key of ["items", "medianMs", "peakRssBytes", "responseBytes"])
        positive(scale.listByUser[key], `list by user: ${key}`);
      expect(scale.http.map((figure: HttpFigure) => figure.scenario)).toEqual([
        "retrieve by nid",
        "retrieve by external id",
        "template catalogue",
        "create property",
        "create+delete agent pair",
      ]);
      for (const figure of scale.http) checkHttpFigure(figure);
      positive(scale.storeSize.throughputRatio, "storeSize: throughputRatio");
      for (const key of ["writeMs", "fileBytes"]) positive(report.persistence[key], `persistence: ${key}`);
      // The write of 300 properties may end before the event-loop monitor's first tick: then the pause is null
      // ("too small to measure"), never a 0 that would read as "no pause"
      if (report.persistence.longestPauseMs !== null)
        positive(report.persistence.longestPauseMs, "persistence: longestPauseMs");
      positive(report.scale.rssSettledBytes, "scale: rssSettledBytes");
      for (const key of ["rssSettledAfterLoadBytes", "defaultStartupMs", "bareCpuRatio"])
        positive(report.scale[key], `scale: ${key}`);
      checkHttpFigure(report.scale.bare);

      // Memory growth with the store's size (issue 32, item 5): each size asked for, bytes per property beyond the
      // first
      const { points } = report.growth;
      expect(points.map((point: { properties: number }) => point.properties)).toEqual([30, 300]);
      for (const point of points) {
        for (const key of [
          "fixturesFileBytes",
          "propertyJsonBytes",
          "startupMs",
          "rssSettledBytes",
          "rssAfterGetsBytes",
        ])
          positive(point[key], `growth ${point.properties}: ${key}`);
      }
      expect(points[0].bytesPerProperty).toBeNull();
      for (const point of points.slice(1))
        expect(Number.isFinite(point.bytesPerProperty), `growth ${point.properties}: bytesPerProperty`).toBe(true);
      expect(report.soak.requests).toBe(SMALL.soak);
      expect(report.soak.rssBytes).toHaveLength(10);
      for (let tenth = 0; tenth < 10; tenth++) {
        const [low, mean, high] = [
          report.soak.rssLowBytes[tenth],
          report.soak.rssMeanBytes[tenth],
          report.soak.rssHighBytes[tenth],
        ];
        positive(low, `soak tenth ${tenth}: lowest`);
        expect(low <= mean && mean <= high, `soak tenth ${tenth}: ${low} <= ${mean} <= ${high}`).toBe(true);
      }
      expect(report.soak.growthPercent).toBe(Math.max(report.soak.meanGrowthPercent, report.soak.peakGrowthPercent));
      expect(Number.isFinite(report.soak.growthPercent)).toBe(true);
      // A new key every other request, all under the account bound: each opened an account, beside the fixtures' own
      expect(report.soak.accounts).toBeGreaterThanOrEqual(SMALL.soak / 2);
      positive(report.scale.readAndParseMs, "scale: readAndParseMs");
      for (const key of ["startupMs", "readAndParseMs", "peakRssBytes", "fileBytes"])
        positive(report.scale.document[key], `scale, one JSON document: ${key}`);
      positive(report.scale.peakOverStartAndListBytes, "scale: peakOverStartAndListBytes");
      // The mock's own start-up work: what the start took beyond node's parse of the same file
      // (on 300 properties and a busy machine, the difference may be under the noise of its two measures: then it
      // is null, and its goal says NOT MEASURED, never a negative figure)
      if (report.scale.ownStartupMs !== null) {
        positive(report.scale.ownStartupMs, "scale: ownStartupMs");
        expect(report.scale.ownStartupMs).toBeLessThan(report.scale.startupMs);
      }

      // Every goal of the issue, once, with what was measured, the bound and a verdict
      positive(report.msw.module.gzipBytes, "msw: module gzipBytes");
      positive(report.msw.kitRequestsPerSecond, "msw: kitRequestsPerSecond");
      positive(report.msw.bareRequestsPerSecond, "msw: bareRequestsPerSecond");
      // Recording a consumer's usage, off and on side by side, through the process and through MSW
      expect(report.usage.servers.map((figure: ServerFigure) => figure.server)).toEqual([
        "mock (bin)",
        "mock --record-usage",
      ]);
      for (const figure of report.usage.servers as ServerFigure[])
        positive(figure.cpuMicrosPerRequest, `usage ${figure.server}: cpuMicrosPerRequest`);
      positive(report.usage.msw.offRequestsPerSecond, "usage: msw offRequestsPerSecond");
      positive(report.usage.msw.onRequestsPerSecond, "usage: msw onRequestsPerSecond");
      // A service's answers served beside recording, and --rerun beside what it is made of
      positive(report.answers.msw.recordingRequestsPerSecond, "answers: msw recordingRequestsPerSecond");
      positive(report.answers.msw.servingRequestsPerSecond, "answers: msw servingRequestsPerSecond");
      for (const key of ["suiteMs", "replayMs", "rerunMs"])
        positive(report.answers.rerun[key], `answers: rerun ${key}`);
      expect(report.answers.rerun.exitCode).toBe(1);
      expect(report.goals.map((goal: { id: string }) => goal.id)).toEqual(GOALS);
      for (const goal of report.goals) {
        if (!goal.unmeasured) expect(goal.measured, goal.id).toMatch(/\d/);
        expect(goal.target, goal.id).toMatch(/^[≤≥] /);
        expect(typeof goal.pass, goal.id).toBe("boolean");
        // Every figure is measured, but the one a small run can leave under the noise (see ownStartupMs above)
        if (goal.id !== "4b" || report.scale.ownStartupMs !== null)
          expect(goal.unmeasured, `${goal.id} measured`).toBeUndefined();
        else expect(goal).toMatchObject({ unmeasured: true, pass: false, measured: "too small to measure" });
      }

      // --db durability (issue 11), the mock as a process with and without its journal
      const { durability } = report;
      for (const side of ["memory", "fsync", "none"]) {
        for (const key of ["requests", "requestsPerSecond", "p50Ms", "p99Ms"])
          positive(durability.creates[side][key], `creates ${side}: ${key}`);
        expect(durability.creates[side].failures, `creates ${side}: failures`).toBe(0);
      }
      for (const key of ["fsyncRatio", "noneRatio"]) positive(durability.creates[key], `creates: ${key}`);
      expect(durability.reads.properties).toBe(SMALL.properties);
      for (const key of ["editsPerSecond", "editsAcknowledged", "throughputRatio"])
        positive(durability.reads[key], `reads: ${key}`);
      for (const key of ["peakRssBytes", "rssAfterEditsBytes", "peakWhileEditingBytes"])
        positive(durability.memory[key], `memory: ${key}`);
      for (const key of [
        "firstStartMs",
        "journalBytes",
        "withJournalMs",
        "snapshotOnlyMs",
        "inMemoryMs",
        "snapshotBytes",
      ])
        positive(durability.startUp[key], `start-up: ${key}`);
      expect(durability.startUp.journalChanges).toBe(200);
      expect(Number.isFinite(durability.compaction.ms) && durability.compaction.ms >= 0).toBe(true);

      // The mock as a container: measured where an engine answers, else said not to be
      const { container } = report;
      if (!DOCKER_AVAILABLE) {
        expect(container).toEqual({ skipped: expect.stringContaining("docker info") });
      } else {
        for (const key of ["imageBytes", "baseImageBytes"]) positive(container[key], `container: ${key}`);
        expect(container.imageBytes).toBeGreaterThan(container.baseImageBytes);
        expect(
          container.limited.map((run: { limitBytes: number; properties: number }) => [
            run.limitBytes / 1024 / 1024,
            run.properties,
          ]),
        ).toEqual([
          [256, 30],
          [512, SMALL.properties],
          [512, SMALL.properties],
        ]);
        for (const run of container.limited) {
          expect(run).toMatchObject({ failures: 0, oomKilled: false, running: true });
          positive(run.requests, "container: requests");
        }
      }
    });

    it("prints the side-by-side table and the goals with PASS or FAIL", () => {
      const { code, stdout, stderr } = finished;
      expect(code, stderr).toBe(0);
      expect(stdout).toMatch(/^Machine: \d+ × .+, node v\d+/m);
      expect(stdout).toMatch(/^ {2}mock \(bin\) +[\d,.]+ ms +[\d,.]+ req\/s +1\.00× +[\d,.]+ µs +[\d.]+× /m);
      expect(stdout).toMatch(/^ {2}bare node:http +[\d,.]+ req\/s +[\d.]+× +[\d,.]+ µs +1\.00× /m);
      for (const id of GOALS) expect(stdout).toMatch(new RegExp(`^ {2}${id} +.+ (PASS|FAIL|NOT MEASURED)$`, "m"));
      expect(stdout.match(/NOT MEASURED$/gm) ?? [], "only 4b may be under its noise in a small run").toHaveLength(
        report.scale.ownStartupMs === null ? 1 : 0,
      );
      expect(stdout).not.toContain("FAILURES");
      expect(stdout).not.toMatch(/Infinity|NaN/);
    });
  });

  it("refuses bad arguments with a message, the usage and exit code 2", async () => {
    const cases: Array<[string[], string]> = [
      [["--properties", "zero"], '--properties must be a positive integer, got "zero"'],
      [["--requests", "0"], '--requests must be a positive integer, got "0"'],
      [["--soak", "-1"], "--soak"],
      [["--bogus"], "--bogus"],
      [["--json-file", ""], "--json-file needs a file name"],
      [["--growth-sizes", "30,many"], '--growth-sizes must be a positive integer, got "many"'],
      [["--growth-sizes", "30"], "--growth-sizes needs at least two sizes"],
    ];
    // As a process once: any argument the parser refuses ends there with its message and the usage on stderr,
    // nothing on stdout, and exit code 2...
    const { code, stdout, stderr } = await bench(["--properties", "zero"]);
    expect(code).toBe(2);
    expect(stderr).toContain('--properties must be a positive integer, got "zero"');
    expect(stderr).toContain("Usage: npm run bench");
    expect(stdout).toBe("");
    // ...and the parser refuses each of these with its message.
    for (const [args, message] of cases) {
      const parsed = parseBenchArgs(args);
      expect(parsed.ok, args.join(" ")).toBe(false);
      expect(parsed.ok ? "" : parsed.message).toContain(message);
    }
  });

  it("prints a figure its clock could not take as such, never as 0, Infinity or a verdict", () => {
    expect(micros(null)).toBe("too small to measure");
    expect(micros(12.34)).toBe("12.3 µs");
    expect(ratioOf(30, null)).toBe("n/a");
    expect(ratioOf(null, 15)).toBe("n/a");
    expect(ratioOf(30, 0)).toBe("n/a");
    expect(ratioOf(30, 15)).toBe("2.00×");
    const goal = { id: "1", name: "CPU", measured: "too small to measure", target: "≤ 3.00×" };
    expect(verdict({ ...goal, pass: false, unmeasured: true })).toBe("NOT MEASURED");
    expect(verdict({ ...goal, pass: true })).toBe("PASS");
    expect(verdict({ ...goal, pass: false }, "**FAIL**")).toBe("**FAIL**");
  });

  it("draws nothing from Math.random: every input is seeded", () => {
    const folder = join(PACKAGE_ROOT, "scripts/bench");
    const files = readdirSync(folder, { recursive: true, encoding: "utf8" }).filter((file) => file.endsWith(".ts"));
    expect(files.length).toBeGreaterThan(5);
    for (const file of files) expect(readFileSync(join(folder, file), "utf8"), file).not.toMatch(/Math\.random\s*\(/);
  });
});
