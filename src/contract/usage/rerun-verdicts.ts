import type { RunReport } from "../runner/run-report.ts";
import { answerDifferences, likelyCauses } from "./answer-differences.ts";
import type { AnswersDocument } from "./answers-document.ts";

/** One consumer test's own result against the service's answers, as `--rerun` reads it from the suite. */
export interface SuiteTestResult {
  test: string;
  state: "pass" | "fail" | "skip";
  errors: string[];
  notCovered: Array<{ method: string; path: string; reason: string }>;
}

/** The verdict of one consumer test: its own result against the service's answers, explained by the replay. */
export interface RerunVerdict {
  name: string;
  /** `held`: the test passed on the service's answers; `broke`: it failed; `not-run`: the suite did not run it. */
  result: "held" | "broke" | "not-run";
  /** The test's own errors, when it broke. */
  errors: string[];
  /**
   * Where the service answered otherwise than the mock, in what the client could trip on (the likeliest cause first).
   */
  answered: string[];
  /** What the replay's judgement found for this test. */
  differences: string[];
  /** Its requests the service's answers did not cover (answered as the mock would). */
  notCovered: Array<{ method: string; path: string; reason: string }>;
  /** One line: `broke: <error> — <differences>`. */
  explanation: string;
}

/** Every consumer test's verdict, the tests of the usage in order; the exit code the runner gives for them. */
export interface RerunOutcome {
  consumer: string;
  command: string;
  verdicts: RerunVerdict[];
  /** Tests the suite ran that the usage does not hold (not judged). */
  unknownTests: string[];
  exitCode: 0 | 1;
}

/**
 * Judges a re-run: each consumer test of the usage is what the suite's own test did against the service's
 * answers (a test that passed holds, whatever differed), explained by the replay's differences for that test.
 */
export function rerunVerdicts(
  answers: AnswersDocument,
  replay: RunReport,
  results: SuiteTestResult[],
  command: string,
): RerunOutcome {
  const byName = new Map<string, SuiteTestResult>();
  for (const result of results) byName.set(result.test, result);
  const verdicts = answers.usage.tests.map((test, t): RerunVerdict => {
    const servedTest =
      answers.tests[t]?.name === test.name
        ? answers.tests[t]
        : answers.tests.find((candidate) => candidate.name === test.name);
    const served = servedTest?.interactions ?? [];
    const differences = [
      ...new Set(
        replay.results
          .filter((result) => result.consumerTest === test.name && result.status === "failed")
          .map(differenceOf),
      ),
    ];
    const ran = byName.get(test.name);
    const notCovered = ran?.notCovered ?? [];
    const error = ran?.errors[0] ?? "the test failed";
    const answered = likelyCauses(answerDifferences(test.interactions, served), error).map(
      (difference) => difference.text,
    );
    const verdict = (result: RerunVerdict["result"], explanation: string, errors: string[] = []): RerunVerdict => ({
      name: test.name,
      result,
      errors,
      answered,
      differences,
      notCovered,
      explanation,
    });
    if (!ran || ran.state === "skip") return verdict("not-run", "not run: the test command did not run this test");
    // A test some of whose requests the service was never asked passed partly on the mock's answers: not a pass.
    const unsent = served.filter((answer) => "notSent" in answer) as Array<{ operation: string; notSent: string }>;
    const notReplayed = servedTest?.notReplayed;
    if (ran.state === "pass" && (unsent.length > 0 || notReplayed !== undefined)) {
      const why =
        notReplayed ??
        `${unsent.length} of its ${served.length} requests could not be sent to the service (${unsent[0]!.notSent})`;
      return verdict("not-run", `not run against the service: ${why}; it passed on the mock's answers there`);
    }
    if (ran.state === "pass") {
      const seen = answered.length > 0 ? answered : differences;
      const note =
        seen.length > 0
          ? ` (the service answered otherwise than the mock, and the test did not notice: ` +
            `${seen[0]}${seen.length > 1 ? ` and ${seen.length - 1} more` : ""})`
          : "";
      return verdict("held", `held${note}`);
    }
    const causes = answered.length > 0 ? answered : differences;
    const why =
      causes.length > 0
        ? ` — ${causes.slice(0, 3).join("; ")}${causes.length > 3 ? `; and ${causes.length - 3} more` : ""}`
        : notCovered.length > 0
          ? ` — requests not covered by the service's answers: ` +
            `${notCovered.map((call) => `${call.method} ${call.path}`).join(", ")}`
          : "";
    return verdict("broke", `broke: ${error}${why}`, ran.errors);
  });
  const known = new Set(answers.usage.tests.map((test) => test.name));
  const unknownTests = [...byName.keys()].filter((name) => !known.has(name));
  return {
    consumer: answers.consumer,
    command,
    verdicts,
    unknownTests,
    exitCode: verdicts.every((verdict) => verdict.result === "held") ? 0 : 1,
  };
}

