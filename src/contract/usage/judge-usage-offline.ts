import { createContract, type Contract } from "../create-contract.ts";
import type { ServiceProfile } from "../profile/service-profile.ts";
import { CheckLedger } from "../runner/check-ledger.ts";
import { USAGE_CHECKS } from "../runner/checks.ts";
import type { RunOutcome } from "../runner/run-contract.ts";
import type { RunEvent } from "../runner/run-report.ts";
import { interactionStep, recordDifferences, testVerdicts } from "./consumer-verdicts.ts";
import { judgeAgainstProfile } from "./judge-against-profile.ts";
import type { UsageDocument } from "./usage-document.ts";

/** Options of {@link judgeUsageOffline}. */
export interface OfflineOptions {
  usage: UsageDocument;
  /** The usage file, for the report. */
  file: string;
  profile: ServiceProfile;
  /** The profile file, for the report. */
  profileFile: string;
  strict?: boolean;
  onEvent?: (event: RunEvent) => void;
  contract?: Contract;
  now?: () => number;
}

/**
 * Judges a consumer's usage against a recorded service profile alone (`--usage <file> --profile <file>` without
 * `--base-url`): "may this client ship against the service as last recorded?", with no request sent. Each
 * interaction whose answer rests on an assumption is held to what the profile saw at that point; a point the
 * profile did not record is skipped with the reason.
 */
export function judgeUsageOffline(options: OfflineOptions): RunOutcome {
  const now = options.now ?? Date.now;
  const started = now();
  const contract = options.contract ?? createContract();
  const emit = options.onEvent ?? (() => {});
  const ledger = new CheckLedger({ contract, closedContract: contract, strict: options.strict ?? false, emit });
  for (const test of options.usage.tests) {
    for (const [index, interaction] of test.interactions.entries()) {
      const judged = judgeAgainstProfile(interaction, options.profile);
      if (!judged.judged) {
        const result = ledger.skipped("consumer_assumption", interactionStep(test, index, interaction), judged.why, interaction.operation);
        result.consumerTest = test.name;
        emit({ kind: "check", result });
        continue;
      }
      for (const result of recordDifferences(ledger, { test, index, interaction, by: "the profile" }, judged.differences)) emit({ kind: "check", result });
    }
  }
  const report = ledger.report({ baseUrl: "", startedAt: started, finishedAt: now(), checks: USAGE_CHECKS });
  report.usage = {
    consumer: options.usage.consumer, file: options.file, against: "profile",
    profile: `${options.profileFile} (run ${options.profile.runId}, recorded ${options.profile.recordedAt})`,
    tests: testVerdicts(options.usage.tests, report.results, new Map()),
  };
  return { kind: "report", report };
}
