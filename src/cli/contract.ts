#!/usr/bin/env node
/**
 * `npm run contract`: runs the contract scenario against an implementation, or checks a recording of traffic.
 * The edge of the program: it reads argv, the environment and the recording once, prints progress on standard
 * error, writes the report, and sets the exit code (0 the contract holds, 1 it does not, 2 usage error, an
 * unreachable implementation, or a recording that cannot be read or holds nothing to check).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { createContract } from "../contract/create-contract.ts";
import { sortedJson } from "../contract/profile/infer-json-schema.ts";
import { readServiceProfileFile } from "../contract/profile/read-service-profile.ts";
import type { ServiceProfile } from "../contract/profile/service-profile.ts";
import { checkRecording } from "../contract/recording/check-recording.ts";
import { readRecording } from "../contract/recording/read-recording.ts";
import { renderJsonReport } from "../contract/runner/reporters/json-reporter.ts";
import { renderJunitReport } from "../contract/runner/reporters/junit-reporter.ts";
import { createProgressPrinter, renderTextReport } from "../contract/runner/reporters/text-reporter.ts";
import { readProxySettings, shownAddress, usesProxy } from "../contract/runner/proxy-settings.ts";
import { runContract } from "../contract/runner/run-contract.ts";
import type { RunReport } from "../contract/runner/run-report.ts";
import { judgeUsageOffline } from "../contract/usage/judge-usage-offline.ts";
import { readUsageFile } from "../contract/usage/read-usage-document.ts";
import { replayUsage } from "../contract/usage/replay-usage.ts";
import type { UsageDocument } from "../contract/usage/usage-document.ts";
import {
  CONTRACT_USAGE,
  parseContractArgs,
  type RecordingCommand,
  type ReporterName,
  type ServiceCommand,
  type UsageCommand,
} from "./parse-contract-args.ts";
import { commandOrExit } from "./command-or-exit.ts";
import { writePactFile } from "../contract/usage/write-pact-file.ts";
import { AnswersCollector } from "../contract/usage/collect-answers.ts";
import type { AnswersDocument } from "../contract/usage/answers-document.ts";
import { renderRerunJunit, renderRerunText, rerunVerdicts } from "../contract/usage/rerun-verdicts.ts";
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";

const progress = (line: string) => process.stderr.write(`${line}\n`);
/** A usage error, an unreachable implementation or an unusable recording: the message, and exit code 2. */
function fail(message: string): never {
  console.error(message);
  process.exit(2);
}

const command = commandOrExit(parseContractArgs(process.argv.slice(2), process.env), CONTRACT_USAGE);
const contract = createContract();
if (command.kind === "pact") {
  const written = writePactFile(command.usage, command.writePact, contract);
  if (!written.ok)
    fail(
      written.at === "usage"
        ? `The usage ${command.usage} is refused:\n  ${written.problems.join("\n  ")}`
        : `The pact ${command.writePact} cannot be written:\n  ${written.problems.join("\n  ")}`,
    );
  if (!command.quiet)
    progress(`Pact written to ${command.writePact} (${written.interactions} interactions of ${written.tests} tests)`);
  // A pact missing calls the client makes verifies more than it should: say so even with --quiet.
  if (written.truncated)
    progress(
      "Warning: the usage was cut at a recording bound; the pact lacks the calls past it " +
        `(see metadata."property-listing-kit".truncated).`,
    );
  process.exit(0);
}
const profile = command.profile === undefined ? undefined : readProfile(command.profile);
let recorded: ServiceProfile | undefined;
const report =
  command.kind === "recording"
    ? checkRecordingFile(command)
    : command.kind === "usage"
      ? await runUsage(command)
      : await runAgainstService(command);
if (command.writeProfile && recorded && !report.interrupted) {
  writeFileSync(command.writeProfile, sortedJson(recorded));
  progress(
    `Service profile written to ${command.writeProfile} (${Object.keys(recorded.observations).length} observations)`,
  );
}

