/**
 * 1. Contract validation: building the contract (from the generated validators), then `validateResponse` and
 * `validateRequest` on realistic valid and invalid bodies (median of timed rounds after a warm-up), to show a
 * response can be checked on every request; and a HAR recording read and checked as `npm run contract --
 * --recording` does.
 */
import {
  createContract,
  type Contract,
  type RequestExchange,
  type ResponseExchange,
} from "../../../src/contract/create-contract.ts";
import { checkRecording } from "../../../src/contract/recording/check-recording.ts";
import { readRecording } from "../../../src/contract/recording/read-recording.ts";
import { FIXTURE_ACCOUNTS, generateFixtures } from "../../../src/fixtures/generate-fixtures.ts";
import { TEMPLATE_CATALOGUE } from "../../../src/mock/services/template-catalogue.ts";
import { projectAgent, projectProperty } from "../../../src/mock/store/project-records.ts";
import { bytes, count, jsonBytes, micros, ms, perSecond, table } from "../format.ts";
import { createPropertyBody } from "../scenarios.ts";
import type { BenchSection } from "../section.ts";
import type { BenchSettings } from "../settings.ts";
import { median } from "../stats.ts";

export interface CompileFigure {
  contract: "open" | "closed";
  rounds: number;
  firstMs: number;
  medianMs: number;
}

export interface ValidationFigure {
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

/** The figures of this section. */
export interface ContractFigures {
  compile: CompileFigure[];
  validation: ValidationFigure[];
  sample: { nid: string; floorplans: number; virtualTours: number; videos: number; bytes: number };
  /** `npm run contract -- --recording`: reading a HAR file of `entries` exchanges, then checking them (medians). */
  recording: { entries: number; bytes: number; readMs: number; checkMs: number; exchangesPerSecond: number };
}

export const section: BenchSection<ContractFigures> = {
  key: "contract",
  async run({ settings, progress }) {
    progress("contract validation…");
    const contract = measureContract(settings);
    const lines: string[] = [];
    lines.push("1. Contract validation (AJV, generated at build time)", "");
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
      `Validation speed: median of ${settings.rounds} rounds of ${settings.roundMs} ms after ` +
        `${settings.warmupMs} ms of warm-up.`,
      `The property is nid ${contract.sample.nid} of the fixtures: ${contract.sample.floorplans} floorplans, ` +
        `${contract.sample.virtualTours} virtual tours, ${contract.sample.videos} videos, ` +
        `${bytes(contract.sample.bytes)} of JSON.`,
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
      `A recording (npm run contract -- --recording): a HAR file of ${count(recording.entries)} exchanges, ` +
        `${bytes(recording.bytes)}, ` +
        `read in ${ms(recording.readMs)} and checked in ${ms(recording.checkMs)} (` +
        `${perSecond(recording.exchangesPerSecond)} exchanges/s, ` +
        "each request and answer, open and closed reading).",
      "",
    );
    return { figures: contract, lines };
  },
};

interface ValidationCase {
  check: string;
  operationId: string;
  contract: "open" | "closed" | "either";
  body: "valid" | "invalid";
  call: () => { valid: boolean; errors: unknown[]; operationId?: string };
  bodyBytes: number;
}

