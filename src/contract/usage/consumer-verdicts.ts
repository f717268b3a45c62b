import type { CheckLedger } from "../runner/check-ledger.ts";
import type { CheckResult, ExchangeSummary, UsageVerdicts } from "../runner/run-report.ts";
import type { Difference } from "./judge-answer.ts";
import type { Basis, UsageInteraction, UsageTest } from "./usage-document.ts";

/**
 * How a step of a consumer test is named in a report: the test, the interaction's index, operation and request line.
 */
export function interactionStep(test: UsageTest, index: number, interaction: UsageInteraction): string {
  return `${test.name} › #${index} ${interaction.operation} ${interaction.request.method} ${interaction.request.path}`;
}

/**
 * What a basis names: `seat-limit-status`, `seat-limit-status, error-body-shape`, `the profile's error.seats`, or `a
 * documented fact`.
 */
export function basisName(basis: Basis): string {
  if (basis.tier === "fact") return "a documented fact";
  if (basis.tier === "profile") return `the profile's ${basis.point}`;
  return basis.ids.length > 0 ? basis.ids.join(", ") : "an assumption of the mock";
}

/** The assumptions and profile points every answer of a test rests on, sorted. */
export function restsOn(test: UsageTest): string[] {
  const names = new Set<string>();
  const add = (basis: Basis) => {
    if (basis.tier === "assumption") basis.ids.forEach((id) => names.add(id));
    if (basis.tier === "profile") names.add(`profile:${basis.point}`);
  };
  for (const { basis } of test.interactions) {
    add(basis.status);
    add(basis.mediaType);
    Object.values(basis.fields).forEach(add);
  }
  return [...names].sort((a, b) => a.localeCompare(b, "en"));
}

/**
 * Records the verdict of one interaction: `consumer_assumption` (a difference on an assumption or a profile point
 * fails this consumer, naming the ids and what the service did instead) and `consumer_fact` (a difference on a
 * documented fact is a defect of the service).
 */
export function recordDifferences(
  ledger: Pick<CheckLedger, "record">,
  about: {
    test: UsageTest;
    index: number;
    interaction: UsageInteraction;
    request?: ExchangeSummary;
    by: "the service" | "the profile";
  },
  differences: Difference[],
): CheckResult[] {
  const { test, index, interaction } = about;
  const step = interactionStep(test, index, interaction);
  const common = {
    operation: interaction.operation,
    consumerTest: test.name,
    ...(about.request ? { request: about.request } : {}),
  };
  const onAssumption = differences.filter((difference) => difference.basis.tier !== "fact");
  const onFact = differences.filter((difference) => difference.basis.tier === "fact");
  const lines = (list: Difference[]) =>
    list.map(
      (difference) =>
        `${difference.what}: the client got ${difference.expected}, ${about.by} ` +
        `${about.by === "the service" ? "answered" : "says"} ` +
        `${difference.actual}${difference.basis.tier === "fact" ? "" : ` (rests on ${basisName(difference.basis)})`}`,
    );
  const ids = [
    ...new Set(
      onAssumption.flatMap((difference) =>
        difference.basis.tier === "assumption" && difference.basis.ids.length > 0
          ? difference.basis.ids
          : [basisName(difference.basis)],
      ),
    ),
  ].join(", ");
  const results = [
    ledger.record("consumer_assumption", "assumption", onAssumption.length === 0, step, {
      ...common,
      fails: true,
      message:
        `the consumer test "${test.name}" rests on ${ids} at interaction #${index} (${interaction.operation} ` +
        `${interaction.request.method} ${interaction.request.path}), which ${about.by} does not ` +
        `keep:\n${lines(onAssumption).join("\n")}`,
      expected: onAssumption.map((difference) => `${difference.what}: ${difference.expected}`).join("; "),
      actual: onAssumption.map((difference) => `${difference.what}: ${difference.actual}`).join("; "),
    }),
  ];
  if (about.by === "the service") {
    results.push(
      ledger.record("consumer_fact", "fact", onFact.length === 0, step, {
        ...common,
        message:
          `a defect of the service: at interaction #${index} of the consumer test "${test.name}" ` +
          `(${interaction.operation} ${interaction.request.method} ${interaction.request.path}) it breaks a ` +
          `documented fact the client rests on:\n${lines(onFact).join("\n")}`,
        expected: onFact.map((difference) => `${difference.what}: ${difference.expected}`).join("; "),
        actual: onFact.map((difference) => `${difference.what}: ${difference.actual}`).join("; "),
      }),
    );
  }
  return results;
}

/**
 * Each test's verdict, from the results that name it. A test one of whose interactions could not be sent (an id
 * it needs never came, a request got no answer) did not run as the client runs it: it is not run, never passed,
 * unless another of its interactions already failed it.
 */
export function testVerdicts(
  tests: UsageTest[],
  results: CheckResult[],
  skipped: Map<string, string>,
): UsageVerdicts["tests"] {
  return tests.map((test) => {
    const own = results.filter((result) => result.consumerTest === test.name);
    const unsent = own.find(
      (result) => result.status === "skipped" && result.check === "consumer_assumption" && result.step !== test.name,
    );
    const reason =
      skipped.get(test.name) ??
      (unsent
        ? `${unsent.step.slice(test.name.length).replace(/^ › /, "")}: ${unsent.message ?? "not sent"}`
        : undefined);
    const result = own.some((entry) => entry.status === "failed")
      ? "failed"
      : reason !== undefined
        ? "skipped"
        : "passed";
    return {
      name: test.name,
      result,
      interactions: test.interactions.length,
      restsOn: restsOn(test),
      ...(reason !== undefined ? { reason } : {}),
    };
  });
}