const textOptions = command.jsonReport ? { jsonReport: command.jsonReport } : {};
const renderers: Record<ReporterName, (report: RunReport) => string> = {
  text: (report) => renderTextReport(report, textOptions),
  junit: renderJunitReport,
  json: renderJsonReport,
};
const rendered = renderers[command.reporter](report);
if (command.jsonReport) writeFileSync(command.jsonReport, renderJsonReport(report));
if (command.output) {
  writeFileSync(command.output, rendered);
  const failures = report.results.filter((result) => result.status === "failed").length;
  progress(
    `${report.result === "passed" ? "Contract HOLDS" : "Contract BROKEN"} ` +
      `(${failures} failure${failures === 1 ? "" : "s"}); ${command.reporter} report written to ${command.output}`,
  );
} else {
  process.stdout.write(rendered);
}
if (report.interrupted) {
  const leftBehind =
    report.leftBehind.length > 0
      ? `; left behind: ${report.leftBehind.join(", ")}`
      : ", and deleted what it had created";
  progress(`Interrupted: the run stopped before its end${leftBehind}.`);
  process.exitCode = 130;
} else if (report.clash) {
  progress(`No verdict: ${report.clash}. Run again when no other run uses the account.`);
  process.exitCode = 2;
} else {
  process.exitCode = report.result === "passed" ? 0 : 1;
}

/**
 * A consumer's usage, read all or nothing (exit 2 naming the file): replayed against the service, or judged
 * against the profile alone with no request sent.
 */
async function runUsage(command: UsageCommand): Promise<RunReport> {
  const read = readUsageFile(command.file, new Set(contract.operations.map((operation) => operation.id)));
  if (!read.ok) return fail(`The usage file ${command.file} is refused:\n  ${read.problems.join("\n  ")}`);
  const interactions = read.usage.tests.reduce((sum, test) => sum + test.interactions.length, 0);
  const what = `${read.usage.tests.length} tests, ${interactions} interactions of ${read.usage.consumer}`;
  if (command.rerun !== undefined || command.writeAnswers !== undefined) return answerUsage(command, read.usage, what);
  if (!command.service) {
    if (!command.quiet)
      progress(
        `Judging the usage ${command.file} (${what}) against the profile ${command.profile} ` +
          `(run ${profile!.runId}, recorded ${profile!.recordedAt}); no request is sent`,
      );
    const outcome = judgeUsageOffline({
      usage: read.usage,
      file: command.file,
      profile: profile!,
      profileFile: command.profile!,
      strict: command.strict,
      contract,
      ...(command.quiet ? {} : { onEvent: createProgressPrinter(progress) }),
    });
    if (outcome.kind !== "report") return fail(outcome.message);
    return outcome.report;
  }
  return runAgainstService(command.service, { usage: read.usage, file: command.file, what });
}

