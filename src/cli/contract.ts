#!/usr/bin/env node
/**
 * `npm run contract`: runs the contract scenario against an implementation. The edge of the program: it reads
 * argv and the environment once, prints progress on standard error, writes the report, and sets the exit code
 * (0 the contract holds, 1 it does not, 2 usage error or unreachable implementation).
 */
import { writeFileSync } from "node:fs";
import { renderJsonReport } from "../contract/runner/reporters/json-reporter.ts";
import { renderJunitReport } from "../contract/runner/reporters/junit-reporter.ts";
import { createProgressPrinter, renderTextReport } from "../contract/runner/reporters/text-reporter.ts";
import { runContract } from "../contract/runner/run-contract.ts";
import type { RunReport } from "../contract/runner/run-report.ts";
import { CONTRACT_USAGE, parseContractArgs, type ReporterName } from "./parse-contract-args.ts";

const parsed = parseContractArgs(process.argv.slice(2), process.env);
if (parsed.kind === "help") {
  console.log(CONTRACT_USAGE);
  process.exit(0);
}
if (parsed.kind === "error") {
  console.error(`${parsed.message}\n\n${CONTRACT_USAGE}`);
  process.exit(2);
}
const { command } = parsed;
const progress = (line: string) => process.stderr.write(`${line}\n`);
if (!command.quiet) progress(`Running the contract scenario against ${command.baseUrl}${command.strict ? " (strict)" : ""}`);

const outcome = await runContract({
  baseUrl: command.baseUrl,
  apiKey: command.apiKey,
  token: command.token,
  strict: command.strict,
  timeoutMs: command.timeoutMs,
  ...(command.runId ? { runId: command.runId } : {}),
  ...(command.quiet ? {} : { onEvent: createProgressPrinter(progress) }),
});
if (outcome.kind === "unreachable") {
  console.error(outcome.message);
  process.exit(2);
}

const renderers: Record<ReporterName, (report: RunReport) => string> = { text: renderTextReport, junit: renderJunitReport, json: renderJsonReport };
const rendered = renderers[command.reporter](outcome.report);
if (command.output) {
  writeFileSync(command.output, rendered);
  const failures = outcome.report.results.filter((result) => result.status === "failed").length;
  progress(`${outcome.report.result === "passed" ? "Contract HOLDS" : "Contract BROKEN"} (${failures} failures); ${command.reporter} report written to ${command.output}`);
} else {
  process.stdout.write(rendered);
}
process.exitCode = outcome.report.result === "passed" ? 0 : 1;
