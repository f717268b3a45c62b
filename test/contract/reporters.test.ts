/** The runner's reports: text for people, JUnit XML and JSON for CI. */
import { describe, expect, it } from "vitest";
import { renderJsonReport } from "../../src/contract/runner/reporters/json-reporter.ts";
import { renderJunitReport } from "../../src/contract/runner/reporters/junit-reporter.ts";
import { createProgressPrinter, renderTextReport } from "../../src/contract/runner/reporters/text-reporter.ts";
import type { CheckResult, RunReport } from "../../src/contract/runner/run-report.ts";

const results: CheckResult[] = [
  { check: "not_a_server_error", status: "passed", tier: "fact", step: "create a property", operation: "createProperty", request: { method: "POST", path: "/api/v1/object/property", status: 200 } },
  {
    check: "response_schema_conformance",
    status: "failed",
    tier: "fact",
    step: "retrieve the property",
    operation: "retrieveProperty",
    request: { method: "GET", path: "/api/v1/object/property/7", status: 200, curl: `curl -X GET 'https://api.example/api/v1/object/property/7' -H "API-KEY: \${CONTRACT_API_KEY}"` },
    section: "2.1",
    message: 'retrieveProperty response.body/nid: must be string, got integer 7 [type]\nretrieveProperty response.body/title: <b>&"quoted"</b>',
  },
  { check: "status_code_conformance", status: "warning", tier: "assumption", step: "create a property with no street", operation: "createProperty", request: { method: "POST", path: "/api/v1/object/property", status: 422, body: { city: "x" } }, message: "422 is not a documented status" },
  { check: "duplicate_agent_rejected", status: "skipped", tier: "fact", step: "agent steps", message: "the account has no free agent seat" },
];
const report: RunReport = {
  baseUrl: "https://api.example",
  specVersion: "1.0.0",
  strict: false,
  startedAt: "2026-11-22T10:00:00.000Z",
  durationMs: 1234,
  result: "failed",
  results,
  summary: {
    not_a_server_error: { passed: 1, failed: 0, warning: 0, skipped: 0 },
    response_schema_conformance: { passed: 0, failed: 1, warning: 0, skipped: 0 },
    status_code_conformance: { passed: 0, failed: 0, warning: 1, skipped: 0 },
    duplicate_agent_rejected: { passed: 0, failed: 0, warning: 0, skipped: 1 },
  },
  coverage: { createProperty: { statuses: [200, 422], documented: ["200", "400"] }, retrieveProperty: { statuses: [200], documented: ["200", "404"] } },
  exchanges: 3,
  leftBehind: ["property 7 (the service has no operation to delete a property)"],
};

describe("text", () => {
  const text = renderTextReport(report);

  it("summarises each check, the coverage and the verdict", () => {
    expect(text).toContain("✗ response_schema_conformance");
    expect(text).toContain("! status_code_conformance");
    expect(text).toContain("Coverage: 2/2 operations answered 200; 2/4 documented responses seen");
    expect(text).toContain("Left behind (1):\n  property 7 (the service has no operation to delete a property)");
    expect(text.trimEnd().split("\n").at(-1)).toBe("Contract BROKEN against https://api.example: 1 failure, 1 warning, 3 requests in 1.2 s");
  });

  it("lists each failure and warning with the request that caused it", () => {
    expect(text).toContain(
      [
        "Failures (1)",
        "  1. response_schema_conformance [fact, section 2.1]: retrieve the property (retrieveProperty)",
        "     GET /api/v1/object/property/7 → 200",
        "     retrieveProperty response.body/nid: must be string, got integer 7 [type]",
        '     retrieveProperty response.body/title: <b>&"quoted"</b>',
        `     curl -X GET 'https://api.example/api/v1/object/property/7' -H "API-KEY: \${CONTRACT_API_KEY}"`,
      ].join("\n"),
    );
    expect(text).toContain('     POST /api/v1/object/property → 422\n     body {"city":"x"}\n     422 is not a documented status');
  });

  it("prints a progress line per step, and the problems under it", () => {
    const lines: string[] = [];
    createProgressPrinter((line) => lines.push(line))({ kind: "step", step: "retrieve the property", operation: "retrieveProperty", request: results[1]!.request!, durationMs: 12, results: [results[1]!] });
    expect(lines).toEqual([
      "  ✗ retrieve the property  GET /api/v1/object/property/7 → 200 (12 ms)",
      "    ✗ response_schema_conformance: retrieveProperty response.body/nid: must be string, got integer 7 [type]",
    ]);
  });
});

describe("JUnit", () => {
  const xml = renderJunitReport(report);

  it("has a suite per check and a case per result, with failures and skips marked", () => {
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="Property Listing Service contract" tests="4" failures="1" skipped="1" time="1.234"')).toBe(true);
    expect(xml.match(/<testsuite /g)).toHaveLength(4);
    expect(xml.match(/<testcase /g)).toHaveLength(4);
    expect(xml).toContain('<testsuite name="response_schema_conformance" tests="1" failures="1" skipped="0">');
    expect(xml).toContain('<skipped message="the account has no free agent seat"/>');
    expect(xml).toContain("<system-out>WARNING (rests on an assumption of the contract)");
    expect(xml.match(/<testcase /g)!.length).toBe(xml.match(/<\/testcase>/g)!.length);
  });

  it("escapes what the service answered", () => {
    expect(xml).toContain("&lt;b&gt;&amp;&quot;quoted&quot;&lt;/b&gt;");
    expect(xml).not.toContain("<b>");
  });
});

describe("JSON", () => {
  it("is the whole report", () => {
    expect(JSON.parse(renderJsonReport(report))).toEqual(report);
  });
});
