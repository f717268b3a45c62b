/**
 * `npm run bench` as a user runs it, in its --quick form. Only the shape of the report is checked: that every
 * section is there with finite, positive figures. Speed is the benchmark's output, never a threshold here, since
 * it depends on the machine and on what else runs on it.
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { PACKAGE_ROOT } from "../support/start-process.ts";
import type { HttpFigure } from "../../scripts/bench.ts";

const RUN_TIMEOUT_MS = 180_000;

interface Finished {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a command in the package root and collects its two streams separately (stdout holds the JSON). */
function run(command: string, args: string[]): Promise<Finished> {
  const env = { ...process.env };
  delete env.PLK_BENCH_ROLE;
  const child = spawn(command, args, { cwd: PACKAGE_ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk) => (stdout += chunk));
  child.stderr.on("data", (chunk) => (stderr += chunk));
  return new Promise((resolve) => child.on("close", (code) => resolve({ code, stdout, stderr })));
}

const tsx = join(PACKAGE_ROOT, "node_modules/.bin/tsx");
const bench = (args: string[]) => run(tsx, ["--expose-gc", "scripts/bench.ts", ...args]);

/** A figure that must be a finite number above zero. */
function positive(value: unknown, name: string): void {
  expect(typeof value, name).toBe("number");
  expect(Number.isFinite(value), `${name} is finite`).toBe(true);
  expect(value as number, name).toBeGreaterThan(0);
}

const HTTP_SCENARIOS = [
  "retrieve by nid",
  "retrieve by external id",
  "list by user (account 1)",
  "template catalogue",
  "create property",
  "create+delete agent pair",
];

function checkHttpFigure(figure: HttpFigure): void {
  const name = figure.scenario;
  for (const key of ["storeProperties", "jobs", "requests", "concurrency", "wallMs", "jobsPerSecond", "requestsPerSecond", "p50Ms", "p95Ms", "p99Ms", "meanResponseBytes"] as const) {
    positive(figure[key], `${name}: ${key}`);
  }
  expect(figure.p50Ms, `${name}: p50 ≤ p95`).toBeLessThanOrEqual(figure.p95Ms);
  expect(figure.p95Ms, `${name}: p95 ≤ p99`).toBeLessThanOrEqual(figure.p99Ms);
  expect(figure.failures, `${name}: failures`).toBe(0);
}

