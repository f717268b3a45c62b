/**
 * The CI example of docs/runner-in-ci.md, run as written (issue 28, item 7): the credentials come from the
 * environment (fake secrets here), the bin runs through npx in a project that has the kit installed (the README's
 * install, test/support/consumer-install.ts), and no output holds a secret, not even when the
 * service echoes one in an answer the report quotes. The JUnit file parses (fast-xml-parser, not our own reading)
 * and the JSON report is JSON. The sample GitHub Actions workflow parses, takes its secrets as environment and
 * keeps both reports as artifacts. With a machine format and no --output, standard output is the report alone (the
 * installed bin started as npx starts it: the documented line's runs show that npx adds nothing to it).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { createMockServer } from "../../src/hosts/node/create-mock-server.ts";
import { startBreakingProxy } from "../support/breaking-proxy.ts";
import { consumerInstall } from "../support/consumer-install.ts";
import { sharedContract } from "../support/mock-harness.ts";
import { readmeExample } from "../support/readme-examples.ts";
import { CONTRACT_BIN, runCli } from "../support/run-contract-cli.ts";
import { PACKAGE_ROOT } from "../support/start-process.ts";
import { scratchFolder } from "../support/scratch-folder.ts";

const DOC = "docs/runner-in-ci.md";
const WORKFLOW = "docs/contract-nightly.github-actions.yml";
const example = readmeExample("ci-nightly");
/** Fake secrets, each long and unlike anything else a report holds. */
const SECRETS = {
  CONTRACT_API_KEY: "fake-key-3f9a1c7e5b",
  CONTRACT_TOKEN: "fake-token-d41d8cd98f",
  CONTRACT_OTHER_API_KEY: "fake-other-key-0cc175b9",
  CONTRACT_OTHER_TOKEN: "fake-other-token-92eb5ffe",
  CONTRACT_FRESH_API_KEY: "fake-fresh-key-4a8a08f0",
  CONTRACT_FRESH_TOKEN: "fake-fresh-token-8277e091",
};

const mock = createMockServer({ contract: sharedContract() });
let mockUrl = "";
/**
 * Where the CI job runs the bin: a folder of its own inside the project that has the kit installed (so that npx
 * finds the bin there, and the reports this file writes meet no other test's).
 */
let job = "";
/** The program `npx --no -- property-listing-contract` starts in that project. */
let installedBin = "";
beforeAll(async () => {
  ({ url: mockUrl } = await mock.listen(0));
  const { project } = await consumerInstall();
  job = mkdtempSync(join(project, "ci-job-"));
  installedBin = join(project, "node_modules", ".bin", "property-listing-contract");
});
afterAll(() => {
  if (job) rmSync(job, { recursive: true, force: true });
  return mock.close();
});

/** Runs the documented line in a shell, in the CI job's folder, and reads the two reports it writes. */
async function runExample(baseUrl: string) {
  const written = ["contract.xml", "contract.json"].map((name) => join(job, name));
  for (const file of written) rmSync(file, { force: true });
  try {
    const run = await runCli(
      "sh",
      ["-c", example],
      { ...SECRETS, CONTRACT_BASE_URL: baseUrl, CONTRACT_PUBLIC_BASE_URL: mockUrl },
      job,
    );
    const [xml, json] = written.map((file) => (existsSync(file) ? readFileSync(file, "utf8") : ""));
    return { ...run, xml: xml!, json: json! };
  } finally {
    for (const file of written) rmSync(file, { force: true });
  }
}

function expectNoSecret(...outputs: string[]): void {
  for (const [name, value] of Object.entries(SECRETS)) {
    for (const output of outputs) expect(output.includes(value), `${name} in the output`).toBe(false);
  }
}

/** The JUnit file as a CI system reads it: well-formed, one (classname, name) per test case. */
function readJunit(xml: string): { tests: number; failures: number; names: string[] } {
  expect(XMLValidator.validate(xml)).toBe(true);
  const parsed = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: "",
    isArray: (name) => name === "testsuite" || name === "testcase",
  }).parse(xml) as {
    testsuites: {
      tests: string;
      failures: string;
      testsuite: Array<{ testcase?: Array<{ classname: string; name: string }> }>;
    };
  };
  const names = parsed.testsuites.testsuite.flatMap((suite) =>
    (suite.testcase ?? []).map((testcase) => `${testcase.classname} | ${testcase.name}`),
  );
  return { tests: Number(parsed.testsuites.tests), failures: Number(parsed.testsuites.failures), names };
}

