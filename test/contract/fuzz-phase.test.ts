/**
 * The generated phase of the contract runner (`--fuzz <n>`, issue 21): bounded (the mock's own journal counts what
 * it was sent), repeatable (the same seed sends the same requests), reported (the seed in every report; a failure
 * once per kind, shrunk, with a curl line that still fails), and through the CLI as a user runs it. Fairness and
 * sharpness against the independent implementation live in independent.test.ts.
 */
import { afterAll, describe, expect, it } from "vitest";
import { createContract } from "../../src/contract/create-contract.ts";
import { renderJsonReport } from "../../src/contract/runner/reporters/json-reporter.ts";
import { renderJunitReport } from "../../src/contract/runner/reporters/junit-reporter.ts";
import { renderTextReport } from "../../src/contract/runner/reporters/text-reporter.ts";
import { runContract, type RunOptions } from "../../src/contract/runner/run-contract.ts";
import type { RunReport } from "../../src/contract/runner/run-report.ts";
import { createMockServer, type MockServer } from "../../src/hosts/node/create-mock-server.ts";
import { startIndependentService } from "../support/independent-service/index.ts";
import { startProcess } from "../support/start-process.ts";
import { HANG_MS } from "../support/deadlines.ts";

const contract = createContract();
const closedContract = createContract({ closed: true });
const started: MockServer[] = [];
/** The property fields the create table of section 4.1 endpoint 3 types integer. */
const INTEGERS_ON_CREATE = [
  "square_feet",
  "bedrooms",
  "baths",
  "list_price",
  "stories",
  "parking_spaces",
  "year_built",
];
afterAll(async () => {
  for (const mock of started.splice(0)) await mock.close();
});

/** A fresh mock that keeps every request in its journal. */
async function freshMock(): Promise<{ mock: MockServer; url: string }> {
  const mock = createMockServer({ contract: closedContract, log: () => {}, journalSize: 5000 });
  started.push(mock);
  const { url } = await mock.listen(0);
  return { mock, url };
}

/** One run against a fresh mock, with the run's names fixed so that two runs send the same bytes. */
async function runOnMock(options: Partial<RunOptions>): Promise<{ report: RunReport; mock: MockServer; url: string }> {
  const { mock, url } = await freshMock();
  const outcome = await runContract({
    baseUrl: url,
    apiKey: "fuzz-key",
    token: "t1",
    other: { apiKey: "fuzz-other", token: "t2" },
    fresh: { apiKey: "fuzz-fresh", token: "t3", seats: 10 },
    contract,
    closedContract,
    timeoutMs: HANG_MS,
    runId: "fuzz",
    nonce: "abcdef",
    ...options,
  });
  if (outcome.kind !== "report") throw new Error(outcome.message);
  return { report: outcome.report, mock, url };
}

