/**
 * Benchmarks of the contract kit: `npm run bench -- [--properties N] [--requests N] [--quick] [--json]`.
 *
 * Speed and memory targets are figures printed here rather than thresholds in unit tests, where timing depends on
 * the machine and on what else runs. Four sections:
 *
 * 1. Contract validation: compiling the contract, then `validateResponse`/`validateRequest` on realistic valid and
 *    invalid bodies (median of timed rounds after a warm-up), to show a response can be checked on every request.
 * 2. The mock at scale: generating and loading N properties, the heap it takes, and throughput and latency over
 *    real HTTP for the main operations; retrieve-by-nid again at 1,000 properties, since the store's Map indexes
 *    should make lookups independent of the store's size.
 * 3. Persistence: writing the whole state with the mock's own file writer, and how long it holds up requests.
 * 4. The cost of `validateResponses: true`. This and the store-size comparison run their sides interleaved
 *    (A B C A B C), so that a change of background load does not favour one side.
 *
 * The heap figures are taken after `global.gc()`, which exists when node runs with --expose-gc: the npm script
 * passes it through tsx (`tsx --expose-gc scripts/bench.ts`). Without it the figures include garbage, and say so.
 *
 * The HTTP load comes from a child process (this file again, with PLK_BENCH_ROLE=load-client), so the mock's
 * event loop has a core to itself, as it has under a test suite that runs in its own process. Every input is
 * seeded (fixtures, nids chosen, bodies): two runs send the same requests. Nothing here draws from Math.random.
 * Bad arguments: a message on stderr and exit code 2. A request answered with an unexpected status: exit code 1.
 */