function differenceOf(result: RunReport["results"][number]): string {
  return (result.message ?? `${result.check} failed`).split("\n")[0]!;
}

/** The re-run as text, one line per consumer test, then what the answers did not cover. */
export function renderRerunText(outcome: RerunOutcome): string {
  const marks = { held: "✓", broke: "✗", "not-run": "–" } as const;
  const lines = [`Consumer ${outcome.consumer}: each test run against the service's answers (${outcome.command})`, ""];
  for (const verdict of outcome.verdicts)
    lines.push(`${marks[verdict.result]} ${verdict.name}`, `    ${verdict.explanation}`);
  const uncovered = outcome.verdicts.flatMap((verdict) =>
    verdict.notCovered.map((call) => `${verdict.name}: ${call.method} ${call.path} (${call.reason})`),
  );
  if (uncovered.length > 0)
    lines.push(
      "",
      "Not covered by the service's answers (answered as the mock would):",
      ...uncovered.map((line) => `  ${line}`),
    );
  if (outcome.unknownTests.length > 0)
    lines.push("", `Not in the usage, not judged: ${outcome.unknownTests.join(", ")}`);
  const count = (result: RerunVerdict["result"]) =>
    outcome.verdicts.filter((verdict) => verdict.result === result).length;
  lines.push("", `${count("held")} held, ${count("broke")} broke, ${count("not-run")} not run`);
  return `${lines.join("\n")}\n`;
}

/** The re-run as JUnit: one testcase per consumer test. */
export function renderRerunJunit(outcome: RerunOutcome): string {
  const escapeXml = (text: string) =>
    text
      .replace(/&/g, "&amp;")
      .replace(/</g, "&lt;")
      .replace(/>/g, "&gt;")
      .replace(/"/g, "&quot;")
      .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, "");
  const broke = outcome.verdicts.filter((verdict) => verdict.result === "broke").length;
  const skipped = outcome.verdicts.filter((verdict) => verdict.result === "not-run").length;
  const cases = outcome.verdicts.map((verdict) => {
    const open = `    <testcase classname="${escapeXml(outcome.consumer)}" name="${escapeXml(verdict.name)}"`;
    if (verdict.result === "held") return `${open}/>`;
    if (verdict.result === "not-run")
      return `${open}>\n      <skipped message="${escapeXml(verdict.explanation)}"/>\n    </testcase>`;
    return (
      `${open}>\n      <failure ` +
      `message="${escapeXml(verdict.explanation)}">` +
      `${escapeXml([...verdict.errors, ...verdict.answered, ...verdict.differences].join("\n"))}</failure>\n ` +
      `   </testcase>`
    );
  });
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites>\n  <testsuite name="${escapeXml(outcome.consumer)} ` +
    `against the service's answers" tests="${outcome.verdicts.length}" failures="${broke}" ` +
    `skipped="${skipped}">\n${cases.join("\n")}\n  </testsuite>\n</testsuites>\n`
  );
}
