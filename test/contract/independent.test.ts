/**
 * The runner held against an implementation of the service we did not write as the mock (issue 8, items 4 and
 * 12): written from service-interface.md alone, it differs from the mock on every point the document leaves
 * open. The runner passes it with no failure at the fact tier, catches every variant of it that breaks one
 * documented rule, and still passes the mock.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createContract } from "../../src/contract/create-contract.ts";
import { runContract } from "../../src/contract/runner/run-contract.ts";
import type { RunReport } from "../../src/contract/runner/run-report.ts";
import { createMockServer } from "../../src/mock/create-mock-server.ts";
import { LEGITIMATE_VARIANTS, startIndependentService, VARIANTS, type IndependentService } from "../support/independent-service/index.ts";

const contract = createContract();
const closedContract = createContract({ closed: true });
const SECTION = /^(introduction|[1-9](\.[0-9])?)$/;

/** One run against a fresh instance (conforming, or broken by one variant), as its three accounts. */
async function runAgainst(variant?: string): Promise<RunReport> {
  const service: IndependentService = await startIndependentService(variant ? { variant } : {});
  try {
    const { primary, other, fresh } = service.accounts;
    const outcome = await runContract({
      baseUrl: service.url, apiKey: primary.apiKey, token: primary.token, other, fresh: { ...fresh, seats: fresh.agentSeats },
      contract, closedContract, timeoutMs: 5000, runId: variant ?? "conforming",
    });
    if (outcome.kind !== "report") throw new Error(outcome.message);
    return outcome.report;
  } finally {
    await service.close();
  }
}

describe("the independent implementation, unbroken", () => {
  let report: RunReport;
  beforeAll(async () => {
    report = await runAgainst();
  }, 60_000);

  it("passes with no failure at the fact tier, and nothing skipped", () => {
    expect(report.results.filter((result) => result.status === "failed" || result.status === "skipped")).toEqual([]);
    expect(report.result).toBe("passed");
  });

  it("answers 200 on all fifteen operations, and the run deletes what it could", () => {
    expect(Object.entries(report.coverage).filter(([, coverage]) => coverage.statuses.includes(200))).toHaveLength(15);
    expect(report.leftBehind).toEqual([expect.stringMatching(/^property \d+ /), expect.stringMatching(/^property \d+ /)]);
  });

  it("differs from the mock where the document is open: those are warnings, never failures", () => {
    const warned = new Set(report.results.filter((result) => result.status === "warning").map((result) => result.check));
    expect([...warned]).toEqual(expect.arrayContaining(["undocumented_response_property", "response_schema_conformance", "content_type_conformance"]));
  });
});

describe("every legitimate variant, taking a choice the document leaves open", () => {
  it("is at least ten, each justified, and none of them a defect", () => {
    expect(LEGITIMATE_VARIANTS.length).toBeGreaterThanOrEqual(10);
    const defects = new Set(VARIANTS.map((variant) => variant.name));
    for (const variant of LEGITIMATE_VARIANTS) {
      expect(defects.has(variant.name), variant.name).toBe(false);
      expect(variant.choice, variant.name).toBeTruthy();
      expect(variant.justification, variant.name).toMatch(/\b([1-9](\.[0-9])?|introduction)\b/);
    }
  });

  it.each(LEGITIMATE_VARIANTS.map((variant) => [variant.name, variant] as const))("%s: passes with no failure", async (_name, variant) => {
    const report = await runAgainst(variant.name);
    const failures = report.results.filter((result) => result.status === "failed").map((result) => `${result.check} (${result.step}): ${result.message}`);
    expect(failures, `${variant.choice} (${variant.justification})`).toEqual([]);
    expect(report.result).toBe("passed");
  }, 60_000);
});

describe("the mock, held to the same runs", () => {
  const mock = createMockServer({ contract: closedContract, log: () => {} });
  let url = "";
  beforeAll(async () => {
    ({ url } = await mock.listen(0));
  });
  afterAll(() => mock.close());

  it("passes with no failure, no warning and nothing skipped", async () => {
    const outcome = await runContract({
      baseUrl: url, apiKey: "independent-test", token: "t1", other: { apiKey: "independent-test-other", token: "t2" }, fresh: { apiKey: "independent-test-fresh", token: "t3", seats: 10 },
      contract, closedContract, timeoutMs: 5000,
    });
    if (outcome.kind !== "report") throw new Error(outcome.message);
    expect(outcome.report.results.filter((result) => result.status !== "passed")).toEqual([]);
  }, 60_000);
});

describe("every variant that breaks one documented rule", () => {
  it("is at least thirty", () => {
    expect(VARIANTS.length).toBeGreaterThanOrEqual(30);
  });

  it.each(VARIANTS.map((variant) => [variant.name, variant] as const))("%s: is caught, with a failure that cites its section", async (_name, variant) => {
    const report = await runAgainst(variant.name);
    const failures = report.results.filter((result) => result.status === "failed");
    expect(failures.length, `${variant.name} breaks "${variant.rule}" (section ${variant.section}) and the run did not fail`).toBeGreaterThan(0);
    expect(report.result).toBe("failed");
    for (const failure of failures) {
      expect(failure.section, `${failure.check} ${failure.step}`).toMatch(SECTION);
      expect(failure.message).toBeTruthy();
    }
  }, 60_000);
});