function measureContract(settings: BenchSettings): ContractFigures {
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
  const property = projectProperty(
    record,
    db.documents.filter((document) => document.property_reference === record.id),
  );
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
    {
      check: "validateResponse GET property/{nid} 200",
      operationId: "retrieveProperty",
      method: "GET",
      path: `property/${property.nid}`,
      valid: property,
      invalid: badProperty,
    },
    {
      check: "validateResponse GET template_base 200",
      operationId: "retrieveTemplateCatalogue",
      method: "GET",
      path: "template_base",
      valid: templates,
      invalid: badTemplates,
    },
    // The service retrieves an agent card with POST (section 4.2).
    {
      check: "validateResponse POST agent_card/{nid} 200",
      operationId: "retrieveAgentCard",
      method: "POST",
      path: `agent_card/${agent.id}`,
      valid: agent,
      invalid: badAgent,
    },
  ];
  for (const target of responseTargets) {
    for (const kind of ["open", "closed"] as const) {
      const contract = contracts[kind]!;
      for (const body of ["valid", "invalid"] as const) {
        const exchange = response(target.method, target.path, body === "valid" ? target.valid : target.invalid);
        cases.push({
          check: target.check,
          operationId: target.operationId,
          contract: kind,
          body,
          call: () => contract.validateResponse(exchange),
          bodyBytes: jsonBytes(exchange.body),
        });
      }
    }
  }
  for (const body of ["valid", "invalid"] as const) {
    const exchange = createRequest(body === "valid" ? createBody : badCreateBody);
    const contract = contracts.closed!;
    cases.push({
      check: "validateRequest POST property",
      operationId: "createProperty",
      contract: "either",
      body,
      call: () => contract.validateRequest(exchange),
      bodyBytes: jsonBytes(exchange.body),
    });
  }

  const validation = cases.map((entry): ValidationFigure => {
    const result = entry.call();
    if (result.valid !== (entry.body === "valid") || result.operationId !== entry.operationId) {
      throw new Error(
        `The ${entry.body} body of "${entry.check}" (${entry.contract}) was judged ` +
          `${result.valid ? "valid" : "invalid"} as ${result.operationId}: a bug of the benchmark.`,
      );
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

  const recording = measureRecording(
    settings,
    contracts.open!,
    contracts.closed!,
    credentials,
    responseTargets.map((target) => response(target.method, target.path, target.valid)),
  );

  return {
    compile,
    validation,
    recording,
    sample: {
      nid: property.nid,
      floorplans: Object.keys(property.floorplans ?? {}).length,
      virtualTours: Array.isArray(property.virtual_tours)
        ? property.virtual_tours.length
        : Object.keys(property.virtual_tours ?? {}).length,
      videos: Object.keys(property.property_videos ?? {}).length,
      bytes: jsonBytes(property),
    },
  };
}

/**
 * A HAR file of `settings.requests` exchanges (the three valid answers above in turn, as a browser records them),
 * read and checked as `npm run contract -- --recording` does; the median of `compileRounds` runs.
 */
function measureRecording(
  settings: BenchSettings,
  open: Contract,
  closed: Contract,
  credentials: Record<string, string>,
  answers: ResponseExchange[],
): ContractFigures["recording"] {
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
        headers: [
          header("API-KEY", credentials["API-KEY"]!),
          header("TOKEN", credentials.TOKEN!),
          header("content-type", "application/json"),
        ],
      },
      response: {
        status: 200,
        statusText: "OK",
        httpVersion: "HTTP/1.1",
        headers: [header("content-type", "application/json")],
        content: { size: 0, mimeType: "application/json", text: JSON.stringify(answer.body) },
      },
    };
  });
  const text = JSON.stringify({ log: { version: "1.2", creator: { name: "bench", version: "1" }, entries } });
  const readTimes: number[] = [];
  const checkTimes: number[] = [];
  for (let round = 0; round < settings.compileRounds; round++) {
    let started = performance.now();
    const read = readRecording(text);
    readTimes.push(performance.now() - started);
    if (!read.ok)
      throw new Error(`The benchmark's HAR file is not a recording (${read.message}): a bug of the benchmark.`);
    started = performance.now();
    const outcome = checkRecording(read.exchanges, { source: "bench.har", contract: open, closedContract: closed });
    checkTimes.push(performance.now() - started);
    if (
      outcome.kind !== "report" ||
      outcome.report.result !== "passed" ||
      outcome.report.exchanges !== settings.requests
    ) {
      throw new Error("The benchmark's recording did not pass with every exchange checked: a bug of the benchmark.");
    }
  }
  const checkMs = median(checkTimes);
  return {
    entries: settings.requests,
    bytes: Buffer.byteLength(text),
    readMs: median(readTimes),
    checkMs,
    exchangesPerSecond: settings.requests / (checkMs / 1000),
  };
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