import { fork, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { Agent, request as httpRequest } from "node:http";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { createContract, type Contract, type RequestExchange, type ResponseExchange } from "../src/contract/create-contract.ts";
import { checkRecording } from "../src/contract/recording/check-recording.ts";
import { readRecording } from "../src/contract/recording/read-recording.ts";
import { DEFAULT_SEED, FIXTURE_ACCOUNTS, generateFixtures } from "../src/fixtures/generate-fixtures.ts";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { createMockServer, type MockServer } from "../src/mock/create-mock-server.ts";
import { TEMPLATE_CATALOGUE } from "../src/mock/services/template-catalogue.ts";
import { writeSnapshot } from "../src/mock/store/state-snapshot.ts";
import { measureDurability, printDurability, type DurabilityReport } from "./bench/durability.ts";
import { projectAgent, projectProperty } from "../src/mock/store/project-records.ts";
import type { Database } from "../src/mock/store/records.ts";

// ---------------------------------------------------------------------------------------------------------------
// Settings and the command line
// ---------------------------------------------------------------------------------------------------------------

/** What one run measures, and how long it spends on each figure. */
interface BenchSettings {
  properties: number;
  requests: number;
  concurrency: number;
  /** The size of the small store that retrieve-by-nid is compared against. */
  smallProperties: number;
  seed: number;
  quick: boolean;
  json: boolean;
  /** Timed rounds of a validation figure, each `roundMs` long, after `warmupMs` of warm-up. */
  rounds: number;
  roundMs: number;
  warmupMs: number;
  compileRounds: number;
}

const DEFAULTS = { properties: 100_000, requests: 10_000, rounds: 5, roundMs: 100, warmupMs: 100, compileRounds: 3 };
const QUICK = { properties: 2_000, requests: 300, rounds: 3, roundMs: 10, warmupMs: 10, compileRounds: 1 };
const CONCURRENCY = 16;
const SMALL_STORE = 1_000;

const USAGE = `Usage: npm run bench -- [--properties N] [--requests N] [--quick] [--json]

  --properties N   properties in the large store, a positive integer (default ${DEFAULTS.properties})
  --requests N     measured requests per HTTP scenario, a positive integer (default ${DEFAULTS.requests})
  --quick          small counts and short rounds, for a smoke test (${QUICK.properties} properties, ${QUICK.requests} requests)
  --json           print the figures as one JSON object instead of tables
  --help           show this text`;

type ArgsResult = { ok: true; settings: BenchSettings; help: boolean } | { ok: false; message: string };

/** Reads the command line; a bad argument is a value carrying the message. */
function parseBenchArgs(args: readonly string[]): ArgsResult {
  let values: { properties?: string; requests?: string; quick?: boolean; json?: boolean; help?: boolean };
  try {
    ({ values } = parseArgs({
      args: [...args],
      options: {
        properties: { type: "string" },
        requests: { type: "string" },
        quick: { type: "boolean" },
        json: { type: "boolean" },
        help: { type: "boolean", short: "h" },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    return { ok: false, message: error instanceof Error ? error.message : String(error) };
  }
  const quick = values.quick ?? false;
  const base = quick ? QUICK : DEFAULTS;
  const properties = positiveInteger("--properties", values.properties, base.properties);
  if (typeof properties === "string") return { ok: false, message: properties };
  const requests = positiveInteger("--requests", values.requests, base.requests);
  if (typeof requests === "string") return { ok: false, message: requests };
  return {
    ok: true,
    help: values.help ?? false,
    settings: {
      properties,
      requests,
      concurrency: CONCURRENCY,
      smallProperties: SMALL_STORE,
      seed: DEFAULT_SEED,
      quick,
      json: values.json ?? false,
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

// ---------------------------------------------------------------------------------------------------------------
// The report
// ---------------------------------------------------------------------------------------------------------------

interface CompileFigure {
  contract: "open" | "closed";
  rounds: number;
  firstMs: number;
  medianMs: number;
}

interface ValidationFigure {
  check: string;
  operationId: string;
  /** Which contract validated: open, closed, or either (request bodies are closed in the spec itself). */
  contract: "open" | "closed" | "either";
  body: "valid" | "invalid";
  /** Violations reported for the body (0 for a valid one). */
  findings: number;
  bodyBytes: number;
  opsPerSecond: number;
  microsPerCall: number;
}

export interface HttpFigure {
  scenario: string;
  /** Properties in the store when the scenario started (the create scenario adds some). */
  storeProperties: number;
  /** What one job is: one request, or a create+delete pair. */
  unit: "request" | "pair";
  jobs: number;
  requests: number;
  concurrency: number;
  validateResponses: boolean;
  wallMs: number;
  jobsPerSecond: number;
  requestsPerSecond: number;
  p50Ms: number;
  p95Ms: number;
  p99Ms: number;
  meanResponseBytes: number;
  failures: number;
  note?: string;
}

interface BenchReport {
  settings: Omit<BenchSettings, "json">;
  environment: {
    node: string;
    cpus: number;
    cpuModel: string;
    execArgv: string[];
    gcForced: boolean;
    /** One-minute load averages: other work on the machine competes with the mock and the load client. */
    loadAverageAtStart: number;
    loadAverageAtEnd: number;
  };
  contract: {
    compile: CompileFigure[];
    validation: ValidationFigure[];
    sample: { nid: string; floorplans: number; virtualTours: number; videos: number; bytes: number };
    /** `npm run contract -- --recording`: reading a HAR file of `entries` exchanges, then checking them (medians). */
    recording: { entries: number; bytes: number; readMs: number; checkMs: number; exchangesPerSecond: number };
  };
  scale: {
    properties: number;
    documents: number;
    agents: number;
    generateMs: number;
    buildMs: number;
    heap: { baselineBytes: number; withFixturesBytes: number; afterStartBytes: number; mockOwnBytes: number; rssBytes: number };
    http: HttpFigure[];
    /** Retrieve by nid in the large and in the small store, interleaved; ratio = small / large throughput. */
    storeSize: { large: HttpFigure; small: HttpFigure; throughputRatio: number };
  };
  persistence: { properties: number; writeMs: number; longestPauseMs: number; fileBytes: number; megabytesPerSecond: number };
  selfValidation: { off: HttpFigure; on: HttpFigure; throughputCostPercent: number; addedP50Ms: number };
  /** `--db` (issue 11): the mock as a process, with and without its journal; see scripts/bench/durability.ts. */
  durability: DurabilityReport;
  failures: string[];
}

// ---------------------------------------------------------------------------------------------------------------
// The run
// ---------------------------------------------------------------------------------------------------------------

const gc = (globalThis as { gc?: () => void }).gc;

async function runBench(settings: BenchSettings, progress: (line: string) => void): Promise<BenchReport> {
  const loadAtStart = loadavg()[0]!;
  progress("1/5 contract validation…");
  const contractSection = measureContract(settings);
  const closed = createContract({ closed: true }); // the mock's own reading; compiled once and shared below
  const failures: string[] = [];

  progress(`2/5 generating ${count(settings.properties)} properties…`);
  const baselineBytes = heapAfterGc();
  let started = performance.now();
  const fixtures = generateFixtures({ seed: settings.seed, properties: settings.properties });
  const generateMs = performance.now() - started;
  const withFixturesBytes = heapAfterGc();

  progress("     building the mock…");
  started = performance.now();
  const large = createMockServer({ fixtures, contract: closed, validateResponses: false });
  const buildMs = performance.now() - started;
  const afterStartBytes = heapAfterGc();
  const rssBytes = process.memoryUsage().rss;
  const mocks: MockServer[] = [large];

  progress("3/5 writing the state to a file…");
  const persistence = await measurePersistence(large);

  const client = startLoadClient(settings.concurrency);
  try {
    const run = async (url: string, scenario: Scenario): Promise<LoadRun> => {
      progress(`       ${scenario.name} at ${count(scenario.storeProperties)} properties (${count(scenario.jobs.length)} jobs)…`);
      const result = await client.run(url, scenario);
      failures.push(...result.failureSamples);
      return result;
    };

    progress("     HTTP scenarios on the large store…");
    const { url } = await large.listen(0, "127.0.0.1");
    const plan = new ScenarioPlan(fixtures, settings);
    await run(url, plan.warmUp()); // not reported: lets both processes' JIT settle before the first figure
    const http: HttpFigure[] = [];
    for (const scenario of [
      plan.retrieveByNid(),
      plan.retrieveByExternalId(),
      plan.listByUser(large.store.propertiesOf(FIXTURE_ACCOUNTS[0]!.id).length),
      plan.templateCatalogue(),
      plan.createProperty(),
      plan.createDeleteAgentPair(),
    ]) {
      scenario.storeProperties = large.store.counts().properties; // the create scenario adds to the store
      http.push(summarise(scenario, [await run(url, scenario)]));
    }

    // Paired comparisons, interleaved (A B C A B C) so that a change of background load hits every side alike.
    // The large store goes back to its seed first, so both of its sides hold the same properties.
    progress(`4/5 retrieve by nid: validateResponses on and off, and at ${count(settings.smallProperties)} properties…`);
    large.reset();
    const validating = createMockServer({ fixtures, contract: closed, validateResponses: true });
    mocks.push(validating);
    const smallFixtures = generateFixtures({ seed: settings.seed, properties: settings.smallProperties });
    const small = createMockServer({ fixtures: smallFixtures, contract: closed, validateResponses: false });
    mocks.push(small);
    const half = Math.max(1, Math.ceil(settings.requests / 2));
    const sides = [
      { mock: large, url, scenario: plan.retrieveByNid(half), runs: [] as LoadRun[] },
      { mock: validating, url: (await validating.listen(0, "127.0.0.1")).url, scenario: { ...plan.retrieveByNid(half), validateResponses: true }, runs: [] as LoadRun[] },
      { mock: small, url: (await small.listen(0, "127.0.0.1")).url, scenario: new ScenarioPlan(smallFixtures, settings).retrieveByNid(half), runs: [] as LoadRun[] },
    ];
    for (const side of sides) side.scenario.storeProperties = side.mock.store.counts().properties;
    for (let round = 0; round < 2; round++) {
      for (const side of sides) side.runs.push(await run(side.url, side.scenario));
    }
    const [off, on, smallStore] = sides.map((side) => summarise(side.scenario, side.runs)) as [HttpFigure, HttpFigure, HttpFigure];
    failures.push(...validating.violations.map((violation) => `${violation.request}: the mock's answer broke the contract`));
    for (const mock of mocks.splice(0)) await mock.close(); // before the processes of section 5 start

    progress("5/5 --db durability (the mock as a process)…");
    const durability = await measureDurability(
      {
        large: fixtures,
        small: smallFixtures,
        creates: settings.quick ? 200 : 4_000,
        getRunMs: settings.quick ? 300 : 4_000,
        journalChanges: settings.quick ? 200 : 10_000,
        concurrency: settings.concurrency,
      },
      progress,
    );
    for (const figure of [durability.creates.memory, durability.creates.fsync, durability.creates.none, durability.reads.quiet, durability.reads.whileEditing]) {
      if (figure.failures > 0) failures.push(`--db section: ${figure.failures} of ${figure.requests} requests failed`);
    }

    return {
      settings: withoutJson(settings),
      environment: {
        node: process.version,
        cpus: cpus().length,
        cpuModel: cpus()[0]?.model.trim() ?? "unknown",
        execArgv: nodeFlags(process.execArgv),
        gcForced: gc !== undefined,
        loadAverageAtStart: loadAtStart,
        loadAverageAtEnd: loadavg()[0]!,
      },
      contract: contractSection,
      scale: {
        properties: fixtures.properties.length,
        documents: fixtures.documents.length,
        agents: fixtures.agents.length,
        generateMs,
        buildMs,
        heap: { baselineBytes, withFixturesBytes, afterStartBytes, mockOwnBytes: afterStartBytes - withFixturesBytes, rssBytes },
        http,
        storeSize: { large: off, small: smallStore, throughputRatio: smallStore.requestsPerSecond / off.requestsPerSecond },
      },
      persistence,
      durability,
      selfValidation: {
        off,
        on,
        throughputCostPercent: ((off.requestsPerSecond - on.requestsPerSecond) / off.requestsPerSecond) * 100,
        addedP50Ms: on.p50Ms - off.p50Ms,
      },
      failures,
    };
  } finally {
    for (const mock of mocks) await mock.close();
    await client.stop();
  }
}

/** The node flags, with tsx's own loader flags (and their long paths) shown as one word. */
function nodeFlags(execArgv: readonly string[]): string[] {
  const flags: string[] = [];
  for (let index = 0; index < execArgv.length; index++) {
    const flag = execArgv[index]!;
    const value = execArgv[index + 1];
    if ((flag === "--require" || flag === "--import") && value?.includes("tsx")) {
      if (!flags.includes("(tsx loader)")) flags.push("(tsx loader)");
      index += 1;
    } else {
      flags.push(flag);
    }
  }
  return flags;
}

function withoutJson(settings: BenchSettings): Omit<BenchSettings, "json"> {
  const { json: _json, ...rest } = settings;
  return rest;
}

/** The heap in use after a full collection, when the process runs with --expose-gc; otherwise it includes garbage. */
function heapAfterGc(): number {
  gc?.();
  gc?.();
  return process.memoryUsage().heapUsed;
}

// ---------------------------------------------------------------------------------------------------------------
// 1. Contract validation
// ---------------------------------------------------------------------------------------------------------------

interface ValidationCase {
  check: string;
  operationId: string;
  contract: "open" | "closed" | "either";
  body: "valid" | "invalid";
  call: () => { valid: boolean; errors: unknown[]; operationId?: string };
  bodyBytes: number;
}

function measureContract(settings: BenchSettings): BenchReport["contract"] {
  const compile: CompileFigure[] = [];
  const contracts: Record<"open" | "closed", Contract | undefined> = { open: undefined, closed: undefined };
  for (const kind of ["open", "closed"] as const) {
    const times: number[] = [];
    for (let round = 0; round < settings.compileRounds; round++) {
      const started = performance.now();
      contracts[kind] = createContract({ closed: kind === "closed" });
      times.push(performance.now() - started);
    }
    compile.push({ contract: kind, rounds: times.length, firstMs: times[0]!, medianMs: median(times) });
  }

  // Realistic bodies: property 0 of the default fixtures has every optional field, floorplans, tours and videos.
  const db = generateFixtures({ seed: settings.seed });
  const record = db.properties[0]!;
  const property = projectProperty(record, db.documents.filter((document) => document.property_reference === record.id));
  const agent = projectAgent(db.agents.find((candidate) => candidate.uid === FIXTURE_ACCOUNTS[0]!.id)!);
  const templates = { templates: [...TEMPLATE_CATALOGUE] };
  const credentials = { "API-KEY": FIXTURE_ACCOUNTS[0]!.apiKey, TOKEN: FIXTURE_ACCOUNTS[0]!.token };

  const badProperty = { ...structuredClone(property), bedrooms: 3, template: "not-a-template" };
  const badTemplates = structuredClone(templates) as { templates: Array<Record<string, unknown>> };
  badTemplates.templates[0]!.access_level = "gold";
  delete badTemplates.templates[1]!.machine_name;
  const badAgent = { ...structuredClone(agent), email: 42, social_media_links: [{ service: "x", url: 7, weight: 0 }] };
  const createBody = createPropertyBody(0);
  const badCreateBody = { street: "12 Elm St", city: "Austin", state: "Texas", bedrooms: "three" };

  const response = (method: string, path: string, body: unknown): ResponseExchange => ({
    method,
    path: `/api/v1/object/${path}`,
    status: 200,
    headers: { "content-type": "application/json" },
    body,
  });
  const createRequest = (body: unknown): RequestExchange => ({
    method: "POST",
    path: "/api/v1/object/property",
    headers: { ...credentials, "content-type": "application/json" },
    body,
  });

  const cases: ValidationCase[] = [];
  const responseTargets = [
    { check: "validateResponse GET property/{nid} 200", operationId: "retrieveProperty", method: "GET", path: `property/${property.nid}`, valid: property, invalid: badProperty },
    { check: "validateResponse GET template_base 200", operationId: "retrieveTemplateCatalogue", method: "GET", path: "template_base", valid: templates, invalid: badTemplates },
    // The service retrieves an agent card with POST (section 4.2).
    { check: "validateResponse POST agent_card/{nid} 200", operationId: "retrieveAgentCard", method: "POST", path: `agent_card/${agent.id}`, valid: agent, invalid: badAgent },
  ];
  for (const target of responseTargets) {
    for (const kind of ["open", "closed"] as const) {
      const contract = contracts[kind]!;
      for (const body of ["valid", "invalid"] as const) {
        const exchange = response(target.method, target.path, body === "valid" ? target.valid : target.invalid);
        cases.push({ check: target.check, operationId: target.operationId, contract: kind, body, call: () => contract.validateResponse(exchange), bodyBytes: jsonBytes(exchange.body) });
      }
    }
  }
  for (const body of ["valid", "invalid"] as const) {
    const exchange = createRequest(body === "valid" ? createBody : badCreateBody);
    const contract = contracts.closed!;
    cases.push({ check: "validateRequest POST property", operationId: "createProperty", contract: "either", body, call: () => contract.validateRequest(exchange), bodyBytes: jsonBytes(exchange.body) });
  }

  const validation = cases.map((entry): ValidationFigure => {
    const result = entry.call();
    if (result.valid !== (entry.body === "valid") || result.operationId !== entry.operationId) {
      throw new Error(`The ${entry.body} body of "${entry.check}" (${entry.contract}) was judged ${result.valid ? "valid" : "invalid"} as ${result.operationId}: a bug of the benchmark.`);
    }
    const opsPerSecond = callsPerSecond(entry.call, settings);
    return {
      check: entry.check,
      operationId: entry.operationId,
      contract: entry.contract,
      body: entry.body,
      findings: result.errors.length,
      bodyBytes: entry.bodyBytes,
      opsPerSecond,
      microsPerCall: 1e6 / opsPerSecond,
    };
  });

  const recording = measureRecording(settings, contracts.open!, contracts.closed!, credentials, responseTargets.map((target) => response(target.method, target.path, target.valid)));

  return {
    compile,
    validation,
    recording,
    sample: {
      nid: property.nid,
      floorplans: Object.keys(property.floorplans ?? {}).length,
      virtualTours: Array.isArray(property.virtual_tours) ? property.virtual_tours.length : Object.keys(property.virtual_tours ?? {}).length,
      videos: Object.keys(property.property_videos ?? {}).length,
      bytes: jsonBytes(property),
    },
  };
}

/**
 * A HAR file of `settings.requests` exchanges (the three valid answers above in turn, as a browser records them),
 * read and checked as `npm run contract -- --recording` does; the median of `compileRounds` runs.
 */
function measureRecording(settings: BenchSettings, open: Contract, closed: Contract, credentials: Record<string, string>, answers: ResponseExchange[]): BenchReport["contract"]["recording"] {
  const header = (name: string, value: string) => ({ name, value });
  const entries = Array.from({ length: settings.requests }, (_, index) => {
    const answer = answers[index % answers.length]!;
    return {
      startedDateTime: new Date(Date.UTC(2026, 0, 1, 0, 0, 0, index)).toISOString(),
      time: 5,
      request: {
        method: answer.method,
        url: `https://service.example${answer.path}`,
        httpVersion: "HTTP/1.1",
        headers: [header("API-KEY", credentials["API-KEY"]!), header("TOKEN", credentials.TOKEN!), header("content-type", "application/json")],
      },
      response: { status: 200, statusText: "OK", httpVersion: "HTTP/1.1", headers: [header("content-type", "application/json")], content: { size: 0, mimeType: "application/json", text: JSON.stringify(answer.body) } },
    };
  });
  const text = JSON.stringify({ log: { version: "1.2", creator: { name: "bench", version: "1" }, entries } });
  const readTimes: number[] = [];
  const checkTimes: number[] = [];
  for (let round = 0; round < settings.compileRounds; round++) {
    let started = performance.now();
    const read = readRecording(text);
    readTimes.push(performance.now() - started);
    if (!read.ok) throw new Error(`The benchmark's HAR file is not a recording (${read.message}): a bug of the benchmark.`);
    started = performance.now();
    const outcome = checkRecording(read.exchanges, { source: "bench.har", contract: open, closedContract: closed });
    checkTimes.push(performance.now() - started);
    if (outcome.kind !== "report" || outcome.report.result !== "passed" || outcome.report.exchanges !== settings.requests) {
      throw new Error("The benchmark's recording did not pass with every exchange checked: a bug of the benchmark.");
    }
  }
  const checkMs = median(checkTimes);
  return { entries: settings.requests, bytes: Buffer.byteLength(text), readMs: median(readTimes), checkMs, exchangesPerSecond: settings.requests / (checkMs / 1000) };
}

/** Median calls per second over timed rounds, after a warm-up that lets the JIT settle. */
function callsPerSecond(call: () => { valid: boolean }, settings: BenchSettings): number {
  let sink = 0;
  const runFor = (ms: number): number => {
    let calls = 0;
    const started = performance.now();
    let now = started;
    do {
      for (let index = 0; index < 8; index++) sink += call().valid ? 1 : 0;
      calls += 8;
      now = performance.now();
    } while (now - started < ms);
    return (calls / (now - started)) * 1000;
  };
  runFor(settings.warmupMs);
  const rates: number[] = [];
  for (let round = 0; round < settings.rounds; round++) rates.push(runFor(settings.roundMs));
  if (sink < 0) throw new Error("unreachable"); // keeps the calls observable
  return median(rates);
}

// ---------------------------------------------------------------------------------------------------------------
// 2. HTTP scenarios
// ---------------------------------------------------------------------------------------------------------------

/** One HTTP request of a job; `{nid}` in the path is the `nid` answered by the job's previous request. */
interface Step {
  method: "GET" | "POST" | "DELETE";
  path: string;
  /** The JSON body, already serialised. */
  body?: string;
  expect: number;
}

/** What the load client runs: `jobs` (the first `warmup` of them unmeasured), each a sequence of steps. */
interface Scenario {
  name: string;
  unit: "request" | "pair";
  /** Every connection sends the demo account's credentials, or its own account's (opened on first use). */
  credentials: "demo" | "per-connection";
  warmup: number;
  jobs: Step[][];
  storeProperties: number;
  validateResponses: boolean;
  /** Connections for this scenario, when it differs from the run's setting. */
  concurrency?: number;
  note?: string;
}

const API = "/api/v1/object";

/** Builds the scenarios' requests from the fixtures, with a seeded generator choosing ids. */
class ScenarioPlan {
  readonly #fixtures: Database;
  readonly #settings: BenchSettings;

  constructor(fixtures: Database, settings: BenchSettings) {
    this.#fixtures = fixtures;
    this.#settings = settings;
  }

  /** Mixed reads to warm up both processes before the first figure; not reported. */
  warmUp(): Scenario {
    const nids = this.#ownProperties().map((property) => property.id);
    const measured = Math.min(2_000, this.#settings.requests);
    return this.#scenario("warm-up", measured, (index, random) => [
      index % 2 === 0
        ? { method: "GET", path: `${API}/property/${pick(nids, random)}`, expect: 200 }
        : { method: "GET", path: `${API}/template_base`, expect: 200 },
    ]);
  }

  retrieveByNid(measured = this.#settings.requests): Scenario {
    const nids = this.#ownProperties().map((property) => property.id);
    return this.#scenario("retrieve by nid", measured, (_, random) => [
      { method: "GET", path: `${API}/property/${pick(nids, random)}`, expect: 200 },
    ]);
  }

  retrieveByExternalId(): Scenario {
    const ids = this.#ownProperties().flatMap((property) => (property.external_id === null ? [] : [property.external_id]));
    return this.#scenario("retrieve by external id", this.#settings.requests, (_, random) => [
      { method: "GET", path: `${API}/external-property/${encodeURIComponent(pick(ids, random))}`, expect: 200 },
    ]);
  }

  /**
   * Account 1's whole list (80 % of the properties) on every request: O(n) by nature, so fewer requests, on two
   * connections, so the latency is the cost of one answer rather than of a queue of them.
   */
  listByUser(items: number): Scenario {
    const jobs = Math.max(5, Math.ceil(this.#settings.requests / 500));
    const scenario = this.#scenario("list by user (account 1)", jobs, () => [{ method: "GET", path: `${API}/properties/1`, expect: 200 }]);
    return { ...scenario, concurrency: 2, note: `${count(items)} items per response` };
  }

  templateCatalogue(): Scenario {
    return this.#scenario("template catalogue", this.#settings.requests, () => [{ method: "GET", path: `${API}/template_base`, expect: 200 }]);
  }

  createProperty(): Scenario {
    return this.#scenario("create property", this.#settings.requests, (index) => [
      { method: "POST", path: `${API}/property`, body: JSON.stringify(createPropertyBody(index)), expect: 200 },
    ]);
  }

  /**
   * Creates an agent and deletes it. Each connection uses an account of its own, opened on first use, so the ten
   * agent seats of an account are never exhausted by concurrent pairs.
   */
  createDeleteAgentPair(): Scenario {
    const pairs = Math.max(1, Math.floor(this.#settings.requests / 2));
    const scenario = this.#scenario("create+delete agent pair", pairs, (index) => [
      {
        method: "POST",
        path: `${API}/agent_card/`,
        body: JSON.stringify({ agent_first_name: "Bench", agent_last_name: `Agent ${index}`, email: `bench.agent.${index}@bench.example`, phone: "(512) 555-0100" }),
        expect: 200,
      },
      { method: "DELETE", path: `${API}/agent_card/{nid}`, expect: 200 },
    ]);
    return { ...scenario, unit: "pair", credentials: "per-connection", note: "one account per connection" };
  }

  #ownProperties() {
    const own = this.#fixtures.properties.filter((property) => property.uid === FIXTURE_ACCOUNTS[0]!.id);
    if (own.length === 0) throw new Error("The fixtures give account 1 no property to retrieve.");
    return own;
  }

  /** `measured` jobs plus a tenth as many (at most 1,000) warm-up jobs before them. */
  #scenario(name: string, measured: number, job: (index: number, random: () => number) => Step[]): Scenario {
    const random = createPrng(this.#settings.seed);
    const warmup = Math.min(1_000, Math.ceil(measured / 10));
    return {
      name,
      unit: "request",
      credentials: "demo",
      warmup,
      jobs: Array.from({ length: warmup + measured }, (_, index) => job(index, random)),
      storeProperties: this.#fixtures.properties.length,
      validateResponses: false,
    };
  }
}

/** A valid create body (endpoint 3), different for each index. */
function createPropertyBody(index: number): Record<string, unknown> {
  return {
    street: `${100 + index} Benchmark Avenue`,
    city: "Austin",
    state: "TX",
    zip: "78701",
    "square feet": 1_850,
    bedrooms: 3,
    baths: 2,
    list_price: 450_000 + index,
    garage: "Attached",
    stories: 2,
    property_type: "Single Family",
    year_built: 1998,
    template: "rubik_v2",
    description: "A bright family home close to the park, with a renovated kitchen and a large garden.",
  };
}

function pick<T>(values: readonly T[], random: () => number): T {
  return values[Math.floor(random() * values.length)]!;
}

/** Mulberry32: a small seeded generator, so the chosen ids are the same on every run. */
function createPrng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

// ---------------------------------------------------------------------------------------------------------------
// 3. Persistence
// ---------------------------------------------------------------------------------------------------------------

async function measurePersistence(mock: MockServer): Promise<BenchReport["persistence"]> {
  const directory = mkdtempSync(join(tmpdir(), "plk-bench-"));
  try {
    const file = join(directory, "db.json");
    // The longest time the event loop could not turn during the write: how long a request could wait behind it.
    const pauses = monitorEventLoopDelay({ resolution: 5 });
    pauses.enable();
    const started = performance.now();
    // A snapshot, as a compaction of the journal writes it (chunked, then synced).
    await writeSnapshot(file, mock.store.state, () => ({ seq: 0, nextId: 0, nextUid: 0, autologin: { secret: "0".repeat(64), issued: 0 } }));
    const writeMs = performance.now() - started;
    pauses.disable();
    const fileBytes = statSync(file).size;
    return { properties: mock.store.counts().properties, writeMs, longestPauseMs: pauses.max / 1e6, fileBytes, megabytesPerSecond: fileBytes / 1e6 / (writeMs / 1000) };
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------------------------------
// The load client: a child process sending the scenarios' requests over keep-alive connections
// ---------------------------------------------------------------------------------------------------------------

interface RunMessage {
  kind: "run";
  id: number;
  baseUrl: string;
  concurrency: number;
  scenario: Scenario;
}

/** The raw figures of one run of a scenario: its measured jobs' latencies, in the order they were started. */
interface LoadRun {
  wallMs: number;
  latenciesMs: number[];
  bytes: number;
  failures: number;
  failureSamples: string[];
  concurrency: number;
}

type ClientReply = ({ kind: "done"; id: number } & Omit<LoadRun, "concurrency">) | { kind: "crashed"; id: number; message: string };

interface LoadClient {
  run(baseUrl: string, scenario: Scenario): Promise<LoadRun>;
  stop(): Promise<void>;
}

function startLoadClient(concurrency: number): LoadClient {
  const child: ChildProcess = fork(fileURLToPath(import.meta.url), [], {
    env: { ...process.env, PLK_BENCH_ROLE: "load-client" },
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const waiting = new Map<number, (reply: ClientReply) => void>();
  child.on("message", (message: unknown) => {
    const reply = message as Partial<ClientReply>;
    if ((reply.kind === "done" || reply.kind === "crashed") && typeof reply.id === "number") waiting.get(reply.id)?.(reply as ClientReply);
  });
  child.once("exit", (code) => {
    for (const [id, resolve] of waiting) resolve({ kind: "crashed", id, message: `the load client exited with code ${code}` });
  });
  let nextId = 1;

  return {
    async run(baseUrl, scenario) {
      const id = nextId++;
      const connections = scenario.concurrency ?? concurrency;
      const reply = await new Promise<ClientReply>((resolve) => {
        waiting.set(id, resolve);
        const message: RunMessage = { kind: "run", id, baseUrl, concurrency: connections, scenario };
        child.send(message);
      });
      waiting.delete(id);
      if (reply.kind === "crashed") throw new Error(`The load client failed on "${scenario.name}": ${reply.message}`);
      const { kind: _kind, id: _id, ...run } = reply;
      return { ...run, concurrency: connections, failureSamples: run.failureSamples.map((sample) => `${scenario.name}: ${sample}`) };
    },
    async stop() {
      if (child.connected) child.disconnect();
      await exited;
    },
  };
}

/** One figure from one or more runs of a scenario: jobs over the summed wall time, percentiles over all jobs. */
function summarise(scenario: Scenario, runs: readonly LoadRun[]): HttpFigure {
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

/** The child's side: runs each scenario it is sent and answers its raw figures. Leaves when the parent disconnects. */
function runLoadClient(): void {
  process.on("message", (message: unknown) => {
    const run = message as Partial<RunMessage>;
    if (run.kind !== "run" || typeof run.id !== "number") return;
    const id = run.id;
    runScenario(run as RunMessage).then(
      (figures) => process.send!({ kind: "done", id, ...figures } satisfies ClientReply),
      (error: unknown) => process.send!({ kind: "crashed", id, message: (error as Error).stack ?? String(error) } satisfies ClientReply),
    );
  });
  process.on("disconnect", () => process.exit(0));
}

async function runScenario(run: RunMessage): Promise<Omit<LoadRun, "concurrency">> {
  const base = new URL(run.baseUrl);
  const agent = new Agent({ keepAlive: true, maxSockets: run.concurrency });
  const { scenario } = run;
  const failureSamples: string[] = [];
  let failures = 0;

  const phase = async (jobs: Step[][]) => {
    const latencies = new Array<number>(jobs.length);
    let bytes = 0;
    let next = 0;
    const connection = async (slot: number) => {
      // The service expects content-type: application/json on every operation, with or without a body.
      const headers: Record<string, string> =
        scenario.credentials === "demo"
          ? { "API-KEY": FIXTURE_ACCOUNTS[0]!.apiKey, TOKEN: FIXTURE_ACCOUNTS[0]!.token, "content-type": "application/json" }
          : { "API-KEY": `bench-connection-${slot}`, TOKEN: `bench-token-${slot}`, "content-type": "application/json" };
      for (let index = next++; index < jobs.length; index = next++) {
        const started = performance.now();
        let nid = "";
        for (const step of jobs[index]!) {
          const path = step.path.replace("{nid}", nid);
          try {
            const answer = await send(agent, base, step.method, path, headers, step.body);
            bytes += answer.body.length;
            if (answer.status !== step.expect) {
              failures += 1;
              if (failureSamples.length < 3) failureSamples.push(`${step.method} ${path} answered ${answer.status}: ${answer.body.toString("utf8", 0, 200)}`);
              break;
            }
            if (step !== jobs[index]!.at(-1)) nid = String((JSON.parse(answer.body.toString("utf8")) as { nid?: unknown }).nid ?? "");
          } catch (error) {
            failures += 1;
            if (failureSamples.length < 3) failureSamples.push(`${step.method} ${path} failed: ${(error as Error).message}`);
            break;
          }
        }
        latencies[index] = performance.now() - started;
      }
    };
    const started = performance.now();
    await Promise.all(Array.from({ length: run.concurrency }, (_, slot) => connection(slot)));
    return { wallMs: performance.now() - started, latencies, bytes };
  };

  await phase(scenario.jobs.slice(0, scenario.warmup));
  const measured = await phase(scenario.jobs.slice(scenario.warmup));
  agent.destroy();
  // Failures of the warm-up count too: any unexpected answer is a bug of the mock or of the benchmark.
  return { wallMs: measured.wallMs, latenciesMs: measured.latencies, bytes: measured.bytes, failures, failureSamples };
}

function send(
  agent: Agent,
  base: URL,
  method: string,
  path: string,
  headers: Record<string, string>,
  body: string | undefined,
): Promise<{ status: number; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : Buffer.from(body);
    const request = httpRequest(
      {
        host: base.hostname,
        port: base.port,
        method,
        path,
        agent,
        headers: payload ? { ...headers, "content-length": String(payload.length) } : headers,
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks) }));
        response.on("error", reject);
      },
    );
    request.on("error", reject);
    request.end(payload);
  });
}

// ---------------------------------------------------------------------------------------------------------------
// Printing
// ---------------------------------------------------------------------------------------------------------------

function printReport(report: BenchReport): string {
  const lines: string[] = [];
  const { settings, environment } = report;
  lines.push(
    `Property Listing Service kit: benchmark${settings.quick ? " (--quick)" : ""}`,
    `node ${environment.node}, ${environment.cpus} × ${environment.cpuModel}; flags: ${environment.execArgv.join(" ") || "none"}`,
    `load average (1 min) ${environment.loadAverageAtStart.toFixed(2)} at start, ${environment.loadAverageAtEnd.toFixed(2)} at the end ` +
      `(other work on the machine competes with the mock and the load client)`,
    `seed ${settings.seed}; ${count(settings.properties)} properties; ${count(settings.requests)} requests per HTTP scenario on ${settings.concurrency} connections`,
    "",
  );

  const { contract } = report;
  lines.push("1. Contract validation (AJV, compiled once)", "");
  lines.push(
    ...table(
      ["compile", "rounds", "first", "median"],
      contract.compile.map((figure) => [
        figure.contract === "open" ? "createContract()" : "createContract({ closed: true })",
        String(figure.rounds),
        ms(figure.firstMs),
        ms(figure.medianMs),
      ]),
      "lrrr",
    ),
    "",
  );
  lines.push(
    `Validation speed: median of ${settings.rounds} rounds of ${settings.roundMs} ms after ${settings.warmupMs} ms of warm-up.`,
    `The property is nid ${contract.sample.nid} of the fixtures: ${contract.sample.floorplans} floorplans, ` +
      `${contract.sample.virtualTours} virtual tours, ${contract.sample.videos} videos, ${bytes(contract.sample.bytes)} of JSON.`,
    "",
  );
  lines.push(
    ...table(
      ["check", "contract", "body", "findings", "body size", "calls/s", "per call"],
      contract.validation.map((figure) => [
        figure.check,
        figure.contract,
        figure.body,
        String(figure.findings),
        bytes(figure.bodyBytes),
        `${perSecond(figure.opsPerSecond)} /s`,
        micros(figure.microsPerCall),
      ]),
      "lllrrrr",
    ),
    "",
  );

  const { recording } = contract;
  lines.push(
    `A recording (npm run contract -- --recording): a HAR file of ${count(recording.entries)} exchanges, ${bytes(recording.bytes)}, ` +
      `read in ${ms(recording.readMs)} and checked in ${ms(recording.checkMs)} (${perSecond(recording.exchangesPerSecond)} exchanges/s, ` +
      "each request and answer, open and closed reading).",
    "",
  );

  const { scale } = report;
  const heapNote = environment.gcForced ? "after a forced GC" : "no --expose-gc: includes uncollected garbage";
  lines.push(`2. The mock at scale (${count(scale.properties)} properties)`, "");
  lines.push(
    ...table(
      ["figure", "value"],
      [
        [`generate fixtures (${count(scale.properties)} properties, ${count(scale.documents)} documents, ${count(scale.agents)} agents)`, ms(scale.generateMs)],
        ["build the mock (createMockServer, contract precompiled)", ms(scale.buildMs)],
        [`heap used before the fixtures (${heapNote})`, bytes(scale.heap.baselineBytes)],
        ["heap used with the fixtures generated", bytes(scale.heap.withFixturesBytes)],
        ["heap used after the mock is built", bytes(scale.heap.afterStartBytes)],
        ["  of which the mock's own (state copy + indexes)", bytes(scale.heap.mockOwnBytes)],
        ["resident set size after the build", bytes(scale.heap.rssBytes)],
      ],
      "lr",
    ),
    "",
  );
  lines.push(
    `HTTP on 127.0.0.1, keep-alive, load from a separate process; latency per job (request or pair), measured after a warm-up.`,
    "",
  );
  lines.push(...httpTable(scale.http), "");
  const { storeSize } = scale;
  lines.push(
    `Retrieve by nid, large vs small store (interleaved runs, ${count(storeSize.large.jobs)} requests each):`,
    "",
    ...httpTable([storeSize.large, storeSize.small]),
    "",
    `At ${count(storeSize.small.storeProperties)} properties the throughput is ${ratio(storeSize.throughputRatio)} that at ` +
      `${count(storeSize.large.storeProperties)} (1.00× = a lookup does not depend on the store's size).`,
    "",
  );

  const { persistence } = report;
  lines.push("3. Persistence (a --db snapshot as a compaction writes it: one record per line, a few hundred records per turn of the event loop, then synced)", "");
  lines.push(
    ...table(
      ["figure", "value"],
      [
        [`write the state (${count(persistence.properties)} properties) to a file`, ms(persistence.writeMs)],
        ["longest event-loop pause during the write (a request waits at most this long)", ms(persistence.longestPauseMs)],
        ["file size", bytes(persistence.fileBytes)],
        ["write rate", `${persistence.megabytesPerSecond.toFixed(1)} MB/s`],
      ],
      "lr",
    ),
    "",
  );

  const { selfValidation } = report;
  lines.push(`4. Response self-validation (retrieve by nid, closed contract; interleaved runs, ${count(selfValidation.off.jobs)} requests each)`, "");
  lines.push(...httpTable([selfValidation.off, selfValidation.on]), "");
  lines.push(
    `validateResponses: true costs ${selfValidation.throughputCostPercent.toFixed(1)} % of the throughput and adds ` +
      `${ms(selfValidation.addedP50Ms)} to the median latency.`,
  );
  lines.push("", "5. --db durability", "", ...printDurability(report.durability));
  if (report.failures.length > 0) lines.push("", "FAILURES (the figures above are not trustworthy):", ...report.failures.map((failure) => `  ${failure}`));
  return lines.join("\n");
}

function httpTable(figures: readonly HttpFigure[]): string[] {
  return table(
    ["scenario", "store", "jobs", "conc.", "throughput", "p50", "p95", "p99", "resp. size", "note"],
    figures.map((figure) => [
      figure.validateResponses ? `${figure.scenario}, validateResponses: true` : figure.scenario,
      `${count(figure.storeProperties)} props`,
      count(figure.jobs),
      String(figure.concurrency),
      `${perSecond(figure.jobsPerSecond)} ${figure.unit === "pair" ? "pairs" : "req"}/s`,
      ms(figure.p50Ms),
      ms(figure.p95Ms),
      ms(figure.p99Ms),
      bytes(figure.meanResponseBytes),
      [figure.note, figure.failures > 0 ? `${figure.failures} FAILED` : undefined].filter(Boolean).join("; "),
    ]),
    "lrrrrrrrrl",
  );
}

/** Columns padded to their widest cell; `align` has one letter per column, l or r. */
function table(header: string[], rows: string[][], align: string): string[] {
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]!.length)));
  const line = (cells: string[]) =>
    "  " + cells.map((cell, column) => (align[column] === "r" ? cell.padStart(widths[column]!) : cell.padEnd(widths[column]!))).join("  ").trimEnd();
  return [line(header), "  " + widths.map((width) => "-".repeat(width)).join("  "), ...rows.map(line)];
}

