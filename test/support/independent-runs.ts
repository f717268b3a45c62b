/**
 * One contract run against a fresh instance of the independent service (test/support/independent-service/): the
 * conforming one, a defect of VARIANTS or a legitimate variant, as its three accounts, with a fixed seed and,
 * when asked, the generated phase. Shared by the suite (test/contract/independent*.test.ts) and the seed sweep
 * (scripts/sweep-fuzz-seeds.ts), so that both hold the runner to the same runs.
 */
import { createContract, type Contract } from "../../src/contract/create-contract.ts";
import { runContract } from "../../src/contract/runner/run-contract.ts";
import type { RunReport } from "../../src/contract/runner/run-report.ts";
import { startIndependentService } from "./independent-service/index.ts";

let compiled: { contract: Contract; closedContract: Contract } | undefined;

/** The contract, open and closed, compiled once per process. */
function contracts(): { contract: Contract; closedContract: Contract } {
  compiled ??= { contract: createContract(), closedContract: createContract({ closed: true }) };
  return compiled;
}

/** What a run takes beyond the variant. */
export interface IndependentRun {
  /** `--fuzz`: generated cases per operation; none when undefined. */
  fuzz?: number;
  seed: number;
  /** Milliseconds to wait for each answer (a guard against a hang, never a verdict). */
  timeoutMs: number;
}

/** Runs the runner against a fresh instance (variant undefined: the conforming one) and closes it. */
export async function runAgainstIndependent(
  variant: string | undefined,
  { fuzz, seed, timeoutMs }: IndependentRun,
): Promise<RunReport> {
  const service = await startIndependentService(variant ? { variant } : {});
  try {
    const { primary, other, fresh } = service.accounts;
    const outcome = await runContract({
      baseUrl: service.url,
      fetch: service.fetch,
      apiKey: primary.apiKey,
      token: primary.token,
      other,
      fresh: { ...fresh, seats: fresh.agentSeats },
      ...contracts(),
      timeoutMs,
      runId: variant ?? "conforming",
      seed,
      ...(fuzz ? { fuzz } : {}),
    });
    if (outcome.kind !== "report") throw new Error(outcome.message);
    return outcome.report;
  } finally {
    await service.close();
  }
}

/** The failures of a run, one line each: check, step, message. */
export function failuresOf(report: RunReport): string[] {
  return report.results
    .filter((result) => result.status === "failed")
    .map((result) => `${result.check} (${result.step}): ${result.message ?? ""}`);
}
