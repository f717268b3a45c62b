/**
 * `property-listing-contract --usage` as CI runs it, a process: a replay against the independent implementation
 * (one JUnit test case per consumer test; no credential in any output or file; through HTTP_PROXY; a 503 with
 * Retry-After waited for), a usage judged against a profile alone (no request sent), and usage files that are
 * not one (exit 2, naming the file).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunReport } from "../../src/contract/runner/run-report.ts";
import type { UsageDocument } from "../../src/contract/usage/usage-document.ts";
import { startBreakingProxy } from "../support/breaking-proxy.ts";
import { startForwardingProxy } from "../support/forwarding-proxy.ts";
import { startIndependentService, type IndependentService } from "../support/independent-service/index.ts";
import { CONTRACT_BIN, credentialsEnv, runCli } from "../support/run-contract-cli.ts";
import { error, PROFILE } from "../support/sample-profile.ts";
import { FACT_ONLY, recordSampleUsage, SAMPLE_TESTS } from "../support/usage-samples.ts";

let dir = "";
afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});
let service: IndependentService;
let usageFile = "";
let factsFile = "";
let usage: UsageDocument;
let env: NodeJS.ProcessEnv = {};
const SECRETS = () => Object.values(service.accounts).flatMap((account) => [account.apiKey, account.token]);

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "plk-usage-"));
  service = await startIndependentService();
  usage = await recordSampleUsage(Object.values(SAMPLE_TESTS));
  usageFile = join(dir, "usage.json");
  writeFileSync(usageFile, JSON.stringify(usage));
  factsFile = join(dir, "facts.json");
  writeFileSync(
    factsFile,
    JSON.stringify({
      ...usage,
      tests: usage.tests.filter((test) => FACT_ONLY.some((key) => SAMPLE_TESTS[key]!.name === test.name)),
    }),
  );
  env = credentialsEnv(service.accounts);
}, 60_000);
afterAll(async () => {
  await service.close();
});

const contract = (args: string[], extra: NodeJS.ProcessEnv = {}) =>
  runCli("node", [CONTRACT_BIN, ...args], { ...env, ...extra });

describe("--usage --base-url: a replay against the service", () => {
  it("gives a JUnit case per consumer test, fails those resting on what the service does not (exit 1)", async () => {
    const jsonFile = join(dir, "replay.json");
    const { code, stdout, stderr } = await contract([
      "--usage",
      usageFile,
      "--base-url",
      service.url,
      "--reporter",
      "junit",
      "--json-report",
      jsonFile,
    ]);
    expect(code, stderr).toBe(1);
    const cases = [
      ...stdout.matchAll(/<testcase classname="consumer sample-web-app" name="([^"]+)">\s*(<failure)?/g),
    ].map((match) => [match[1], match[2] !== undefined]);
    expect(cases).toEqual(
      usage.tests.map((test) => [
        test.name.replace(/>/g, "&gt;").replace(/'/g, "'"),
        !FACT_ONLY.some((key) => SAMPLE_TESTS[key]!.name === test.name),
      ]),
    );
    expect(stdout).toContain("seat-limit-status");
    const report = JSON.parse(readFileSync(jsonFile, "utf8")) as RunReport;
    expect(report.usage!.tests.find((test) => test.name === SAMPLE_TESTS.seats!.name)!.restsOn).toEqual([
      "error-body-shape",
      "seat-limit-status",
    ]);
    expect(report.created!.length).toBeGreaterThan(0);
    for (const secret of SECRETS()) {
      expect(stdout, "report").not.toContain(secret);
      expect(stderr, "progress").not.toContain(secret);
      expect(readFileSync(jsonFile, "utf8"), "JSON report").not.toContain(secret);
    }
    expect(readFileSync(jsonFile, "utf8")).toContain("${CONTRACT_API_KEY}");
  }, 60_000);

  it("holds (exit 0) for a usage resting on documented facts only, every request through HTTP_PROXY", async () => {
    const proxy = await startForwardingProxy();
    try {
      const { code, stdout, stderr } = await contract(["--usage", factsFile, "--base-url", service.url], {
        HTTP_PROXY: proxy.url,
      });
      expect(code, `${stdout}\n${stderr}`).toBe(0);
      expect(stdout).toContain("Consumer usage HOLDS");
      expect(proxy.hops.length).toBeGreaterThan(5);
      expect(proxy.hops.every((hop) => hop.target.startsWith(service.url))).toBe(true);
    } finally {
      await proxy.close();
    }
  }, 60_000);

  it("waits for a 503 with Retry-After and sends the request again", async () => {
    let refused = false;
    const proxy = await startBreakingProxy(service.url, {
      request: (request) => {
        if (refused || request.method !== "GET" || !request.path.includes("/properties/")) return undefined;
        refused = true;
        return {
          status: 503,
          contentType: "application/json",
          body: { error: "busy" },
          headers: { "Retry-After": "0" },
        };
      },
    });
    try {
      const jsonFile = join(dir, "retried.json");
      const { code, stdout, stderr } = await contract([
        "--usage",
        factsFile,
        "--base-url",
        proxy.url,
        "--public-base-url",
        service.url,
        "--json-report",
        jsonFile,
      ]);
      expect(code, `${stdout}\n${stderr}`).toBe(0);
      const report = JSON.parse(readFileSync(jsonFile, "utf8")) as RunReport;
      expect(report.retried?.[0]).toMatchObject({
        method: "GET",
        finalStatus: 200,
        answers: [{ status: 503, retryAfter: "0" }],
      });
    } finally {
      await proxy.close();
    }
  }, 60_000);
  it("fails a request answered after --timeout, and skips, saying why, the interactions resting on it", async () => {
    let release: (value: "hang-up") => void = () => {};
    const held = new Promise<"hang-up">((resolve) => (release = resolve));
    let hung = false;
    const proxy = await startBreakingProxy(service.url, {
      request: (request) => {
        if (hung || request.method !== "POST" || !request.body.includes("12 Consumer Lane")) return undefined;
        hung = true;
        return held;
      },
    });
    try {
      const jsonFile = join(dir, "late.json");
      const lateFile = join(dir, "late-usage.json");
      writeFileSync(
        lateFile,
        JSON.stringify({
          ...usage,
          tests: usage.tests.filter((test) =>
            [SAMPLE_TESTS.createEdit!.name, SAMPLE_TESTS.document!.name].includes(test.name),
          ),
        }),
      );
      const { code, stderr } = await contract([
        "--usage",
        lateFile,
        "--base-url",
        proxy.url,
        "--public-base-url",
        service.url,
        "--timeout",
        "1000",
        "--quiet",
        "--json-report",
        jsonFile,
      ]);
      expect(code, stderr).toBe(1);
      const report = JSON.parse(readFileSync(jsonFile, "utf8")) as RunReport;
      const name = SAMPLE_TESTS.createEdit!.name;
      expect(report.unanswered).toEqual([
        expect.objectContaining({
          method: "POST",
          path: "/api/v1/object/property",
          reason: expect.stringContaining("no answer within 1000 ms"),
        }),
      ]);
      const skipped = report.results
        .filter((result) => result.consumerTest === name && result.status === "skipped")
        .map((result) => result.message);
      expect(skipped).toEqual(
        expect.arrayContaining([
          expect.stringContaining("interaction #1 takes /params/nid from the answer to interaction #0"),
        ]),
      );
      expect(report.usage!.tests.find((test) => test.name === name)!.result).toBe("failed");
      expect(report.usage!.tests.find((test) => test.name === SAMPLE_TESTS.document!.name)!.result).toBe("passed");
    } finally {
      release("hang-up");
      await proxy.close();
    }
  }, 60_000);
});

describe("--usage --profile: judged against a recorded profile, nothing sent", () => {
  let listener: Server;
  let requests = 0;
  beforeAll(async () => {
    listener = createServer((_incoming, outgoing) => {
      requests += 1;
      outgoing.writeHead(500).end();
    });
    await new Promise<void>((resolve) => listener.listen(0, "127.0.0.1", resolve));
  });
  afterAll(() => new Promise<void>((resolve) => listener.close(() => resolve())));

  it("fails the consumer whose seats screen rests on a 402 the profile saw as a 403; sends no request", async () => {
    const profileFile = join(dir, "profile.json");
    const profile = {
      ...PROFILE,
      observations: {
        ...PROFILE.observations,
        "error.seats": error(403, { error: "Not Enough Agent Seats", message: "buy more seats" }),
      },
    };
    writeFileSync(profileFile, JSON.stringify(profile));
    const base = `http://127.0.0.1:${(listener.address() as AddressInfo).port}`;
    const { code, stdout, stderr } = await contract(
      ["--usage", usageFile, "--profile", profileFile, "--reporter", "json"],
      { CONTRACT_BASE_URL: base, HTTP_PROXY: base },
    );
    expect(code, stderr).toBe(1);
    expect(requests).toBe(0);
    const report = JSON.parse(stdout) as RunReport;
    expect(report.usage!.against).toBe("profile");
    const seats = report.results.find(
      (result) => result.consumerTest === SAMPLE_TESTS.seats!.name && result.status === "failed",
    )!;
    expect(seats.check).toBe("consumer_assumption");
    expect(seats.message).toContain("seat-limit-status");
    expect(seats.message).toContain("403");
    expect(report.usage!.tests.find((test) => test.name === SAMPLE_TESTS.retrieve!.name)!.result).toBe("passed");
  }, 30_000);
});

describe("a usage file that is not one", () => {
  const refused = async (file: string, reason: RegExp) => {
    const { code, stderr } = await contract(["--usage", file, "--base-url", service.url]);
    expect(code).toBe(2);
    expect(stderr).toContain(file);
    expect(stderr).toMatch(reason);
  };
  it("exits 2 naming the file: another version, broken JSON, no file, an operation the contract lacks", async () => {
    const other = join(dir, "v9.json");
    writeFileSync(other, JSON.stringify({ ...usage, usageVersion: 9 }));
    await refused(other, /usageVersion is 9/);
    // The previous version named assumptions by their row of the assumptions page: refused, saying how to record again.
    const previous = join(dir, "v1.json");
    writeFileSync(previous, JSON.stringify({ ...usage, usageVersion: 1 }));
    await refused(
      previous,
      /usageVersion is 1, which named assumptions by their row.*Record the usage again.*--record-usage/,
    );
    const broken = join(dir, "broken.json");
    writeFileSync(broken, '{ "usageVersion": 1,');
    await refused(broken, /not JSON/);
    await refused(join(dir, "missing.json"), /no such file/);
    const unknown = join(dir, "unknown.json");
    const tests = structuredClone(usage.tests);
    (tests[0]!.interactions[0]! as { operation: string }).operation = "deleteProperty";
    writeFileSync(unknown, JSON.stringify({ ...usage, tests }));
    await refused(unknown, /deleteProperty is not an operation of the contract/);
  }, 60_000);

  it("exits 2 when --usage has neither --base-url nor --profile", async () => {
    const { code, stderr } = await runCli("node", [CONTRACT_BIN, "--usage", usageFile]);
    expect(code).toBe(2);
    expect(stderr).toContain("--usage needs --base-url");
  });
});
