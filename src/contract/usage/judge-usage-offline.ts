import { createContract, type Contract } from "../create-contract.ts";
import type { ServiceProfile } from "../profile/service-profile.ts";
import { CheckLedger } from "../runner/check-ledger.ts";
import { USAGE_CHECKS } from "../runner/checks.ts";
import type { RunOutcome } from "../runner/run-contract.ts";
import type { RunEvent } from "../runner/run-report.ts";
import { interactionStep, recordDifferences, testVerdicts } from "./consumer-verdicts.ts";
import { judgeAgainstProfile } from "./judge-against-profile.ts";
import { neverSetDefaultFields } from "../../spec/never-set-fields.ts";
import type { UsageDocument, UsageTest } from "./usage-document.ts";

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
  const filled = neverSetDefaultFields(contract.document);
  for (const test of options.usage.tests) {
    for (const [index, interaction] of test.interactions.entries()) {
      const judged = judgeAgainstProfile(interaction, options.profile, neverSetBy(test, index, filled));
      if (!judged.judged) {
        const result = ledger.skipped(
          "consumer_assumption",
          interactionStep(test, index, interaction),
          judged.why,
          interaction.operation,
        );
        result.consumerTest = test.name;
        emit({ kind: "check", result });
        continue;
      }
      for (const result of recordDifferences(
        ledger,
        { test, index, interaction, by: "the profile" },
        judged.differences,
      ))
        emit({ kind: "check", result });
    }
  }
  const report = ledger.report({ baseUrl: "", startedAt: started, finishedAt: now(), checks: USAGE_CHECKS });
  report.usage = {
    consumer: options.usage.consumer,
    file: options.file,
    against: "profile",
    profile: `${options.profileFile} (run ${options.profile.runId}, recorded ${options.profile.recordedAt})`,
    tests: testVerdicts(options.usage.tests, report.results, new Map()),
  };
  return { kind: "report", report };
}

/**
 * The fields the mock filled itself (never-set-defaults) on the property a retrieve of the test reads, when the
 * test created that property: those neither its create nor an edit of it before the retrieve set. A property of
 * the start state is left out: the replay makes it with every field the mock held.
 */
function neverSetBy(test: UsageTest, index: number, filled: readonly string[]): ReadonlySet<string> {
  const interaction = test.interactions[index]!;
  if (interaction.operation !== "retrieveProperty") return new Set();
  const made = madeBy(test, index);
  if (made === undefined) return new Set();
  const set = new Set<string>(Object.keys(objectOf(test.interactions[made]!.request.body)));
  for (let at = made + 1; at < index; at += 1) {
    const edit = test.interactions[at]!;
    if (edit.operation === "editProperty" && madeBy(test, at) === made)
      for (const field of Object.keys(objectOf(edit.request.body))) set.add(field);
  }
  return new Set(filled.filter((field) => !set.has(field)));
}

/** The create of this test whose nid an interaction's path names, through the answers it was bound to. */
function madeBy(test: UsageTest, index: number): number | undefined {
  for (let at = index, hops = 0; hops < 50; hops += 1) {
    const binding = test.interactions[at]?.bindings.find((entry) => entry.at === "/params/nid");
    if (binding?.from !== "answer") return undefined;
    const source = test.interactions[binding.interaction];
    if (!source) return undefined;
    if (source.operation === "createProperty") return binding.interaction;
    at = binding.interaction;
  }
  return undefined;
}

function objectOf(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}