describe("--fuzz 100 against the mock", () => {
  let scenarioOnly: number;
  let withFuzz: Awaited<ReturnType<typeof runOnMock>>;
  let again: Awaited<ReturnType<typeof runOnMock>>;

  it("passes with no failure and no warning: every generated case is answered as the document says", async () => {
    const plain = await runOnMock({ seed: 7 });
    scenarioOnly = plain.mock.requests().length;
    withFuzz = await runOnMock({ seed: 7, fuzz: 100 });
    expect(withFuzz.report.results.filter((result) => result.status !== "passed")).toEqual([]);
    expect(Object.keys(withFuzz.report.fuzz!.operations)).toEqual([
      "createProperty",
      "editProperty",
      "retrieveProperty",
      "retrievePropertyByExternalId",
      "listUserProperties",
    ]);
  });

  it("sends no more than the cases asked for per operation, plus one read per case that checks it", () => {
    const operations = Object.values(withFuzz.report.fuzz!.operations);
    const cases = operations.reduce((sum, entry) => sum + entry.cases, 0);
    const reads = operations.reduce((sum, entry) => sum + entry.reads, 0);
    for (const entry of operations) {
      expect(entry.cases).toBe(100);
      expect(entry.valid + entry.invalid).toBe(100);
      expect(entry.valid, "valid and invalid cases both").toBeGreaterThan(20);
    }
    // Reads: a retrieve after each accepted write, a list or retrieve after each refused one, and the first list.
    expect(reads).toBeLessThanOrEqual(200 + 1);
    // Counted by the mock itself, not by the runner: the phase added exactly its cases and reads, and the edit that
    // labels each property it made at the run's end.
    expect(withFuzz.mock.requests().length - scenarioOnly).toBe(
      cases + reads + withFuzz.report.fuzz!.properties.created,
    );
  });

  it("sends the same requests again with the same seed, and other ones with another", async () => {
    again = await runOnMock({ seed: 7, fuzz: 100 });
    const sent = (mock: MockServer) =>
      mock.requests().map((entry) => `${entry.method} ${entry.path} ${JSON.stringify(entry.body)}`);
    expect(sent(again.mock)).toEqual(sent(withFuzz.mock));
    const other = await runOnMock({ seed: 8, fuzz: 5 });
    const phase = (mock: MockServer) => sent(mock).slice(scenarioOnly);
    expect(phase(other.mock)).not.toEqual(phase(withFuzz.mock).slice(0, phase(other.mock).length));
  });

  it("prints the seed in every report: text, JSON and JUnit", () => {
    const { report } = withFuzz;
    expect(report.seed).toBe(7);
    expect(renderTextReport(report)).toContain("Seed 7: --seed 7 sends the same generated cases again.");
    expect(renderTextReport(report)).toMatch(
      new RegExp(
        /Generated cases \(--fuzz 100\)\n {2}createProperty +100 /.source +
          /sent \(\d+ valid, \d+ invalid\), \d+ reads to check them/.source,
      ),
    );
    expect(JSON.parse(renderJsonReport(report))).toMatchObject({ seed: 7, fuzz: { casesPerOperation: 100 } });
    expect(renderJunitReport(report)).toContain('<property name="seed" value="7"/>');
  });

  it("sends no edit a non-integer where the create table types the field integer: neither valid nor invalid", () => {
    const edits = withFuzz.mock
      .requests()
      .filter(
        (entry) =>
          entry.method === "PUT" &&
          /\/property\//.test(entry.path) &&
          entry.body !== null &&
          typeof entry.body === "object",
      );
    const bodies = edits.map((entry) => entry.body as Record<string, unknown>);
    expect(bodies.filter((body) => INTEGERS_ON_CREATE.some((field) => Number.isInteger(body[field])))).toEqual([]);
    // A number in a field no table types as a number is still another type, and sent as an invalid case.
    expect(
      bodies.some((body) =>
        Object.entries(body).some(([field, value]) => !INTEGERS_ON_CREATE.includes(field) && typeof value === "number"),
      ),
    ).toBe(true);
  });

  it("gives each create field, and most edit fields, a case of a JSON number where the document gives a string", () => {
    const generated = withFuzz.mock.requests().slice(scenarioOnly);
    // The fields of the requests whose body is the required fields (or none) and one field holding a JSON number.
    const lone = (method: string, path: RegExp, required: string[], candidates: (field: string) => boolean) =>
      new Set(
        generated
          .filter(
            (entry) =>
              entry.method === method && path.test(entry.path) && entry.body !== null && typeof entry.body === "object",
          )
          .flatMap((entry) => {
            const body = entry.body as Record<string, unknown>;
            const numbers = Object.keys(body).filter((field) => typeof body[field] === "number" && candidates(field));
            return numbers.length === 1 &&
              Object.keys(body).every((field) => field === numbers[0] || required.includes(field))
              ? numbers
              : [];
          }),
      );
    // Endpoint 3's fields that the create table gives a string (the others it types integer).
    const createStrings = [
      "street",
      "city",
      "state",
      "zip",
      "garage",
      "lot_size",
      "description",
      "property_type",
      "template",
    ];
    expect(
      [
        ...lone("POST", /^\/api\/v1\/object\/property$/, ["street", "city", "state", "zip"], (field) =>
          createStrings.includes(field),
        ),
      ].sort(),
    ).toEqual([...createStrings].sort());
    // 38 fields, of which 31 have no integer in either table: the rules take turns within half of the 100 cases.
    expect(
      lone("PUT", /^\/api\/v1\/object\/property\/\d+$/, [], (field) => !INTEGERS_ON_CREATE.includes(field)).size,
    ).toBeGreaterThanOrEqual(15);
  });

  it("sends a create and an edit with each field at its valid edges: negative integers, long text, non-ASCII", () => {
    const writes = withFuzz.mock
      .requests()
      .slice(scenarioOnly)
      .filter(
        (entry) =>
          (entry.method === "POST" || entry.method === "PUT") &&
          /^\/api\/v1\/object\/property(\/\d+)?$/.test(entry.path),
      );
    const whole = (fields: number) =>
      writes
        .filter(
          (entry) => entry.body !== null && typeof entry.body === "object" && Object.keys(entry.body).length === fields,
        )
        .map((entry) => entry.body as Record<string, unknown>);
    const beyondAscii = (value: unknown) => /[^\u0000-\u007f]/.test(String(value));
    // A create's 16 fields (sent as an edit of the phase's own property once the phase made the properties it may),
    // an edit's 38.
    for (const bodies of [whole(16), whole(38)]) {
      expect(
        bodies.some((body) => Number(body.year_built) < 0 && Number(body.bedrooms) < 0 && Number(body.list_price) < 0),
      ).toBe(true);
      expect(
        bodies.some((body) => beyondAscii(body.street) && beyondAscii(body.city) && beyondAscii(body.description)),
      ).toBe(true);
    }
    // Every field long: a body far longer than the journal keeps (16 KiB), or one whose texts are each 400 graphemes.
    expect(
      writes.some(
        (entry) =>
          (entry.bodySize ?? 0) > 38 * 400 ||
          (typeof entry.body === "object" &&
            entry.body !== null &&
            [...String((entry.body as Record<string, unknown>).city)].length === 400),
      ),
    ).toBe(true);
  });

  it("makes at most one property per 20 cases, judges other valid creates as edits, lists what it left", () => {
    const { fuzz, leftBehind, created } = withFuzz.report;
    expect(fuzz!.properties.limit).toBe(5);
    const made = leftBehind.filter((entry) => entry.includes("made by a generated case"));
    expect(made.length).toBe(fuzz!.properties.created);
    expect(made.length).toBeGreaterThan(0);
    expect(made.length).toBeLessThanOrEqual(5);
    expect(
      made.every((entry) =>
        new RegExp(
          /^property \d+, made by a generated case, titled "Contract Run /.source +
            /fuzz-abcdef \(\d+\)" with external id contract-fuzz-abcdef-\d+ /.source,
        ).test(entry),
      ),
    ).toBe(true);
    expect(created!.filter((record) => record.by === "made by a generated case")).toHaveLength(made.length);
    // The mock refuses every create the document rules out, so none goes unsent; the valid ones past the limit went
    // as edits.
    expect(fuzz!.operations.createProperty!.notSent).toBeUndefined();
    expect(fuzz!.operations.createProperty!.asEdits).toBeGreaterThan(20);
    const creates = withFuzz.mock
      .requests()
      .slice(scenarioOnly)
      .filter((entry) => entry.method === "POST" && entry.path === "/api/v1/object/property");
    expect(creates.length).toBeGreaterThan(20); // the cases the document rules out, each refused
  });
});

