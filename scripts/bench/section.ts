import type { Database } from "../../src/mock/store/records.ts";
import type { LoadClient } from "./load-client.ts";
import type { ServerPool } from "./server-pool.ts";
import type { BenchSettings } from "./settings.ts";

/**
 * One goal of an issue as this run measured it: printed with PASS/FAIL at the end of the report, and listed in
 * the JSON output under `goals`. A goal's figure is a ratio within this run wherever the goal is relative.
 */
export interface Goal {
  /** The goal's number and a letter: `1`, `2a`, `4c`… for issue 9 (speed), `11a`… for issue 11 (durable --db). */
  id: string;
  /** What is compared: `CPU per answered GET, mock / bare node:http`. */
  name: string;
  /** The measured figure, formatted: `2.41×`, `312 MiB`. */
  measured: string;
  /** The bound, formatted: `≤ 3.00×`. */
  target: string;
  pass: boolean;
  /** The figure was too small for its clock to measure (a run with too few requests): NOT MEASURED, never a PASS. */
  unmeasured?: boolean;
}

/**
 * Rounds of a repeated measure in a run with these settings: `full` in a full run, one in a `--quick` one (a look at
 * the bench rather than its figures, where every round runs the same code).
 */
export function roundsOf(settings: { quick: boolean }, full: number): number {
  return settings.quick ? 1 : full;
}

/**
 * GETs per round of a figure taken through MSW in the bench's own process, and the unmeasured GETs sent to each side
 * before the rounds. A full run sends `--requests` a round, at least 200 (fewer are mostly the ramp of the first
 * ones) and at most 5,000, after a warm-up of as many, at most 1,000. A `--quick` one sends `--requests` a round
 * and a tenth as many before: each GET costs this process about a millisecond, and a look at the bench needs no
 * steady state.
 */
export function mswRequestsOf(settings: { quick: boolean; requests: number }): { perRound: number; warmUp: number } {
  if (settings.quick) {
    const perRound = Math.min(settings.requests, 5_000);
    return { perRound, warmUp: Math.ceil(perRound / 10) };
  }
  const perRound = Math.max(200, Math.min(settings.requests, 5_000));
  return { perRound, warmUp: Math.min(perRound, 1_000) };
}

/** PASS, FAIL (or what `fail` says), or NOT MEASURED for a goal whose figure its clock could not take. */
export function verdict(goal: Goal, fail = "FAIL"): string {
  return goal.unmeasured ? "NOT MEASURED" : goal.pass ? "PASS" : fail;
}

/** What a section gives back. */
export interface SectionResult<Figures = unknown> {
  /** Its figures, under the section's key in the JSON output. */
  figures: Figures;
  /** Its part of the printed report (a heading, tables, sentences). */
  lines: string[];
  goals?: Goal[];
  /** Requests answered with an unexpected status, and other signs that the figures cannot be trusted. */
  failures?: string[];
}

/** What every section gets from the entry point. */
export interface BenchContext {
  settings: BenchSettings;
  /** A line on stderr, to show progress. */
  progress(line: string): void;
  /** The load client: a child process sending requests over keep-alive connections. */
  load: LoadClient;
  /** The seeded fixtures of `properties` properties (generated once, on first use, and shared). */
  largeFixtures(): Database;
  /** The same fixtures as a JSON Lines file, for programs started as processes (written once, on first use). */
  largeFixturesFile(): string;
  /**
   * The same fixtures as one JSON document, json-server's `db.json`, as `npm run fixtures` writes it (once, on first
   * use).
   */
  largeFixturesDocumentFile(): string;
  /** A scratch directory, removed at the end of the run. */
  scratch: string;
  /**
   * Where servers started as processes come from: each started afresh in a full run, lent from section to section
   * in a `--quick` one (server-pool.ts).
   */
  servers: ServerPool;
}

/**
 * A part of the benchmark. Each lives in its own file under `scripts/bench/sections/`, exports it as `section`,
 * and runs in the order of the file names; see `scripts/bench/README.md`.
 */
export interface BenchSection<Figures = unknown> {
  /** Its key in the JSON output and in `--only`: `contract`, `peers`… */
  key: string;
  run(context: BenchContext): Promise<SectionResult<Figures>>;
}
