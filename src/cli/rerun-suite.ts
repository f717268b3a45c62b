import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { SuiteTestResult } from "../contract/usage/rerun-verdicts.ts";
import { RESULTS_VARIABLE } from "../mock/answers/report-test-result.ts";

/**
 * Runs a consumer's test command (a shell line) with `MOCK_ANSWERS` naming the service's answers, and reads back
 * each test's own result, which `property-listing-kit/vitest` adds to the file `MOCK_ANSWERS_RESULTS` names. The
 * command's output goes to standard error, so that a report on standard output stays alone there.
 */
export async function rerunSuite(
  command: string,
  answersFile: string,
): Promise<{ exitCode: number | null; results: SuiteTestResult[] }> {
  const folder = mkdtempSync(join(tmpdir(), "plk-rerun-"));
  const resultsFile = join(folder, "results.jsonl");
  try {
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
