import { usageInProcess } from "../usage/usage-registry.ts";
import type { NotCovered } from "./answers-server.ts";

/** The file a test's result is added to, one JSON line per test, while answers are served (`--rerun` sets it). */
export const RESULTS_VARIABLE = "MOCK_ANSWERS_RESULTS";

/** One test's own result, as `property-listing-contract --rerun` reads it. */
export interface TestResultLine {
  test: string;
  state: "pass" | "fail" | "skip";
  /**
   * The test's errors, as the runner gave them: `TypeError: Cannot read properties of null (reading 'toUpperCase')`.
   */
  errors: string[];
  /** The test's requests the service's answers did not cover. */
  notCovered: NotCovered[];
}

/**
 * Adds a finished test's result to the file {@link RESULTS_VARIABLE} names, when it names one (the test runner's
 * hook calls it: `property-listing-kit/vitest`). Appended as one line, so that test files run in parallel
 * processes each add theirs whole. Nothing without the variable, or where there is no file system (a browser).
 */
export function reportTestResult(
  test: string,
  state: string | undefined,
  errors: Array<{ name?: string; message?: string } | undefined>,
): void {
  const processObject = (
    globalThis as {
      process?: { env?: Record<string, string | undefined>; getBuiltinModule?: (name: string) => unknown };
    }
  ).process;
  const file = processObject?.env?.[RESULTS_VARIABLE];
  if (!file) return;
  const fs = processObject?.getBuiltinModule?.("node:fs") as
    | { appendFileSync(file: string, text: string): void }
    | undefined;
  if (!fs) return;
  const notCovered: NotCovered[] = [];
  for (const usage of usageInProcess()) {
    const served = (usage as { notCovered?: (test: string) => NotCovered[] }).notCovered;
    if (typeof served === "function") notCovered.push(...served.call(usage, test));
  }
  const line: TestResultLine = {
    test,
    state: state === "pass" ? "pass" : state === "fail" ? "fail" : "skip",
    errors: errors.map((error) =>
      error
        ? `${error.name && error.name !== "Error" ? `${error.name}: ` : ""}${error.message ?? ""}`
            .split("\n")[0]!
            .slice(0, 1000)
        : "",
    ),
    notCovered,
  };
  fs.appendFileSync(file, `${JSON.stringify(line)}\n`);
}
