/**
 * The contract runner as a CI pipeline runs it: against the mock, against a broken service, and without one. Its
 * three exit codes (0, 1, 2) come through `npm run contract`; the other cases run the program the script starts
 * (`node dist/cli/contract.js`) as a process, and test/e2e/readme-commands.test.ts runs the documented
 * `npm run contract -- --recording` lines.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scratchFolder } from "../support/scratch-folder.ts";
import { createMockServer } from "../../src/hosts/node/create-mock-server.ts";
import { startBreakingProxy } from "../support/breaking-proxy.ts";
import { createHarRecorder, otherTraffic } from "../support/har-recorder.ts";
import { sharedContract } from "../support/mock-harness.ts";
import { startProcess } from "../support/start-process.ts";

const mock = createMockServer({ contract: sharedContract() });
let url = "";
beforeAll(async () => {
  ({ url } = await mock.listen(0));
});
afterAll(() => mock.close());

/** Runs `npm run contract -- <args>` to its end: its exit code and output. */
const contract = async (args: string[], env: NodeJS.ProcessEnv = {}) => {
  const process = startProcess("npm", ["run", "--silent", "contract", "--", ...args], env);
  const code = await process.exited;
  return { code, output: process.output() };
};

/** Runs the program `npm run contract` starts, `node dist/cli/contract.js <args>`, to its end. */
const program = async (args: string[], env: NodeJS.ProcessEnv = {}) => {
  const process = startProcess("node", ["dist/cli/contract.js", ...args], env);
  const code = await process.exited;
  return { code, output: process.output() };
};

describe("the contract runner against a service", () => {
  it("exits 0 with a readable report when the contract holds", async () => {
    const { code, output } = await contract([
      "--base-url",
      url,
      "--api-key",
      "demo-key",
      "--token",
      "demo-token",
      "--other-api-key",
      "cli-other",
      "--other-token",
      "t",
      "--fresh-api-key",
      "cli-fresh",
      "--fresh-token",
      "t",
    ]);
    expect(output).toContain(`Running the contract scenario against ${url}`);
    expect(output).toMatch(/✓ create a property with every documented field {2}POST \/api\/v1\/object\/property → 200/);
    expect(output).toContain("Coverage: 15/15 operations answered 200");
    expect(output).toMatch(new RegExp(`Contract HOLDS against ${url}: 0 failures, 0 warnings, \\d+ requests`));
    expect(code).toBe(0);
  });

  it("takes the credentials from the environment, and writes JUnit XML to a file", async () => {
    const file = join(scratchFolder("plk-"), "contract.xml");
    const { code, output } = await program(["--reporter", "junit", "--output", file, "--quiet"], {
      CONTRACT_BASE_URL: url,
      CONTRACT_API_KEY: "demo-key",
      CONTRACT_TOKEN: "demo-token",
    });
    expect(code).toBe(0);
    expect(output).toContain(`Contract HOLDS (0 failures); junit report written to ${file}`);
    const xml = readFileSync(file, "utf8");
    expect(xml).toMatch(
      new RegExp(
        /^<\?xml version="1\.0" encoding="UTF-8"\?>\n<testsuites /.source +
          /name="Property Listing Service contract" tests="\d+" failures="0"/.source,
      ),
    );
  });

  it("exits 1 naming the violation when the service breaks the contract, with a JSON report on request", async () => {
    const proxy = await startBreakingProxy(url, {
      response: (request, response) =>
        request.method === "POST" && request.path === "/api/v1/object/property" && response.status === 200
          ? { ...response, body: { ...(response.body as object), nid: 1 } }
          : undefined,
    });
    try {
      const { code, output } = await contract([
        "--base-url",
        proxy.url,
        "--api-key",
        "demo-key",
        "--token",
        "demo-token",
        "--reporter",
        "json",
        "--quiet",
      ]);
      expect(code).toBe(1);
      const report = JSON.parse(output) as { result: string; results: Array<{ status: string; message?: string }> };
      expect(report.result).toBe("failed");
      expect(report.results.filter((result) => result.status === "failed").map((result) => result.message)).toContain(
        "createProperty response.body/nid: must be string, got integer 1 [type]",
      );
    } finally {
      await proxy.close();
    }
  });

  it("exits 2 when nothing answers at the base URL", async () => {
    const { code, output } = await contract([
      "--base-url",
      "http://127.0.0.1:9",
      "--api-key",
      "k",
      "--token",
      "t",
      "--quiet",
    ]);
    expect(code).toBe(2);
    expect(output).toContain("Cannot reach http://127.0.0.1:9: ");
  });

  it("exits 2 with the usage when an option is missing or wrong", async () => {
    const missing = await program(["--base-url", url, "--token", "t"]);
    expect(missing.code).toBe(2);
    expect(missing.output).toContain("--api-key is required (or CONTRACT_API_KEY)");
    expect(missing.output).toContain("Usage: property-listing-contract");
    const reporter = await program(["--base-url", url, "--api-key", "k", "--token", "t", "--reporter", "html"]);
    expect(reporter.code).toBe(2);
    expect(reporter.output).toContain("--reporter must be one of text, junit, json, got html");
  });
});