describe("npm run bench", () => {
  it(
    "prints every section as JSON with --json: finite, positive figures and no failed request",
    async () => {
      const { code, stdout, stderr } = await bench(["--quick", "--json"]);
      expect(code, stderr).toBe(0);
      const report = JSON.parse(stdout);

      expect(report.settings).toMatchObject({ quick: true, properties: 2_000, smallProperties: 1_000 });
      expect(report.environment.gcForced).toBe(true);
      expect(report.failures).toEqual([]);

      // 1. Contract validation
      expect(report.contract.compile.map((figure: { contract: string }) => figure.contract)).toEqual(["open", "closed"]);
      for (const figure of report.contract.compile) {
        positive(figure.firstMs, `compile ${figure.contract}: firstMs`);
        positive(figure.medianMs, `compile ${figure.contract}: medianMs`);
      }
      const checks = new Set<string>();
      for (const figure of report.contract.validation) {
        const name = `${figure.check} ${figure.contract} ${figure.body}`;
        checks.add(`${figure.operationId} ${figure.body}`);
        positive(figure.opsPerSecond, `${name}: opsPerSecond`);
        positive(figure.microsPerCall, `${name}: microsPerCall`);
        positive(figure.bodyBytes, `${name}: bodyBytes`);
        if (figure.body === "valid") expect(figure.findings, name).toBe(0);
        else expect(figure.findings, name).toBeGreaterThan(0);
      }
      expect([...checks].sort()).toEqual(
        ["createProperty", "retrieveAgentCard", "retrieveProperty", "retrieveTemplateCatalogue"].flatMap((id) => [`${id} invalid`, `${id} valid`]),
      );
      expect(report.contract.validation).toHaveLength(14);
      positive(report.contract.sample.floorplans, "sample property: floorplans");
      positive(report.contract.sample.videos, "sample property: videos");
      expect(report.contract.recording.entries).toBe(300);
      for (const key of ["bytes", "readMs", "checkMs", "exchangesPerSecond"]) positive(report.contract.recording[key], `recording: ${key}`);

      // 2. The mock at scale
      const { scale } = report;
      expect(scale.properties).toBe(2_000);
      for (const key of ["documents", "agents", "generateMs", "buildMs"]) positive(scale[key], `scale: ${key}`);
      for (const key of ["baselineBytes", "withFixturesBytes", "afterStartBytes", "mockOwnBytes", "rssBytes"]) positive(scale.heap[key], `heap: ${key}`);
      expect(scale.http.map((figure: HttpFigure) => figure.scenario)).toEqual(HTTP_SCENARIOS);
      for (const figure of scale.http) {
        checkHttpFigure(figure);
        expect(figure.storeProperties).toBeGreaterThanOrEqual(2_000); // the create scenario adds properties
      }
      expect(scale.http[0].storeProperties).toBe(2_000);
      expect(scale.http.find((figure: HttpFigure) => figure.scenario === "create+delete agent pair").unit).toBe("pair");
      checkHttpFigure(scale.storeSize.large);
      checkHttpFigure(scale.storeSize.small);
      expect(scale.storeSize.small.storeProperties).toBe(1_000);
      positive(scale.storeSize.throughputRatio, "storeSize: throughputRatio");

      // 3. Persistence
      for (const key of ["properties", "writeMs", "longestPauseMs", "fileBytes", "megabytesPerSecond"]) {
        positive(report.persistence[key], `persistence: ${key}`);
      }

      // 4. Response self-validation
      const { selfValidation } = report;
      checkHttpFigure(selfValidation.off);
      checkHttpFigure(selfValidation.on);
      expect(selfValidation.off.validateResponses).toBe(false);
      expect(selfValidation.on.validateResponses).toBe(true);
      // A cost, which noise can make negative on a small run: finite is all that can be asked.
      expect(Number.isFinite(selfValidation.throughputCostPercent)).toBe(true);
      expect(Number.isFinite(selfValidation.addedP50Ms)).toBe(true);

      // 5. --db durability
      const { durability } = report;
      for (const side of ["memory", "fsync", "none"]) {
        for (const key of ["requests", "requestsPerSecond", "p50Ms", "p99Ms"]) positive(durability.creates[side][key], `creates ${side}: ${key}`);
        expect(durability.creates[side].failures, `creates ${side}: failures`).toBe(0);
      }
      for (const key of ["fsyncRatio", "noneRatio"]) positive(durability.creates[key], `creates: ${key}`);
      expect(durability.reads.properties).toBe(2_000);
      for (const key of ["editsPerSecond", "editsAcknowledged", "throughputRatio"]) positive(durability.reads[key], `reads: ${key}`);
      for (const key of ["peakRssBytes", "rssAfterEditsBytes"]) positive(durability.memory[key], `memory: ${key}`);
      for (const key of ["firstStartMs", "journalBytes", "withJournalMs", "snapshotOnlyMs", "inMemoryMs", "snapshotBytes"]) positive(durability.startUp[key], `start-up: ${key}`);
      expect(durability.startUp.journalChanges).toBe(200);
      expect(Number.isFinite(durability.compaction.ms) && durability.compaction.ms >= 0).toBe(true);
    },
    RUN_TIMEOUT_MS,
  );

  it(
    "prints the five sections as tables through the npm script, every figure with its unit, with a forced GC",
    async () => {
      const { code, stdout, stderr } = await run("npm", ["run", "--silent", "bench", "--", "--quick"]);
      expect(code, stderr).toBe(0);
      const headings = ["1. Contract validation", "2. The mock at scale", "3. Persistence", "4. Response self-validation", "5. --db durability"];
      const starts = headings.map((heading) => stdout.indexOf(heading));
      expect(starts.every((start) => start >= 0), stdout).toBe(true);
      expect([...starts].sort((a, b) => a - b)).toEqual(starts);
      const figure = /\d[\d,.]* ?(?:ms|µs|\/s|req\/s|pairs\/s|MB\/s|MiB|KiB|B)\b/;
      headings.forEach((heading, index) => {
        const section = stdout.slice(starts[index], starts[index + 1] ?? stdout.length);
        expect(section, heading).toMatch(figure);
      });
      expect(stdout).toMatch(/a HAR file of 300 exchanges, [\d.]+ KiB, read in [\d.]+ ms and checked in [\d.]+ ms \([\d,.]+ exchanges\/s/);
      expect(stdout).toContain("--expose-gc");
      expect(stdout).toContain("after a forced GC");
      expect(stdout).not.toContain("FAILURES");
    },
    RUN_TIMEOUT_MS,
  );

  it("refuses bad arguments with a message, the usage and exit code 2", async () => {
    const cases: Array<[string[], string]> = [
      [["--properties", "zero"], '--properties must be a positive integer, got "zero"'],
      [["--requests", "0"], '--requests must be a positive integer, got "0"'],
      [["--bogus"], "--bogus"],
    ];
    for (const [args, message] of cases) {
      const { code, stdout, stderr } = await bench(args);
      expect(code, args.join(" ")).toBe(2);
      expect(stderr).toContain(message);
      expect(stderr).toContain("Usage: npm run bench");
      expect(stdout).toBe("");
    }
  }, 60_000);

  it("draws nothing from Math.random: every input is seeded", () => {
    const source = readFileSync(join(PACKAGE_ROOT, "scripts/bench.ts"), "utf8");
    expect(source).not.toMatch(/Math\.random\s*\(/);
  });
});
