/**
 * The example consumer of examples/consumer, end to end, as a frontend team and its backend team would use it: its
 * vitest suite runs against the kit's MSW handlers and records its usage; the usage then says what each test
 * rests on, is replayed against the independent implementation of the service (which answers errors its own way),
 * judged against that service's profile with nothing sent, and, recorded again against the mock playing that
 * profile back, replayed against the service and against a variant of it that answers errors otherwise.
 */
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunReport, UsageVerdicts } from "../../src/contract/runner/run-report.ts";
import { readUsageFile } from "../../src/contract/usage/read-usage-document.ts";
import type { UsageDocument } from "../../src/contract/usage/usage-document.ts";
import { sharedContract } from "../support/mock-harness.ts";
import { startIndependentService, type IndependentService } from "../support/independent-service/index.ts";
import { CONTRACT_BIN, credentialsEnv, runCli } from "../support/run-contract-cli.ts";
import { exampleConsumerProject, runExampleSuite as runSuite } from "../support/example-consumer.ts";
import { PACKAGE_ROOT } from "../support/start-process.ts";

const SEATS_TEST = "a full account > shows the seats-full screen when the account has no seat left";
const HEADER_TEST = "my listings > creates a listing, renames it and shows its header";
const CREATE_TEST = "my listings > creates a listing and finds it under its new title";
const TESTS = [
  "my listings > lists the account's properties",
  "my listings > creates a listing and finds it under its new title",
  HEADER_TEST,
  "agents > adds an agent",
  SEATS_TEST,
];

let project = "";
let service: IndependentService;
let env: NodeJS.ProcessEnv = {};

/** Runs the example's suite as its team does (`vitest run`), writing the usage to `usageFile`. */
const runExampleSuite = (usageFile: string, extra: NodeJS.ProcessEnv = {}) => runSuite(project, usageFile, extra);

const contract = (args: string[], extra: NodeJS.ProcessEnv = {}) =>
  runCli("node", [CONTRACT_BIN, ...args], { ...env, ...extra });

/** The verdicts of a run, from its JSON report. */
const verdictsOf = (file: string): UsageVerdicts => (JSON.parse(readFileSync(file, "utf8")) as RunReport).usage!;
const failedTests = (verdicts: UsageVerdicts) =>
  verdicts.tests.filter((test) => test.result === "failed").map((test) => test.name);

beforeAll(async () => {
  // The example as its own project: its files, and its dependencies resolved as an install would resolve them.
  project = exampleConsumerProject();
  service = await startIndependentService();
  env = credentialsEnv(service.accounts);
}, 120_000);
afterAll(async () => {
  await service?.close();
  if (project) rmSync(project, { recursive: true, force: true });
});

describe("the example consumer against the plain mock", () => {
  let usageFile = "";
  let usage: UsageDocument;

  beforeAll(async () => {
    usageFile = join(project, "usage.json");
    const run = await runExampleSuite(usageFile);
    expect(run.code, run.output).toBe(0);
    const read = readUsageFile(usageFile, new Set(sharedContract().operations.map((operation) => operation.id)));
    if (!read.ok) throw new Error(read.problems.join("\n"));
    usage = read.usage;
  }, 180_000);

  it("records each test of the suite, in order, with what its answers rest on", () => {
    expect(usage.consumer).toBe("listing-web");
    expect(usage.tests.map((test) => test.name)).toEqual(TESTS);
    const seats = usage.tests.find((test) => test.name === SEATS_TEST)!;
    expect(seats.start).toEqual({ kind: "named", name: "seats-full" });
    expect(seats.interactions.map((interaction) => [interaction.operation, interaction.response.status])).toEqual([
      ["createAgentCard", 402],
    ]);
    expect(seats.interactions[0]!.basis.status).toMatchObject({ tier: "assumption", ids: ["seat-limit-status"] });
    const created = usage.tests[1]!.interactions;
    expect(created.map((interaction) => interaction.operation)).toEqual([
      "createProperty",
      "editProperty",
      "retrieveProperty",
    ]);
    expect(created[1]!.bindings).toContainEqual({ at: "/params/nid", from: "answer", interaction: 0, pointer: "/nid" });
    expect(created[0]!.basis.status).toEqual({ tier: "fact" });
    expect(readFileSync(usageFile, "utf8")).not.toContain("demo-token");
  });

  it("gives the same bytes when the suite runs again", async () => {
    const again = join(project, "usage-again.json");
    const run = await runExampleSuite(again);
    expect(run.code, run.output).toBe(0);
    expect(readFileSync(again, "utf8")).toBe(readFileSync(usageFile, "utf8"));
  }, 180_000);

  it("fails on the service the tests resting on the mock's own answers (seat-limit-status, …)", async () => {
    const report = join(project, "replay.json");
    const { code, stdout, stderr } = await contract([
      "--usage",
      usageFile,
      "--base-url",
      service.url,
      "--json-report",
      report,
    ]);
    expect(code, `${stdout}\n${stderr}`).toBe(1);
    const verdicts = verdictsOf(report);
    expect(verdicts.tests.map((test) => test.name)).toEqual(TESTS);
    expect(failedTests(verdicts)).toEqual([CREATE_TEST, HEADER_TEST, SEATS_TEST]);
    // The service answers null for the fields no request set (section 2.1), where the mock filled its own.
    expect(verdicts.tests.find((test) => test.name === CREATE_TEST)!.restsOn).toContain("never-set-defaults");
    expect(stdout).toContain("the service answered null (rests on never-set-defaults)");
    expect(verdicts.tests.find((test) => test.name === SEATS_TEST)!.restsOn).toContain("seat-limit-status");
    expect(stdout).toContain("seat-limit-status");
    for (const secret of Object.values(service.accounts).flatMap((account) => [account.apiKey, account.token]))
      expect(`${stdout}${stderr}`).not.toContain(secret);
  }, 120_000);
});

