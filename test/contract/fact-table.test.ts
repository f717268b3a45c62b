/**
 * The table from every fact of the contract to the step that checks it (issue 19, item 7) stays true: every
 * place of the spec that carries `x-section` is in it, and each check it names is evaluated, and passes, at its
 * step in a run against a conforming service. A fact that no run can reach says why, and the README names it.
 */
import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { createContract } from "../../src/contract/create-contract.ts";
import { CHECKS } from "../../src/contract/runner/checks.ts";
import { PROSE_FACTS, SPEC_FACTS, type FactCoverage } from "../../src/contract/runner/fact-table.ts";
import { runContract } from "../../src/contract/runner/run-contract.ts";
import type { RunReport } from "../../src/contract/runner/run-report.ts";
import { startIndependentService } from "../support/independent-service/index.ts";
import { HANG_MS } from "../support/deadlines.ts";

const contract = createContract();
const closedContract = createContract({ closed: true });

/** Every place of the document that carries `x-section`, as a JSON pointer. */
function sectionedPlaces(node: unknown, pointer = "#", out: string[] = []): string[] {
  if (node === null || typeof node !== "object") return out;
  if (!Array.isArray(node) && typeof (node as Record<string, unknown>)["x-section"] === "string") out.push(pointer);
  for (const [key, value] of Object.entries(node))
    sectionedPlaces(value, `${pointer}/${key.replace(/~/g, "~0").replace(/\//g, "~1")}`, out);
  return out;
}

const entries: Array<[string, FactCoverage]> = [
  ...Object.entries(SPEC_FACTS),
  ...PROSE_FACTS.map((fact): [string, FactCoverage] => [`section ${fact.section}: ${fact.fact}`, fact]),
];

describe("the fact table", () => {
  let report: RunReport;
  beforeAll(async () => {
    const service = await startIndependentService();
    try {
      const { primary, other, fresh } = service.accounts;
      const outcome = await runContract({
        baseUrl: service.url,
        fetch: service.fetch,
        apiKey: primary.apiKey,
        token: primary.token,
        other,
        fresh: { ...fresh, seats: fresh.agentSeats },
        contract,
        closedContract,
        timeoutMs: HANG_MS,
        runId: "fact-table",
      });
      if (outcome.kind !== "report") throw new Error(outcome.message);
      report = outcome.report;
    } finally {
      await service.close();
    }
  });

  it("has every check in the check table of the runner's page (docs/runner.md)", () => {
    const page = readFileSync("docs/runner.md", "utf8");
    for (const check of Object.keys(CHECKS)) expect(page, check).toContain(`| \`${check}\` |`);
  });

  it("names every place of the spec that carries x-section, and no other", () => {
    expect(Object.keys(SPEC_FACTS).sort()).toEqual(sectionedPlaces(contract.document).sort());
  });

  it.each(entries)(
    "%s: checked at its steps, or unreachable for a reason the runner's page gives",
    (_name, coverage) => {
      if ("unreachable" in coverage) {
        expect(coverage.unreachable.length).toBeGreaterThan(20);
        expect(readFileSync("docs/runner.md", "utf8")).toContain("virtual_tours");
        return;
      }
      expect(coverage.checkedBy.length).toBeGreaterThan(0);
      for (const { check, step } of coverage.checkedBy) {
        const evaluated = report.results.filter((result) => result.check === check && result.step.startsWith(step));
        // A warning means the fact held and only an assumption of ours did not.
        expect(
          evaluated.some((result) => result.status === "passed" || result.status === "warning"),
          `${check} at "${step}": ${JSON.stringify(evaluated.map((result) => result.status))}`,
        ).toBe(true);
      }
    },
  );
});
