/**
 * One run of the bench once its command line is read (`main.ts`): the sections of `sections/` in the order of
 * their names, each given the context they share (the settings, the load client, the fixtures, the server pool),
 * then the report as tables and as the JSON object of `--json`. See `README.md` in this folder.
 */
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { generateFixtures } from "../../src/fixtures/generate-fixtures.ts";
import type { Database } from "../../src/mock/store/records.ts";
import { stateLines } from "../../src/mock/store/state-lines.ts";
import { table } from "./format.ts";
import { startLoadClient } from "./load-client.ts";
import { cpuClock } from "./processes.ts";
import { ServerPool } from "./server-pool.ts";
import { verdict, type BenchContext, type BenchSection, type Goal } from "./section.ts";
import type { BenchSettings } from "./settings.ts";

/** The JSON output: the run's settings and machine, each section's figures under its key, the goals. */
export interface BenchReport {
  settings: Omit<BenchSettings, "json" | "jsonFile">;
  environment: {
    node: string;
    cpus: number;
    cpuModel: string;
    /** One-minute load averages: other work on the machine competes with the servers and the load client. */
    loadAverageAtStart: number;
    loadAverageAtEnd: number;
    gcForced: boolean;
    /** How servers' CPU time is read, and the smallest difference that clock sees, in milliseconds. */
    cpuClock: { name: string; resolutionMs: number };
  };
  goals: Goal[];
  failures: string[];
  [section: string]: unknown;
}

const gc = (globalThis as { gc?: () => void }).gc;

/** The sections, in the order of their file names. */
async function loadSections(): Promise<BenchSection[]> {
  const folder = fileURLToPath(new URL("./sections/", import.meta.url));
  const files = readdirSync(folder)
    .filter((file) => file.endsWith(".ts"))
    .sort();
  const sections: BenchSection[] = [];
  for (const file of files) {
    const module = (await import(new URL(`./sections/${file}`, import.meta.url).href)) as { section?: BenchSection };
    if (!module.section) throw new Error(`scripts/bench/sections/${file} exports no \`section\`.`);
    sections.push(module.section);
  }
  return sections;
}

export async function runBench(
  settings: BenchSettings,
  progress: (line: string) => void,
): Promise<{ report: BenchReport; text: string[] }> {
  const loadAverageAtStart = loadavg()[0]!;
  const sections = (await loadSections()).filter(
    (section) => settings.only.length === 0 || settings.only.includes(section.key),
  );
  const scratch = mkdtempSync(join(tmpdir(), "plk-bench-"));
  let fixtures: Database | undefined;
  let fixturesFile: string | undefined;
  let documentFile: string | undefined;
  const load = startLoadClient(settings.concurrency);
  const servers = new ServerPool(settings.quick);
  const context: BenchContext = {
    settings,
    progress,
    load,
    scratch,
    servers,
    largeFixtures: () => (fixtures ??= generateFixtures({ seed: settings.seed, properties: settings.properties })),
    largeFixturesFile() {
      if (!fixturesFile) {
        // In JSON Lines, as a large state is best given to the mock (docs/large-stores.md).
        fixturesFile = join(scratch, `fixtures-${settings.properties}.jsonl`);
        writeFileSync(fixturesFile, [...stateLines(context.largeFixtures())].join(""));
      }
      return fixturesFile;
    },
    largeFixturesDocumentFile() {
      if (!documentFile) {
        documentFile = join(scratch, `fixtures-${settings.properties}.json`);
        writeFileSync(documentFile, `${JSON.stringify(context.largeFixtures(), null, 2)}\n`);
      }
      return documentFile;
    },
  };
  const report: BenchReport = {
    settings: withoutJson(settings),
    environment: {
      node: process.version,
      cpus: cpus().length,
      cpuModel: cpus()[0]?.model.trim() ?? "unknown",
      loadAverageAtStart,
      loadAverageAtEnd: 0,
      gcForced: gc !== undefined,
      cpuClock: { name: cpuClock.name, resolutionMs: cpuClock.resolutionMs },
    },
    goals: [],
    failures: [],
  };
  const text: string[] = [];
  try {
    for (const section of sections) {
      const result = await section.run(context);
      report[section.key] = result.figures;
      report.goals.push(...(result.goals ?? []));
      report.failures.push(...(result.failures ?? []));
      text.push(...result.lines, "");
    }
  } finally {
    await servers.close();
    await load.stop();
    rmSync(scratch, { recursive: true, force: true });
  }
  report.environment.loadAverageAtEnd = loadavg()[0]!;
  report.goals.sort((a, b) => a.id.localeCompare(b.id, "en", { numeric: true }));
  const { environment } = report;
  const head = [
    `Property Listing Service kit: benchmark${settings.quick ? " (--quick)" : ""}`,
    `Machine: ${environment.cpus} × ${environment.cpuModel}, node ${environment.node}; flags: ` +
      `${process.execArgv.some((flag) => flag === "--expose-gc") ? "--expose-gc" : "none"}`,
    `load average (1 min) ${environment.loadAverageAtStart.toFixed(2)} at start, ` +
      `${environment.loadAverageAtEnd.toFixed(2)} at the end ` +
      "(other work on the machine competes with the servers and the load client: read ratios, not absolute figures)",
    `CPU time of servers: ${environment.cpuClock.name}, to ${environment.cpuClock.resolutionMs} ms`,
    "",
  ];
  const goals =
    report.goals.length === 0
      ? []
      : [
          "Goals of issues 9 (speed), 11 (durable --db), 23 (speed, round 2), 30 (the browser module), 32 " +
            "(memory and start-up at scale), 38 (a consumer's usage recorded and replayed) and 49 (a service's " +
            "answers served, --rerun), measured in this run",
          "",
          ...goalTable(report.goals),
          "",
        ];
  const failures =
    report.failures.length > 0
      ? ["FAILURES (the figures above are not trustworthy):", ...report.failures.map((failure) => `  ${failure}`)]
      : [];
  return { report, text: [...head, ...text, ...goals, ...failures] };
}

/** The goals as a table with PASS/FAIL. */
function goalTable(goals: readonly Goal[]): string[] {
  return table(
    ["goal", "what", "measured", "target", ""],
    goals.map((goal) => [goal.id, goal.name, goal.measured, goal.target, verdict(goal)]),
    "lllll",
  );
}

function withoutJson(settings: BenchSettings): Omit<BenchSettings, "json" | "jsonFile"> {
  const { json: _json, jsonFile: _jsonFile, ...rest } = settings;
  return rest;
}