describe("a failure of a generated case", () => {
  it("is reported once per kind, shrunk to a request that still fails, with its curl line", async () => {
    const service = await startIndependentService({ variant: "crash-on-fraction-in-integer" });
    try {
      const { primary } = service.accounts;
      const outcome = await runContract({
        baseUrl: service.url,
        fetch: service.fetch,
        apiKey: primary.apiKey,
        token: primary.token,
        skipSeatChecks: true,
        contract,
        closedContract,
        timeoutMs: HANG_MS,
        seed: 3,
        fuzz: 40,
      });
      if (outcome.kind !== "report") throw new Error(outcome.message);
      const failures = outcome.report.results.filter((result) => result.status === "failed");
      expect(failures.map((failure) => `${failure.check} ${failure.operation}`)).toEqual([
        "not_a_server_error createProperty",
      ]);
      const [failure] = failures;
      expect(failure!.step).toMatch(
        /^generated invalid: a fraction where an integer is documented \(.+\) case of createProperty$/,
      );
      expect(failure!.section).toBe("4");
      const body = failure!.request!.body as Record<string, unknown>;
      expect(Object.values(body).filter((value) => typeof value === "number" && !Number.isInteger(value))).toHaveLength(
        1,
      );
      expect(failure!.request!.curl).toContain(`--data-raw '${JSON.stringify(body).replace(/'/g, "'\\''")}'`);
      expect(outcome.report.fuzz!.operations.createProperty!.shrinks).toBeLessThanOrEqual(40);
      const replayed = await fetch(`${service.url}${failure!.request!.path}`, {
        method: "POST",
        headers: { "API-KEY": primary.apiKey, TOKEN: primary.token, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      expect(replayed.status).toBe(500);
    } finally {
      await service.close();
    }
  });
});

describe("the CLI", () => {
  it("runs the phase with --fuzz and --seed, and refuses a count that is not one", async () => {
    const { url } = await freshMock();
    const run = startProcess("node", [
      "dist/cli/contract.js",
      "--base-url",
      url,
      "--api-key",
      "cli-fuzz",
      "--token",
      "t",
      "--skip-seat-checks",
      "--fuzz",
      "3",
      "--seed=-12",
      "--reporter",
      "json",
      "--quiet",
    ]);
    expect(await run.exited, run.output()).toBe(0);
    const report = JSON.parse(run.output().slice(run.output().indexOf("{"))) as RunReport;
    expect(report.seed).toBe(-12);
    // Three cases of create may make one property (one per 20 cases): the first; a valid one after it goes as an edit,
    // and one the document rules out is counted and not sent.
    const create = report.fuzz!.operations.createProperty!;
    expect(create.cases + (create.notSent ?? 0)).toBe(3);
    expect(report.fuzz!.properties).toEqual({ limit: 1, created: 1 });
    const refused = startProcess("node", [
      "dist/cli/contract.js",
      "--base-url",
      url,
      "--api-key",
      "k",
      "--token",
      "t",
      "--fuzz",
      "0",
    ]);
    expect(await refused.exited).toBe(2);
    expect(refused.output()).toContain("--fuzz must be a number of cases from 1 to 10000, got 0");
  });
});