const grouped = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });

function count(value: number): string {
  return grouped.format(value);
}

/** A rate: whole numbers, with one decimal below 100 so that a slow operation still shows its figure. */
function perSecond(value: number): string {
  return value >= 100 ? grouped.format(value) : value.toFixed(1);
}

function ms(value: number): string {
  const abs = Math.abs(value);
  return `${abs >= 100 ? grouped.format(value) : value.toFixed(abs >= 10 ? 1 : 2)} ms`;
}

function micros(value: number): string {
  return `${value >= 100 ? grouped.format(value) : value.toFixed(1)} µs`;
}

function bytes(value: number): string {
  if (value >= 1024 * 1024) return `${(value / 1024 / 1024).toFixed(1)} MiB`;
  if (value >= 1024) return `${(value / 1024).toFixed(1)} KiB`;
  return `${Math.round(value)} B`;
}

function ratio(value: number): string {
  return `${value.toFixed(2)}×`;
}

function jsonBytes(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value));
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** Nearest-rank percentile of sorted values. */
function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

// ---------------------------------------------------------------------------------------------------------------
// Entry
// ---------------------------------------------------------------------------------------------------------------

async function main(args: readonly string[]): Promise<number> {
  const parsed = parseBenchArgs(args);
  if (!parsed.ok) {
    console.error(`bench: ${parsed.message}\n\n${USAGE}`);
    return 2;
  }
  if (parsed.help) {
    console.log(USAGE);
    return 0;
  }
  const { settings } = parsed;
  const report = await runBench(settings, (line) => process.stderr.write(`${line}\n`));
  console.log(settings.json ? JSON.stringify(report, null, 2) : printReport(report));
  if (report.failures.length > 0) {
    console.error(`bench: ${report.failures.length} request(s) failed; see FAILURES.`);
    return 1;
  }
  return 0;
}

if (process.env.PLK_BENCH_ROLE === "load-client") {
  runLoadClient();
} else {
  process.exitCode = await main(process.argv.slice(2));
}
