import { parseArgs } from "node:util";
import { DEFAULT_SEED } from "../../src/fixtures/default-seed.ts";

/** What one run measures, and how long it spends on each figure. */
export interface BenchSettings {
  /** Properties in the large store (goal 4 is stated at 100,000). */
  properties: number;
  /** Measured requests per HTTP scenario. */
  requests: number;
  /** Requests of the soak (goal 5 is stated at 1,000,000). */
  soakRequests: number;
  /** Starts per program when start-up is measured (the median is reported). */
  starts: number;
  concurrency: number;
  /**
   * The size of the small store the `--db` creates are measured on: a quick run's is no larger than its large
   * store (a smoke run of a few hundred properties started it three times at 1,000).
   */
  smallProperties: number;
  seed: number;
  quick: boolean;
  json: boolean;
  /** Also write the JSON object to this file, whatever is printed (a CI job keeps the figures and shows the tables). */
  jsonFile?: string;
  /** Rewrite the generated part of docs/performance.md from this run's figures. */
  updateDocs: boolean;
  /** Leave Prism out (it takes seconds to start and a core while it runs). */
  skipPrism: boolean;
  /** An older build's `dist/cli/mock.js`, measured beside the current one in the side-by-side table. */
  baseline?: string;
  /** The store sizes of the memory-growth section (issue 32, item 5), in properties. */
  growthSizes: number[];
  /** Only the sections whose key is listed (all when empty). */
  only: string[];
  /** Timed rounds of a validation figure, each `roundMs` long, after `warmupMs` of warm-up. */
  rounds: number;
  roundMs: number;
  warmupMs: number;
  compileRounds: number;
}

const DEFAULTS = {
  growthSizes: [30, 10_000, 100_000, 300_000],
  properties: 100_000,
  requests: 10_000,
  soakRequests: 1_000_000,
  starts: 5,
  rounds: 5,
  roundMs: 100,
  warmupMs: 100,
  compileRounds: 3,
};
const QUICK = {
  growthSizes: [30, 500, 2_000],
  properties: 2_000,
  requests: 300,
  soakRequests: 3_000,
  starts: 2,
  rounds: 1,
  roundMs: 10,
  warmupMs: 10,
  compileRounds: 1,
};
const CONCURRENCY = 16;
const SMALL_STORE = 1_000;

export const USAGE = `Usage: npm run bench -- [--properties N] [--requests N] [--soak N] [--starts N] [--quick] [--json]
                       [--json-file FILE] [--only a,b] [--no-prism] [--baseline path/to/dist/cli/mock.js]
                       [--growth-sizes a,b] [--update-docs]

  --properties N   properties in the large store, a positive integer (default ${DEFAULTS.properties})
  --requests N     measured requests per HTTP scenario, a positive integer (default ${DEFAULTS.requests})
  --soak N         requests of the soak, a positive integer (default ${DEFAULTS.soakRequests})
  --starts N       starts per program for the start-up figures, a positive integer (default ${DEFAULTS.starts})
  --quick          small counts and short rounds, for a smoke test (${QUICK.properties} properties,
                   ${QUICK.requests} requests, a soak of ${QUICK.soakRequests}; one round of each repeated
                   figure, two processes on each side of a comparison)
  --only a,b       run only these sections (contract, usage-replay, peers, log, profile, usage, answers, scale, growth,
                   persistence, soak, durability, container, msw)
  --growth-sizes a,b  store sizes of the memory-growth section, in properties (default
                   ${DEFAULTS.growthSizes.join(",")}; --quick ${QUICK.growthSizes.join(",")})
  --no-prism       leave Prism out of the side-by-side table
  --baseline FILE  also measure an older build of the mock (its dist/cli/mock.js) in the side-by-side table
  --update-docs    rewrite the generated part of docs/performance.md from this run
  --json           print the figures as one JSON object instead of tables
  --json-file FILE also write that JSON object to FILE (the tables are still printed without --json)
  --help           show this text`;

type ArgsResult = { ok: true; settings: BenchSettings; help: boolean } | { ok: false; message: string };

/** Reads the command line; a bad argument is a value carrying the message. */
export function parseBenchArgs(args: readonly string[]): ArgsResult {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: [...args],
      options: {
        properties: { type: "string" },
        requests: { type: "string" },
        soak: { type: "string" },
        starts: { type: "string" },
        only: { type: "string" },
        "growth-sizes": { type: "string" },
        baseline: { type: "string" },
        quick: { type: "boolean" },
        json: { type: "boolean" },
        "json-file": { type: "string" },
        "no-prism": { type: "boolean" },
        "update-docs": { type: "boolean" },
        help: { type: "boolean", short: "h" },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    return { ok: false, message: error instanceof Error ? error.message : String(error) };
  }
  if (values["json-file"] === "") return { ok: false, message: "--json-file needs a file name" };
  const quick = values.quick === true;
  const base = quick ? QUICK : DEFAULTS;
  const numbers: Record<string, number> = {};
  for (const [flag, fallback] of [
    ["properties", base.properties],
    ["requests", base.requests],
    ["soak", base.soakRequests],
    ["starts", base.starts],
  ] as const) {
    const value = positiveInteger(`--${flag}`, values[flag] as string | undefined, fallback);
    if (typeof value === "string") return { ok: false, message: value };
    numbers[flag] = value;
  }
  let growthSizes = base.growthSizes;
  if (typeof values["growth-sizes"] === "string") {
    const sizes = values["growth-sizes"].split(",").map((size) => positiveInteger("--growth-sizes", size.trim(), 0));
    const bad = sizes.find((size) => typeof size === "string");
    if (bad !== undefined) return { ok: false, message: bad };
    if (sizes.length < 2) return { ok: false, message: "--growth-sizes needs at least two sizes" };
    growthSizes = sizes as number[];
  }
  return {
    ok: true,
    help: values.help === true,
    settings: {
      properties: numbers.properties!,
      requests: numbers.requests!,
      soakRequests: numbers.soak!,
      starts: numbers.starts!,
      concurrency: CONCURRENCY,
      smallProperties: quick ? Math.min(SMALL_STORE, numbers.properties!) : SMALL_STORE,
      seed: DEFAULT_SEED,
      quick,
      json: values.json === true,
      ...(typeof values["json-file"] === "string" ? { jsonFile: values["json-file"] } : {}),
      updateDocs: values["update-docs"] === true,
      skipPrism: values["no-prism"] === true,
      ...(typeof values.baseline === "string" ? { baseline: values.baseline } : {}),
      growthSizes,
      only:
        typeof values.only === "string"
          ? values.only
              .split(",")
              .map((name) => name.trim())
              .filter(Boolean)
          : [],
      rounds: base.rounds,
      roundMs: base.roundMs,
      warmupMs: base.warmupMs,
      compileRounds: base.compileRounds,
    },
  };
}

function positiveInteger(flag: string, raw: string | undefined, fallback: number): number | string {
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!/^[0-9]+$/.test(raw) || !Number.isSafeInteger(value) || value < 1) {
    return `${flag} must be a positive integer, got ${JSON.stringify(raw)}`;
  }
  return value;
}
