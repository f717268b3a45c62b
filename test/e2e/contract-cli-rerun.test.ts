/**
 * `property-listing-contract --usage --rerun` and `--write-answers` as CI runs them: a mistake the runner can name
 * is exit 2 with the flag and the file; a test command that reports no test (it does not load the kit's vitest
 * module) is exit 2, never a pass.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startIndependentService, type IndependentService } from "../support/independent-service/index.ts";
import { CONTRACT_BIN, credentialsEnv, runCli } from "../support/run-contract-cli.ts";
import { recordSampleUsage, SAMPLE_TESTS } from "../support/usage-samples.ts";

let service: IndependentService;
let usageFile = "";
const folder = mkdtempSync(join(tmpdir(), "plk-rerun-cli-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

beforeAll(async () => {
  service = await startIndependentService();
  usageFile = join(folder, "usage.json");
  writeFileSync(usageFile, JSON.stringify(await recordSampleUsage([SAMPLE_TESTS.retrieve!])));
}, 60_000);
afterAll(async () => {
  await service?.close();
});

const contract = (args: string[], env: NodeJS.ProcessEnv = {}) =>
  runCli("node", [CONTRACT_BIN, "--usage", usageFile, "--base-url", service.url, "--quiet", ...args], {
    ...credentialsEnv(service.accounts),
    ...env,
  });

it("refuses a test command that reports no test with exit 2, saying what --rerun runs", async () => {
  const answers = join(folder, "answers.json");
  const { code, stdout, stderr } = await contract(["--rerun", "exit 0", "--write-answers", answers]);
  expect(code, `${stdout}\n${stderr}`).toBe(2);
  expect(stderr).toContain("The test command reported no test (exit code 0)");
  expect(stderr).toContain("property-listing-kit/vitest");
  // The answers were written all the same, with no credential in them.
  const text = readFileSync(answers, "utf8");
  expect(JSON.parse(text)).toMatchObject({ answersVersion: 1, tests: [{ name: SAMPLE_TESTS.retrieve!.name }] });
  for (const secret of Object.values(service.accounts).flatMap((account) => [account.apiKey, account.token]))
    expect(text).not.toContain(secret);
}, 60_000);

it("without --write-answers, hands the command the answers in a temporary file, removed once it ends", async () => {
  const temporary = join(folder, "tmp");
  mkdirSync(temporary);
  const { code, stderr } = await contract(["--rerun", 'test -s "$MOCK_ANSWERS" && echo read'], {
    TMPDIR: temporary,
  });
  expect(code, stderr).toBe(2); // the command reports no test
  expect(stderr).toContain("read");
  expect(readdirSync(temporary)).toEqual([]);
}, 60_000);

it("makes --write-answers' folder, and names the flag and the file when it cannot be written", async () => {
  const made = join(folder, "new-folder", "answers.json");
  const written = await contract(["--write-answers", made]);
  expect([0, 1], written.stderr).toContain(written.code);
  expect(JSON.parse(readFileSync(made, "utf8"))).toMatchObject({ answersVersion: 1 });
  // A file where a folder should be.
  const { code, stderr } = await contract(["--write-answers", join(usageFile, "answers.json")]);
  expect(code).toBe(2);
  expect(stderr).toMatch(/Cannot write the answers to .*usage\.json\/answers\.json \(--write-answers\)/);
}, 60_000);