describe("the documented CI command", () => {
  it("is the bin with no credential on its command line", () => {
    expect(example).toMatch(/^npx --no -- property-listing-contract /);
    expect(example).not.toMatch(/--(api-key|token|other-api-key|other-token|fresh-api-key|fresh-token)\b/);
    expect(example).not.toContain("npm run");
  });

  it("holds against the mock: exit 0, a JUnit file of unique cases, the JSON report, no secret anywhere", async () => {
    const run = await runExample(mockUrl);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe("");
    const junit = readJunit(run.xml);
    expect(junit.failures).toBe(0);
    expect(junit.names.length).toBe(junit.tests);
    expect(new Set(junit.names).size).toBe(junit.names.length);
    const report = JSON.parse(run.json) as { result: string; leftBehind: string[] };
    expect(report.result).toBe("passed");
    expect(report.leftBehind.length).toBeGreaterThan(0);
    expectNoSecret(run.stdout, run.stderr, run.xml, run.json);
  });

  it("fails against a service echoing the credentials in a 500; shows them nowhere, only their variables", async () => {
    // Every retrieve of the template catalogue answers 500 with the request's credentials in the body, which the
    // report quotes (`answered 500: …`).
    const echo = await startBreakingProxy(mockUrl, {
      request: (request) =>
        request.path.endsWith("/template_base")
          ? {
              status: 500,
              contentType: "application/json",
              body: { error: "boom", key: request.headers["api-key"], token: request.headers.token },
            }
          : undefined,
    });
    try {
      const run = await runExample(echo.url);
      expect(run.code, run.stderr).toBe(1);
      const junit = readJunit(run.xml);
      expect(junit.failures).toBeGreaterThan(0);
      expect(new Set(junit.names).size).toBe(junit.names.length);
      expect(run.xml).toContain("${CONTRACT_API_KEY}");
      expect(run.json).toContain("${CONTRACT_TOKEN}");
      expect(run.stderr).toContain("${CONTRACT_API_KEY}");
      expectNoSecret(run.stdout, run.stderr, run.xml, run.json);
    } finally {
      await echo.close();
    }
  });
});

describe("a machine format without --output", () => {
  for (const reporter of ["junit", "json"] as const) {
    it(`--reporter ${reporter}: standard output is the report and nothing else`, async () => {
      const run = await runCli(
        "node",
        [installedBin, "--reporter", reporter, "--skip-seat-checks"],
        { ...SECRETS, CONTRACT_BASE_URL: mockUrl },
        job,
      );
      expect(run.code, run.stderr).toBe(0);
      if (reporter === "junit") expect(readJunit(run.stdout).failures).toBe(0);
      else expect((JSON.parse(run.stdout) as { result: string }).result).toBe("passed");
      expect(run.stderr).toContain("Running the contract scenario");
      expectNoSecret(run.stdout, run.stderr);
    });
  }

  it("writes --json-report beside any reporter; the text report points at it for the records left behind", async () => {
    const file = join(scratchFolder("plk-ci-"), "contract.json");
    const run = await runCli("node", [CONTRACT_BIN, "--skip-seat-checks", "--json-report", file], {
      ...SECRETS,
      CONTRACT_BASE_URL: mockUrl,
    });
    expect(run.code, run.stderr).toBe(0);
    const report = JSON.parse(readFileSync(file, "utf8")) as { leftBehind: string[] };
    expect(run.stdout).toContain(
      `Left behind: ${report.leftBehind.length} records\n  ${report.leftBehind.length} properties: the ` +
        `service has no operation to delete a property`,
    );
    expect(run.stdout).toContain(`The full list is in the JSON report, under "leftBehind" (${file}).`);
  });
});

describe("the sample nightly workflow", () => {
  const workflow = parseYaml(readFileSync(join(PACKAGE_ROOT, WORKFLOW), "utf8")) as {
    on: { schedule: Array<{ cron: string }> };
    jobs: Record<
      string,
      {
        steps: Array<{
          name?: string;
          run?: string;
          uses?: string;
          if?: string;
          env?: Record<string, string>;
          with?: Record<string, string>;
        }>;
      }
    >;
  };
  const steps = Object.values(workflow.jobs).flatMap((job) => job.steps);
  const contract = steps.find((step) => step.run?.includes("property-listing-contract"));

  it("runs nightly, the documented command, with every credential from the secrets as environment", () => {
    expect(workflow.on.schedule[0]!.cron).toMatch(/^\S+ \S+ \* \* \*$/);
    expect(contract?.run).toBe(example);
    for (const name of Object.keys(SECRETS)) expect(contract?.env?.[name], name).toBe(`\${{ secrets.${name} }}`);
  });

  it("keeps the JUnit and JSON reports as artifacts, whether the run holds or not", () => {
    const upload = steps.find((step) => step.uses?.startsWith("actions/upload-artifact@"));
    expect(upload?.if).toBe("always()");
    expect(
      upload?.with?.path
        ?.split("\n")
        .map((line) => line.trim())
        .filter(Boolean)
        .sort(),
    ).toEqual(["contract.json", "contract.xml"]);
  });

  it("is linked from the page that explains it", () => {
    expect(readFileSync(join(PACKAGE_ROOT, DOC), "utf8")).toContain("(contract-nightly.github-actions.yml)");
  });
});
