/**
 * `--rerun`'s verdicts: each consumer test is its own result against the service's answers. A test that passed
 * holds whatever differed; one that failed is explained by where the service answered otherwise than the mock,
 * the likeliest cause first; one the command did not run is "not run", never passed. JUnit: one testcase per test.
 */
import { describe, expect, it } from "vitest";
import type { RunReport } from "../../../src/contract/runner/run-report.ts";
import type { AnswersDocument } from "../../../src/contract/usage/answers-document.ts";
import { renderRerunJunit, renderRerunText, rerunVerdicts } from "../../../src/contract/usage/rerun-verdicts.ts";
import type { UsageDocument, UsageInteraction } from "../../../src/contract/usage/usage-document.ts";

const retrieve = (body: unknown): UsageInteraction => ({
  operation: "retrieveProperty",
  request: {
    method: "GET",
    path: "/api/v1/object/property/1001",
    params: { nid: "1001" },
    headers: {},
    account: "primary",
  },
  response: { status: 200, mediaType: "application/json", body },
  bindings: [],
  basis: {
    status: { tier: "fact" },
    mediaType: { tier: "fact" },
    fields: { "/country": { tier: "assumption", ids: ["A7"], pointers: [] } },
  },
});
const MOCK_BODY = { nid: "1001", premise: "", country: "US", half_baths: "0" };
const SERVICE = {
  operation: "retrieveProperty",
  path: "/api/v1/object/property/500007",
  status: 200,
  mediaType: "application/json",
  headers: {},
  body: { nid: "500007", premise: null, country: null, half_baths: null },
};
const NAMES = ["header > upper-cases the country", "header > shows the title", "header > never run"];

const usage = {
  tests: NAMES.map((name) => ({
    name,
    start: { kind: "named", name: "fixtures" },
    records: {},
    interactions: [retrieve(MOCK_BODY)],
  })),
} as unknown as UsageDocument;
const answers: AnswersDocument = {
  answersVersion: 1,
  consumer: "web",
  source: { kind: "service", baseUrl: "https://service.example" },
  usage,
  tests: NAMES.map((name) => ({ name, interactions: [SERVICE] })),
};
const replay = { results: [] } as unknown as RunReport;

describe("rerunVerdicts", () => {
  const outcome = rerunVerdicts(
    answers,
    replay,
    [
      {
        test: NAMES[0]!,
        state: "fail",
        errors: ["TypeError: Cannot read properties of null (reading 'toUpperCase')"],
        notCovered: [],
      },
      { test: NAMES[1]!, state: "pass", errors: [], notCovered: [] },
      { test: "not in the usage", state: "pass", errors: [], notCovered: [] },
    ],
    "npx vitest run",
  );

  it("gives each test of the usage its own result: broke, held whatever differed, not run", () => {
    expect(outcome.verdicts.map((verdict) => verdict.result)).toEqual(["broke", "held", "not-run"]);
    expect(outcome.exitCode).toBe(1);
    expect(outcome.unknownTests).toEqual(["not in the usage"]);
    expect(outcome.verdicts[1]!.explanation).toMatch(
      /^held \(the service answered otherwise than the mock, and the test did not notice: /,
    );
  });

  it("explains a broken test by the null where the mock gave a value with the member the error read", () => {
    expect(outcome.verdicts[0]!.explanation).toBe(
      "broke: TypeError: Cannot read properties of null (reading 'toUpperCase') — the service answered " +
        'null at /country where the mock answered "US" (retrieveProperty; assumption A7); the service answered ' +
        'null at /half_baths where the mock answered "0" (retrieveProperty); the service answered null at ' +
        '/premise where the mock answered "" (retrieveProperty)',
    );
  });

  it("never passes a test some of whose requests the service was not asked", () => {
    const partly: AnswersDocument = {
      ...answers,
      tests: answers.tests.map((test, t) =>
        t === 1
          ? { ...test, interactions: [{ operation: "retrieveProperty", notSent: "its id came from a list position" }] }
          : test,
      ),
    };
    const verdict = rerunVerdicts(
      partly,
      replay,
      [{ test: NAMES[1]!, state: "pass", errors: [], notCovered: [] }],
      "npx vitest run",
    ).verdicts[1]!;
    expect(verdict.result).toBe("not-run");
    expect(verdict.explanation).toBe(
      "not run against the service: 1 of its 1 requests could not be sent to the service (its id came from a " +
        "list position); it passed on the mock's answers there",
    );
  });

  it("holds when every test passed", () => {
    const passed = rerunVerdicts(
      answers,
      replay,
      NAMES.map((test) => ({ test, state: "pass" as const, errors: [], notCovered: [] })),
      "npx vitest run",
    );
    expect(passed.exitCode).toBe(0);
  });

  it("writes one JUnit testcase per consumer test, and a text line per test", () => {
    const junit = renderRerunJunit(outcome);
    expect(junit.match(/<testcase /g)).toHaveLength(NAMES.length);
    expect(junit.match(/<failure /g)).toHaveLength(1);
    expect(junit.match(/<skipped /g)).toHaveLength(1);
    expect(renderRerunText(outcome)).toContain("1 held, 1 broke, 1 not run");
  });
});