describe("the contract runner with --recording", () => {
  const directory = mkdtempSync(join(tmpdir(), "plk-rec-"));
  afterAll(() => rmSync(directory, { recursive: true, force: true }));
  const write = (name: string, content: unknown) => {
    const file = join(directory, name);
    writeFileSync(file, typeof content === "string" ? content : JSON.stringify(content));
    return file;
  };
  let conforming = "";
  let broken = "";
  beforeAll(async () => {
    const har = createHarRecorder(url, {
      "API-KEY": "demo-key",
      TOKEN: "demo-token",
      "content-type": "application/json",
    });
    har.add(otherTraffic("http://localhost:3000/"));
    const created = await har.send("POST", "/api/v1/object/property", {
      body: { street: "1 Main St", city: "Austin", state: "TX", zip: "78701" },
    });
    await har.send("GET", `/api/v1/object/property/${(created.body as { nid: string }).nid}`);
    await har.send("GET", "/api/v1/object/template_base");
    conforming = write("conforming.har", har.har());
    har.entries[2]!.response.content.text = JSON.stringify({
      ...(JSON.parse(har.entries[2]!.response.content.text!) as object),
      nid: 5,
    });
    broken = write("broken.har", har.har());
  });

  it("exits 0 and reports the exchanges it checked when the recording keeps the contract", async () => {
    const { code, output } = await program(["--recording", conforming]);
    expect(output).toContain(`Checking the recording ${conforming} (4 entries) against the contract`);
    expect(output).toMatch(/✓ entry 2 {2}POST \/api\/v1\/object\/property → 200/);
    expect(output).toContain(
      "3 of 4 entries are exchanges with the service with paths under /api/v1/object/; left out: 0 CORS " +
        "preflights, 1 entry to other addresses",
    );
    expect(output).toMatch(/✓ request_conformance +3 passed/);
    expect(output).toContain(`Contract HOLDS in ${conforming}: 0 failures, 0 warnings, 3 exchanges checked in `);
    expect(code).toBe(0);
  });

  it("exits 1 and names the place when a recorded answer breaks the contract, in JUnit on request", async () => {
    const file = join(directory, "recording.xml");
    const { code, output } = await program(["--recording", broken, "--reporter", "junit", "--output", file, "--quiet"]);
    expect(code).toBe(1);
    expect(output).toContain(`Contract BROKEN (1 failure); junit report written to ${file}`);
    const xml = readFileSync(file, "utf8");
    expect(xml).toContain('<testsuite name="request_conformance" tests="3" failures="0" skipped="0">');
    expect(xml).toContain(
      '<failure type="fact" message="retrieveProperty response.body/nid: must be string, got integer 5 [type]">',
    );
  });

  it("exits 2 with a clear message when the recording cannot be read, is not one, or holds nothing", async () => {
    const missing = await program(["--recording", join(directory, "nope.har")]);
    expect(missing.code).toBe(2);
    expect(missing.output).toContain(`Cannot read the recording ${join(directory, "nope.har")}: no such file`);
    const notOne = await program(["--recording", write("notes.json", { notes: [] })]);
    expect(notOne.code).toBe(2);
    expect(notOne.output).toContain(
      "is not a recording: neither a HAR file (an object with log.entries) nor a list of { request, response " +
        "} exchanges",
    );
    const elsewhere = await program(["--recording", conforming, "--base-url", "https://staging.example.com"]);
    expect(elsewhere.code).toBe(2);
    expect(elsewhere.output).toContain(
      `${conforming} holds no exchange with the service under https://staging.example.com; its 4 other ` +
        `entries go elsewhere`,
    );
  });

  it("exits 2 when options of a run against a service are given with a recording", async () => {
    const { code, output } = await program(["--recording", conforming, "--api-key", "k", "--token", "t"]);
    expect(code).toBe(2);
    expect(output).toContain(
      "--api-key, --token are for a run against a service, not for --recording (a recording carries its own requests)",
    );
    expect(output).toContain("property-listing-contract --recording <file.har>");
  });
});
