/** The runner's reports: text for people, JUnit XML and JSON for CI. */
import { describe, expect, it } from "vitest";
import { renderJsonReport } from "../../src/contract/runner/reporters/json-reporter.ts";
import { renderJunitReport } from "../../src/contract/runner/reporters/junit-reporter.ts";
import { createProgressPrinter, renderTextReport } from "../../src/contract/runner/reporters/text-reporter.ts";
import type { CheckResult, RunReport } from "../../src/contract/runner/run-report.ts";

const results: CheckResult[] = [
  {
    check: "not_a_server_error",
    status: "passed",
    tier: "fact",
    step: "create a property",
    operation: "createProperty",
    request: { method: "POST", path: "/api/v1/object/property", status: 200 },
  },
  {
    check: "response_schema_conformance",
    status: "failed",
    tier: "fact",
    step: "retrieve the property",
    operation: "retrieveProperty",
    request: {
      method: "GET",
      path: "/api/v1/object/property/7",
      status: 200,
      curl: `curl -X GET 'https://api.example/api/v1/object/property/7' -H "API-KEY: \${CONTRACT_API_KEY}"`,
    },
    section: "2.1",
    message:
      "retrieveProperty response.body/nid: must be string, got integer 7 [type]\nretrieveProperty " +
      'response.body/title: <b>&"quoted"</b>',
  },
  {
    check: "status_code_conformance",
    status: "warning",
    tier: "assumption",
    step: "create a property with no street",
    operation: "createProperty",
    request: { method: "POST", path: "/api/v1/object/property", status: 422, body: { city: "x" } },
    message: "422 is not a documented status",
  },
  {
    check: "duplicate_agent_rejected",
    status: "skipped",
    tier: "fact",
    step: "agent steps",
    message: "the account has no free agent seat",
  },
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
  coverage: {
    createProperty: { statuses: [200, 422], documented: ["200", "400"] },
    retrieveProperty: { statuses: [200], documented: ["200", "404"] },
  },
  exchanges: 3,
  leftBehind: ["property 7 (the service has no operation to delete a property)"],
};

describe("text", () => {
  const text = renderTextReport(report);

  it("summarises each check, the coverage and the verdict", () => {
    expect(text).toContain("✗ response_schema_conformance");
    expect(text).toContain("! status_code_conformance");
    expect(text).toContain("Coverage: 2/2 operations answered 200; 2/4 documented responses seen");
    expect(text).toContain(
      "Left behind: 1 record\n  1 property: the service has no operation to delete a property\n  The full " +
        "list is in the JSON report",
    );
    expect(text.trimEnd().split("\n").at(-1)).toBe(
      "Contract BROKEN against https://api.example: 1 failure, 1 warning, 3 requests in 1.2 s",
    );
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
    expect(text).toContain(
      '     POST /api/v1/object/property → 422\n     body {"city":"x"}\n     422 is not a documented status',
    );
  });

  it("prints a progress line per step, and the problems under it", () => {
    const lines: string[] = [];
    createProgressPrinter((line) => lines.push(line))({
      kind: "step",
      step: "retrieve the property",
      operation: "retrieveProperty",
      request: results[1]!.request!,
      durationMs: 12,
      results: [results[1]!],
    });
    expect(lines).toEqual([
      "  ✗ retrieve the property  GET /api/v1/object/property/7 → 200 (12 ms)",
      "    ✗ response_schema_conformance: retrieveProperty response.body/nid: must be string, got integer 7 [type]",
    ]);
  });
});

