import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { AnswersDocument } from "../contract/usage/answers-document.ts";
import type { SuiteTestResult } from "../contract/usage/rerun-verdicts.ts";
import { RESULTS_VARIABLE } from "../mock/answers/report-test-result.ts";

/**
 * Runs a consumer's test command (a shell line) with `MOCK_ANSWERS` naming the service's answers, and reads back
 * each test's own result, which `property-listing-kit/vitest` adds to the file `MOCK_ANSWERS_RESULTS` names. The
 * command's output goes to standard error, so that a report on standard output stays alone there. `answers` is
 * the file that holds them, or the document itself, written in the run's temporary folder and removed with it.
 */
export async function rerunSuite(
  command: string,
  answers: string | AnswersDocument,
): Promise<{ exitCode: number | null; results: SuiteTestResult[] }> {
  const folder = mkdtempSync(join(tmpdir(), "plk-rerun-"));
  const resultsFile = join(folder, "results.jsonl");
  try {
    let answersFile = answers;
    if (typeof answersFile !== "string") {
      answersFile = join(folder, "answers.json");
      writeFileSync(answersFile, JSON.stringify(answers));
    }
    const exitCode = await new Promise<number | null>((done) => {
      const child = spawn(command, {
        shell: true,
        stdio: ["ignore", "pipe", "pipe"],
        env: { ...process.env, MOCK_ANSWERS: resolve(answersFile), [RESULTS_VARIABLE]: resultsFile },
      });
      child.stdout.pipe(process.stderr, { end: false });
      child.stderr.pipe(process.stderr, { end: false });
      child.once("error", () => done(null));
      child.once("close", (code) => done(code));
    });
    let text = "";
    try {
      text = readFileSync(resultsFile, "utf8");
    } catch {
      text = "";
    }
    const results = text
      .split("\n")
      .filter((line) => line.trim() !== "")
      .map((line) => JSON.parse(line) as SuiteTestResult);
    return { exitCode, results };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