describe("the example consumer re-run against the service's answers", () => {
  /** The example's own test command, as its CI would give it to --rerun. */
  const testCommand = (usageFile: string) =>
    `cd '${project}' && USAGE_FILE='${usageFile}' '${process.execPath}' ` +
    `'${join(PACKAGE_ROOT, "node_modules", "vitest", "vitest.mjs")}' run`;

  it("breaks only the test upper-casing the never-set country, naming error and null; usage unchanged", async () => {
    const usageFile = join(project, "usage.json");
    const recorded = readFileSync(usageFile, "utf8");
    const answersFile = join(project, "answers.json");
    const report = join(project, "rerun.json");
    const { code, stdout, stderr } = await contract([
      "--usage",
      usageFile,
      "--base-url",
      service.url,
      "--write-answers",
      answersFile,
      "--rerun",
      testCommand(usageFile),
      "--reporter",
      "junit",
      "--json-report",
      report,
    ]);
    expect(code, `${stdout}\n${stderr}`).toBe(1);
    // JUnit: one testcase per consumer test, the one failure the header test.
    expect(stdout.match(/<testcase /g)).toHaveLength(TESTS.length);
    const failures = [
      ...stdout.matchAll(/<testcase classname="listing-web" name="([^"]*)">\s*<failure message="([^"]*)"/g),
    ];
    expect(failures.map((failure) => failure[1]!.replace(/&gt;/g, ">").replace(/&#39;|&apos;/g, "'"))).toEqual([
      HEADER_TEST,
    ]);
    const rerun = (
      JSON.parse(readFileSync(report, "utf8")) as {
        rerun: { verdicts: Array<{ name: string; result: string; explanation: string }> };
      }
    ).rerun;
    expect(rerun.verdicts.map((verdict) => [verdict.name, verdict.result])).toEqual(
      TESTS.map((name) => [name, name === HEADER_TEST ? "broke" : "held"]),
    );
    const broke = rerun.verdicts.find((verdict) => verdict.name === HEADER_TEST)!;
    // The likeliest cause first: a value the mock gave that has a toUpperCase, where the service answered null.
    expect(broke.explanation).toMatch(
      new RegExp(
        /^broke: TypeError: Cannot read properties of null \(reading 'toUpperCase'\) — the /.source +
          /service answered null at \/country where the mock answered "US" \(retrieveProperty/.source,
      ),
    );
    // The seats test rests on the mock's own 402 and problem+json, but the client reads the status alone: it holds.
    expect(rerun.verdicts.find((verdict) => verdict.name === SEATS_TEST)!.result).toBe("held");
    expect(readFileSync(usageFile, "utf8")).toBe(recorded);
    const written = readFileSync(answersFile, "utf8");
    for (const secret of Object.values(service.accounts).flatMap((account) => [account.apiKey, account.token])) {
      expect(written).not.toContain(secret);
      expect(`${stdout}${stderr}`).not.toContain(secret);
    }
  }, 240_000);
});

describe("the example consumer against the mock playing the service's profile back", () => {
  let profileFile = "";
  let usageFile = "";

  beforeAll(async () => {
    // The backend team records what the service does where the document is silent...
    profileFile = join(project, "service-profile.json");
    const recorded = await contract(["--base-url", service.url, "--write-profile", profileFile, "--quiet"]);
    expect([0, 1], `${recorded.stdout}\n${recorded.stderr}`).toContain(recorded.code);
    // ...and the frontend team runs its suite against the mock playing it back: the profile holds what the service
    // answers for the fields a created listing never set (null), so the crash shows offline, before it ships.
    usageFile = join(project, "usage-profiled.json");
    const run = await runExampleSuite(usageFile, { SERVICE_PROFILE: profileFile });
    expect(run.code, run.output).toBe(1);
    expect(run.output).toMatch(/1 failed/);
    expect(run.output).toContain("shows its header");
    expect(run.output).toContain("Cannot read properties of null (reading 'toUpperCase')");
  }, 240_000);

  it("rests the seats test on the profile, and holds against the service (exit 0)", async () => {
    const usage = JSON.parse(readFileSync(usageFile, "utf8")) as UsageDocument;
    const seats = usage.tests.find((test) => test.name === SEATS_TEST)!;
    expect(seats.interactions[0]!.basis.status).toEqual({ tier: "profile", point: "error.seats" });
    const report = join(project, "replay-profiled.json");
    const { code, stdout, stderr } = await contract([
      "--usage",
      usageFile,
      "--base-url",
      service.url,
      "--json-report",
      report,
    ]);
    expect(code, `${stdout}\n${stderr}`).toBe(0);
    expect(failedTests(verdictsOf(report))).toEqual([]);
  }, 120_000);

  it("re-run offline on the mock playing the profile, sends nothing to the service; one verdict per test", async () => {
    const report = join(project, "rerun-offline.json");
    const command =
      `cd '${project}' && USAGE_FILE='${usageFile}' '${process.execPath}' ` +
      `'${join(PACKAGE_ROOT, "node_modules", "vitest", "vitest.mjs")}' run`;
    const answersFile = join(project, "answers-offline.json");
    const { code, stdout, stderr } = await contract(
      [
        "--usage",
        usageFile,
        "--profile",
        profileFile,
        "--write-answers",
        answersFile,
        "--rerun",
        command,
        "--json-report",
        report,
      ],
      { CONTRACT_API_KEY: "", CONTRACT_TOKEN: "" },
    );
    expect([0, 1], `${stdout}\n${stderr}`).toContain(code);
    expect(stderr).toContain("no request is sent to the service");
    const rerun = (
      JSON.parse(readFileSync(report, "utf8")) as {
        rerun: { verdicts: Array<{ name: string; result: string }>; exitCode: number };
      }
    ).rerun;
    expect(rerun.verdicts.map((verdict) => verdict.name)).toEqual(TESTS);
    expect(rerun.exitCode).toBe(code);
    const answers = JSON.parse(readFileSync(answersFile, "utf8")) as { source: { kind: string; profile: string } };
    expect(answers.source).toMatchObject({ kind: "profile", profile: profileFile });
  }, 240_000);

  it("judged against the profile alone, sends nothing and holds", async () => {
    const report = join(project, "offline.json");
    const { code, stdout, stderr } = await contract(
      ["--usage", usageFile, "--profile", profileFile, "--json-report", report],
      { CONTRACT_API_KEY: "", CONTRACT_TOKEN: "" },
    );
    expect(code, `${stdout}\n${stderr}`).toBe(0);
    expect(verdictsOf(report).against).toBe("profile");
  }, 60_000);

  it("fails against a service whose errors differ from the profile only the test resting on them", async () => {
    const variant = await startIndependentService({ variant: "errors-all-400-list-body" });
    try {
      const report = join(project, "replay-variant.json");
      const { code, stdout, stderr } = await contract(
        ["--usage", usageFile, "--base-url", variant.url, "--json-report", report],
        credentialsEnv(variant.accounts),
      );
      expect(code, `${stdout}\n${stderr}`).toBe(1);
      expect(failedTests(verdictsOf(report))).toEqual([SEATS_TEST]);
    } finally {
      await variant.close();
    }
  }, 120_000);
});

it("writes the recorded usage as a Pact file with no credential in it", async () => {
  const usageFile = join(project, "usage.json");
  const pact = join(project, "pact.json");
  const { code, stderr } = await contract(["--usage", usageFile, "--write-pact", pact]);
  expect(code, stderr).toBe(0);
  const text = readFileSync(pact, "utf8");
  const written = JSON.parse(text) as { consumer: { name: string }; interactions: unknown[] };
  expect(written.consumer.name).toBe("listing-web");
  expect(written.interactions.length).toBe(
    JSON.parse(readFileSync(usageFile, "utf8")).tests.reduce(
      (sum: number, test: { interactions: unknown[] }) => sum + test.interactions.length,
      0,
    ),
  );
  for (const secret of Object.values(service.accounts).flatMap((account) => [account.apiKey, account.token]))
    expect(text).not.toContain(secret);
}, 60_000);