describe("JUnit", () => {
  const xml = renderJunitReport(report);

  it("has a suite per check and a case per result, with failures and skips marked", () => {
    expect(
      xml.startsWith(
        '<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="Property Listing Service contract" ' +
          'tests="4" failures="1" skipped="1" time="1.234"',
      ),
    ).toBe(true);
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

describe("a failing run of many checks", () => {
  // One 503 to a retrieve fails three checks; one step evaluates one check twice on one request; fourteen
  // properties and one agent are left behind.
  const answer = { method: "GET", path: "/api/v1/object/property/7", status: 503 };
  const many: RunReport = {
    ...report,
    results: [
      {
        check: "not_a_server_error",
        status: "failed",
        tier: "fact",
        step: "retrieve the property",
        operation: "retrieveProperty",
        request: answer,
        message: "answered 503: busy",
      },
      {
        check: "status_code_conformance",
        status: "failed",
        tier: "fact",
        step: "retrieve the property",
        operation: "retrieveProperty",
        request: answer,
        message: "503 is not documented",
      },
      {
        check: "status_code_conformance",
        status: "failed",
        tier: "fact",
        step: "retrieve the property",
        operation: "retrieveProperty",
        request: answer,
        message: "the operation should have succeeded with 200",
      },
      {
        check: "not_a_server_error",
        status: "failed",
        tier: "fact",
        step: "retrieve the property",
        operation: "retrieveProperty",
        request: { ...answer, path: "/api/v1/object/property/8" },
        message: "answered 503: busy",
      },
    ],
    leftBehind: [
      ...Array.from(
        { length: 14 },
        (_, index) => `property ${index + 1} (the service has no operation to delete a property)`,
      ),
      "agent 5 of the primary account (DELETE /api/v1/object/agent_card/5 answered 500)",
    ],
  };

  it("gives every JUnit test case its own (classname, name)", () => {
    const xml = renderJunitReport(many);
    const pairs = [...xml.matchAll(/<testcase classname="([^"]*)" name="([^"]*)">/g)].map(
      (match) => `${match[1]} | ${match[2]}`,
    );
    expect(pairs).toHaveLength(4);
    expect(new Set(pairs).size).toBe(4);
    expect(pairs).toContain(
      "contract.status_code_conformance | retrieve the property (retrieveProperty GET /api/v1/object/property/7) #2",
    );
  });

  it("lists one failure per cause in the text report, naming every check it failed", () => {
    const text = renderTextReport(many);
    expect(text).toContain(
      "Failures (2, from 4 checks)\n  1. not_a_server_error, status_code_conformance [fact]: retrieve the " +
        "property (retrieveProperty)\n     GET /api/v1/object/property/7 → 503",
    );
    expect(text).toContain(
      "  2. not_a_server_error [fact]: retrieve the property (retrieveProperty)\n     GET " +
        "/api/v1/object/property/8 → 503",
    );
    expect(text.trimEnd().split("\n").at(-1)).toMatch(/: 2 failures, 0 warnings,/);
  });

  it("counts the records left behind, names those that need a hand, and says where the full list is", () => {
    const text = renderTextReport(many, { jsonReport: "contract.json" });
    expect(text).toContain(
      [
        "Left behind: 15 records",
        "  14 properties: the service has no operation to delete a property",
        "  agent 5 of the primary account (DELETE /api/v1/object/agent_card/5 answered 500)",
        '  The full list is in the JSON report, under "leftBehind" (contract.json).',
      ].join("\n"),
    );
    expect(text).not.toContain("property 3 ");
  });
});

describe("requests sent again or left unanswered", () => {
  it("says which were sent again after Retry-After, how long the run waited, and which got no answer", () => {
    const text = renderTextReport({
      ...report,
      retried: [
        {
          step: "list the agents",
          method: "GET",
          path: "/api/v1/object/agent_cards",
          answers: [{ status: 503, retryAfter: "1" }],
          waitedMs: 1000,
          finalStatus: 200,
        },
        {
          step: "retrieve the property",
          method: "GET",
          path: "/api/v1/object/property/7",
          answers: [],
          waitedMs: 0,
          finalStatus: 429,
          gaveUp: "a wait of 40 s would pass the run's 30 s of waiting (1 s spent)",
        },
      ],
      unanswered: [
        {
          step: "retrieve the floorplan",
          method: "GET",
          path: "/api/v1/object/document/9",
          reason: "no answer within 10000 ms (--timeout)",
        },
      ],
    });
    expect(text).toContain(
      [
        "Sent again after Retry-After (2 requests, 1.0 s waited in all)",
        "  GET /api/v1/object/agent_cards (list the agents): 503 Retry-After: 1; then 200",
        "  GET /api/v1/object/property/7 (retrieve the property): no retry; then 429; not waited for again: " +
          "a wait of 40 s would pass the run's 30 s of waiting (1 s spent)",
        "",
        "No answer (1 request; each failed once, what rested on it is skipped)",
        "  GET /api/v1/object/document/9 (retrieve the floorplan): no answer within 10000 ms (--timeout)",
      ].join("\n"),
    );
  });
});

describe("JSON", () => {
  it("is the whole report", () => {
    expect(JSON.parse(renderJsonReport(report))).toEqual(report);
  });
});