async function runAgainstService(
  command: ServiceCommand,
  usage?: { usage: UsageDocument; file: string; what: string; answers?: AnswersCollector },
): Promise<RunReport> {
  const strict = command.strict ? " (strict)" : "";
  const fuzz = command.fuzz ? `, then ${command.fuzz} generated cases per operation` : "";
  if (!command.quiet && usage)
    progress(`Replaying the usage ${usage.file} (${usage.what}) against ${shownAddress(command.baseUrl)}${strict}`);
  else if (!command.quiet)
    progress(`Running the contract scenario against ${shownAddress(command.baseUrl)}${strict}${fuzz}`);
  // Ctrl-C stops the run; it still deletes what it created. A second Ctrl-C stops at once.
  // One Ctrl-C can arrive more than once: from the terminal to the whole process group, and relayed by npm (or
  // by tsx, running the sources). Only a signal a second or more after the first is a second Ctrl-C.
  // The proxies, read once here as curl reads them (HTTP_PROXY, HTTPS_PROXY, ALL_PROXY, NO_PROXY, either case).
  const proxy = readProxySettings(process.env);
  if (usesProxy(proxy) && !command.quiet) {
    const through = [
      proxy.httpProxy && `http:// through ${shownAddress(proxy.httpProxy)}`,
      proxy.httpsProxy && `https:// through ${shownAddress(proxy.httpsProxy)}`,
    ]
      .filter(Boolean)
      .join(", ");
    progress(`Proxies: ${through}${proxy.noProxy ? `; directly: ${proxy.noProxy}` : ""}`);
  }
  const interrupt = new AbortController();
  let firstSignal = 0;
  const onSignal = () => {
    if (interrupt.signal.aborted) {
      if (Date.now() - firstSignal >= 1000) process.exit(130);
      return;
    }
    firstSignal = Date.now();
    progress("Interrupted: deleting what the run created (Ctrl-C again to stop at once)…");
    interrupt.abort();
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  const shared = {
    signal: interrupt.signal,
    skipSeatChecks: command.skipSeatChecks,
    ...(command.publicBaseUrl !== undefined ? { publicBaseUrl: command.publicBaseUrl } : {}),
    revealCredentials: command.showCredentials,
    ...(command.other ? { other: command.other } : {}),
    ...(command.fresh ? { fresh: command.fresh } : {}),
    baseUrl: command.baseUrl,
    apiKey: command.apiKey,
    token: command.token,
    strict: command.strict,
    timeoutMs: command.timeoutMs,
    proxy,
    ...(command.runId ? { runId: command.runId } : {}),
    ...(command.quiet ? {} : { onEvent: createProgressPrinter(progress) }),
    contract,
  };
  const outcome = usage
    ? await replayUsage({
        ...shared,
        usage: usage.usage,
        file: usage.file,
        ...(usage.answers ? { answers: usage.answers } : {}),
      })
    : await runContract({
        ...shared,
        ...(command.fuzz ? { fuzz: command.fuzz } : {}),
        ...(command.seed !== undefined ? { seed: command.seed } : {}),
        ...(profile ? { profile } : {}),
        ...(command.writeProfile ? { recordProfile: true } : {}),
      });
  process.off("SIGINT", onSignal);
  process.off("SIGTERM", onSignal);
  if (outcome.kind !== "report") return fail(outcome.message);
  recorded = outcome.profile;
  return outcome.report;
}

/**
 * `--write-answers` and `--rerun`: the usage replayed against the service (or, offline, against the mock playing
 * the profile, in this process: nothing is sent to the service), what it answered written, then with `--rerun`
 * the consumer's own test command run against those answers, and one verdict per consumer test. The replay's
 * report stands when there is no `--rerun`; with it, the process ends here with the re-run's exit code.
 */
async function answerUsage(command: UsageCommand, usage: UsageDocument, what: string): Promise<RunReport> {
  const collector = new AnswersCollector(usage);
  let report: RunReport;
  let source: AnswersDocument["source"];
  if (command.service) {
    report = await runAgainstService(command.service, { usage, file: command.file, what, answers: collector });
    source = { kind: "service", baseUrl: command.service.baseUrl };
  } else {
    // The mock and the re-run are loaded here, for the one command that uses them: every other run starts without
    // the mock's modules.
    const { createMockServer } = await import("../hosts/node/create-mock-server.ts");
    const played = createMockServer({ profile: profile!, quiet: true });
    const { url } = await played.listen(0, "127.0.0.1");
    if (!command.quiet)
      progress(
        `Replaying the usage ${command.file} (${what}) against the mock playing the profile ${command.profile}; ` +
          "no request is sent to the service",
      );
    try {
      const offline: ServiceCommand = {
        kind: "service",
        baseUrl: url,
        apiKey: "demo-key",
        token: "demo-token",
        other: { apiKey: "broker-key", token: "broker-token" },
        fresh: { apiKey: "fresh-key", token: "fresh-token" },
        timeoutMs: 10_000,
        skipSeatChecks: false,
        showCredentials: false,
        strict: command.strict,
        reporter: command.reporter,
        quiet: true,
      };
      report = await runAgainstService(offline, { usage, file: command.file, what, answers: collector });
    } finally {
      await played.close();
    }
    source = { kind: "profile", profile: command.profile!, runId: profile!.runId, recordedAt: profile!.recordedAt };
  }
  if (report.interrupted) return report;
  const answers = collector.document(source);
  if (command.writeAnswers !== undefined) {
    try {
      // Its folder is made, as a CI job's output folder often does not exist yet.
      mkdirSync(dirname(command.writeAnswers), { recursive: true });
      writeFileSync(command.writeAnswers, `${JSON.stringify(answers, null, 2)}\n`);
    } catch (error) {
      return fail(`Cannot write the answers to ${command.writeAnswers} (--write-answers): ${(error as Error).message}`);
    }
    if (!command.quiet) progress(`The service's answers written to ${command.writeAnswers}`);
  }
  if (command.rerun === undefined) return report;
  if (!command.quiet)
    progress(
      `Running the test command against the service's answers` +
        `${command.writeAnswers === undefined ? " (a temporary file; --write-answers keeps them)" : ""}: ` +
        command.rerun,
    );
  const { rerunSuite } = await import("./rerun-suite.ts");
  // Without --write-answers, the answers live in the rerun's own temporary folder, removed with it.
  const ran = await rerunSuite(command.rerun, command.writeAnswers ?? answers);
  if (ran.results.length === 0) {
    fail(
      `The test command reported no test (exit code ${ran.exitCode ?? "none: it could not start"}): ` +
        "--rerun runs a suite that loads property-listing-kit/vitest (setupFiles) and records its usage " +
        "as the docs show (docs/consumer-contracts.md).",
    );
  }
  const outcome = rerunVerdicts(answers, report, ran.results, command.rerun);
  const rendered =
    command.reporter === "junit"
      ? renderRerunJunit(outcome)
      : command.reporter === "json"
        ? `${JSON.stringify(outcome, null, 2)}\n`
        : renderRerunText(outcome);
  if (command.jsonReport)
    writeFileSync(command.jsonReport, `${JSON.stringify({ rerun: outcome, replay: report }, null, 2)}\n`);
  if (command.output) writeFileSync(command.output, rendered);
  else process.stdout.write(rendered);
  if (command.output || command.reporter !== "text") progress(renderRerunText(outcome).trimEnd());
  process.exit(outcome.exitCode);
}

/** The --profile file, or exit 2 naming every entry at fault: a profile is used whole or not at all. */
function readProfile(file: string): ServiceProfile {
  const read = readServiceProfileFile(file, contract.document);
  if (!read.ok) fail(`The service profile ${file} is refused:\n  ${read.problems.join("\n  ")}`);
  if (!command.quiet && command.kind !== "usage")
    progress(
      `Holding the service to the profile ${file} (run ${read.profile.runId}, recorded ${read.profile.recordedAt})`,
    );
  return read.profile;
}

function checkRecordingFile(command: RecordingCommand): RunReport {
  let text: string;
  try {
    text = readFileSync(command.file, "utf8");
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === "ENOENT" ? "no such file" : (error as Error).message;
    return fail(`Cannot read the recording ${command.file}: ${reason}`);
  }
  const read = readRecording(text);
  if (!read.ok) return fail(`${command.file} is not a recording: ${read.message}`);
  if (!command.quiet)
    progress(
      `Checking the recording ${command.file} (${read.exchanges.length} entries) against the contract` +
        (command.strict ? " (strict)" : ""),
    );
  const outcome = checkRecording(read.exchanges, {
    source: command.file,
    strict: command.strict,
    contract,
    ...(command.baseUrl ? { baseUrl: command.baseUrl } : {}),
    ...(command.quiet ? {} : { onEvent: createProgressPrinter(progress) }),
    ...(profile ? { profile } : {}),
    ...(command.writeProfile ? { recordProfile: true } : {}),
  });
  if (outcome.kind !== "report") return fail(outcome.message);
  recorded = outcome.profile;
  return outcome.report;
}
