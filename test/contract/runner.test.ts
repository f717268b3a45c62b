/**
 * The contract runner passes a conforming implementation (the mock) and fails each deliberately broken
 * variant of it, naming the check and the place.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SCENARIO_CHECKS } from "../../src/contract/runner/checks.ts";
import { runContract, type RunOptions } from "../../src/contract/runner/run-contract.ts";
import type { RunReport } from "../../src/contract/runner/run-report.ts";
import { createMockServer } from "../../src/hosts/node/create-mock-server.ts";
import { createContract } from "../../src/contract/create-contract.ts";
import { startBreakingProxy, type Breakage } from "../support/breaking-proxy.ts";
import { sharedContract } from "../support/mock-harness.ts";
import { HANG_MS } from "../support/deadlines.ts";

const contract = createContract();
const closedContract = sharedContract();
const mock = createMockServer({ validateResponses: true, contract: closedContract });
let mockUrl = "";
beforeAll(async () => {
  ({ url: mockUrl } = await mock.listen(0));
});
afterAll(() => mock.close());

let accounts = 0;
/** A run as its own accounts (the mock opens an account for a new key), so runs never share state. */
const run = async (baseUrl: string, options: Partial<RunOptions> = {}): Promise<RunReport> => {
  const id = (accounts += 1);
  const outcome = await runContract({
    baseUrl,
    apiKey: `runner-${id}`,
    token: `token-${id}`,
    other: { apiKey: `runner-${id}-other`, token: `other-${id}` },
    fresh: { apiKey: `runner-${id}-fresh`, token: `fresh-${id}` },
    contract,
    closedContract,
    timeoutMs: HANG_MS,
    ...options,
  });
  if (outcome.kind !== "report") throw new Error(outcome.message);
  return outcome.report;
};
const failedChecks = (report: RunReport) =>
  [...new Set(report.results.filter((result) => result.status === "failed").map((result) => result.check))].sort();
const messagesOf = (report: RunReport, check: string) =>
  report.results
    .filter((result) => result.check === check && result.status !== "passed")
    .map((result) => result.message ?? "")
    .join("\n");

describe("against the conforming mock", () => {
  let report: RunReport;
  beforeAll(async () => {
    report = await run(mockUrl, { runId: "conforming" });
  });

  it("passes with no failure, no warning and nothing skipped", () => {
    expect(report.results.filter((result) => result.status !== "passed")).toEqual([]);
    expect(report.result).toBe("passed");
  });

  it("evaluates every check of the scenario, and only those, and answers 200 on all fifteen operations", () => {
    expect(Object.keys(report.summary)).toEqual(SCENARIO_CHECKS);
    for (const check of SCENARIO_CHECKS) expect(report.summary[check]!.passed, check).toBeGreaterThan(0);
    expect(
      Object.entries(report.coverage)
        .filter(([, coverage]) => coverage.statuses.includes(200))
        .map(([id]) => id),
    ).toHaveLength(15);
  });

  it("leaves only the properties it cannot delete (two, one per property type but the first's), labelled", () => {
    expect(report.leftBehind).toEqual(
      Array.from({ length: 2 + 11 }, () =>
        expect.stringMatching(
          new RegExp(
            /^property \d+, made by the step "create a property with [^"]+", titled /.source +
              /"Contract Run conforming-[0-9a-f]{6} \(\d+\)" with external id /.source +
              /contract-conforming-[0-9a-f]{6}-\d+ \(the service has no operation to delete a property\)$/.source,
          ),
        ),
      ),
    );
    expect(mock.violations).toEqual([]);
  });

  it("cites a section of the interface document for every fact-tier result", () => {
    const facts = report.results.filter((result) => result.tier === "fact");
    expect(facts.length).toBeGreaterThan(100);
    expect(facts.filter((result) => !/^(introduction|[1-9](\.[0-9])?)$/.test(result.section ?? ""))).toEqual([]);
  });
});

describe("what a run leaves on the service", () => {
  it("labels each property it made with its tag, in title and external id, as the service shows; reports", async () => {
    const keys = { apiKey: "left-behind", token: "left-behind-token" };
    const outcome = await runContract({
      baseUrl: mockUrl,
      ...keys,
      other: { apiKey: "left-behind-other", token: "t2" },
      fresh: { apiKey: "left-behind-fresh", token: "t3" },
      contract,
      closedContract,
      timeoutMs: HANG_MS,
      seed: 5,
      now: () => Date.UTC(2026, 10, 26),
      nonce: "abc123",
    });
    if (outcome.kind !== "report") throw new Error(outcome.message);
    const { report } = outcome;
    // Without --run-id, the id is the start time and the seed: a property found on the account leads back to its
    // report.
    expect(report.runId).toBe(`${Date.UTC(2026, 10, 26).toString(36)}-s5`);
    expect(report.runTag).toBe(`${report.runId}-abc123`);
    expect(report.created).toHaveLength(13);
    const headers = { "API-KEY": keys.apiKey, TOKEN: keys.token, "content-type": "application/json" };
    for (const [index, created] of report.created!.entries()) {
      expect(created).toMatchObject({
        kind: "property",
        title: `Contract Run ${report.runTag} (${index + 1})`,
        externalId: `contract-${report.runTag}-${index + 1}`,
      });
      const shown = (await (
        await fetch(`${mockUrl}/api/v1/object/property/${created.nid}`, { headers })
      ).json()) as Record<string, unknown>;
      expect({ title: shown.title, external_id: shown.external_id }).toEqual({
        title: created.title,
        external_id: created.externalId,
      });
    }
    const owner = (await (
      await fetch(`${mockUrl}/api/v1/object/property/${report.created![0]!.nid}`, { headers })
    ).json()) as { uid: string };
    const listed = (await (
      await fetch(`${mockUrl}/api/v1/object/properties/${owner.uid}`, { headers })
    ).json()) as Array<{ title: string }>;
    expect(listed.filter((item) => item.title.startsWith(`Contract Run ${report.runTag} (`))).toHaveLength(13);
  });
});

describe("without a second account or a fresh one", () => {
  it("skips the probes with another account's TOKEN and the seat checks, and says why", async () => {
    const report = await run(mockUrl, { other: undefined, fresh: undefined });
    expect(report.result).toBe("passed");
    const skipped = report.results
      .filter((result) => result.status === "skipped")
      .map((result) => [result.check, result.message]);
    expect(skipped).toEqual([
      ["ignored_auth", "no other account given (--other-api-key and --other-token)"],
      ["agent_seat_limit", "no account without agents given (--fresh-api-key and --fresh-token)"],
    ]);
  });

  it("skips the seat checks on request, for a production account", async () => {
    const report = await run(mockUrl, { skipSeatChecks: true });
    expect(report.results.filter((result) => result.status === "skipped").map((result) => result.message)).toEqual([
      "--skip-seat-checks: the run does not fill agent seats (for a production account)",
    ]);
  });
});

const isRetrieveProperty = (method: string, path: string) =>
  method === "GET" && /^\/api\/v1\/object\/property\/\d+$/.test(path);

const variants: Array<{
  name: string;
  breakage: Breakage;
  fails: string[];
  mentions: [string, string];
  options?: Partial<RunOptions>;
}> = [
  {
    name: "a wrong type: the property's nid as a number",
    breakage: {
      response: (request, response) =>
        isRetrieveProperty(request.method, request.path) && response.status === 200
          ? { ...response, body: { ...(response.body as object), nid: Number((response.body as { nid: string }).nid) } }
          : undefined,
    },
    fails: ["ensure_resource_availability", "external_id_lookup", "response_schema_conformance"],
    mentions: ["response_schema_conformance", "retrieveProperty response.body/nid: must be string, got integer"],
  },
  {
    name: "a missing field: no uid on the property",
    breakage: {
      response: (request, response) => {
        if (!isRetrieveProperty(request.method, request.path) || response.status !== 200) return undefined;
        const { uid: _uid, ...rest } = response.body as Record<string, unknown>;
        return { ...response, body: rest };
      },
    },
    fails: ["external_id_lookup", "response_schema_conformance"],
    mentions: ["response_schema_conformance", "retrieveProperty response.body/uid: is required [required]"],
  },
  {
    name: "a rule not enforced: a duplicate agent email is accepted",
    breakage: {
      response: (request, response) =>
        request.method === "POST" && request.path.endsWith("/agent_card/") && response.status === 409
          ? { status: 200, contentType: "application/json", body: { nid: "999999" } }
          : undefined,
    },
    fails: ["agent_seat_limit", "duplicate_agent_rejected"],
    mentions: [
      "duplicate_agent_rejected",
      "a create with an email that belongs to an agent should have been refused, got 200",
    ],
  },
  {
    name: "auth ignored: requests without valid credentials are served",
    breakage: {
      request: (request) => {
        request.headers["api-key"] = "demo-key";
        request.headers.token = "demo-token";
      },
    },
    // Every request reaches the demo account, whose seeded agents make it no fresh account.
    options: { fresh: undefined },
    // The probe deletes went through, so deleting the probe records afterwards finds nothing.
    fails: ["ignored_auth", "status_code_conformance"],
    mentions: ["ignored_auth", "should have been refused (without credentials, on a record the caller owns), got 200"],
  },
  {
    name: "a delete that deletes nothing",
    breakage: {
      request: (request) =>
        request.method === "DELETE" && request.path.includes("/agent_card/")
          ? { status: 200, contentType: "application/json", body: [true] }
          : undefined,
    },
    fails: ["agent_seat_limit", "duplicate_agent_rejected", "use_after_free"],
    mentions: ["use_after_free", "should have been refused (the agent was deleted), got 200"],
  },
  {
    name: "a server error on invalid input",
    breakage: {
      request: (request) =>
        request.body.includes('"garage":"attached"')
          ? { status: 500, contentType: "text/plain", body: "TypeError: cannot read properties of undefined" }
          : undefined,
    },
    fails: ["not_a_server_error", "status_code_conformance"],
    mentions: ["not_a_server_error", "answered 500: TypeError"],
  },
  {
    name: "the template catalogue with a wrong access level",
    breakage: {
      response: (request, response) => {
        if (!request.path.endsWith("/template_base") || response.status !== 200) return undefined;
        const body = response.body as { templates: Array<{ machine_name: string; access_level: string }> };
        return {
          ...response,
          body: {
            templates: body.templates.map((entry) =>
              entry.machine_name === "lux" ? { ...entry, access_level: "standard" } : entry,
            ),
          },
        };
      },
    },
    fails: ["response_schema_conformance", "template_catalogue"],
    mentions: ["template_catalogue", 'lux has access level "standard", not pro'],
  },
];

describe.each(variants)("against a mock with $name", ({ breakage, fails, mentions, options }) => {
  let report: RunReport;
  let proxy: Awaited<ReturnType<typeof startBreakingProxy>>;
  beforeAll(async () => {
    proxy = await startBreakingProxy(mockUrl, breakage);
    // The mock's auto-login uri carries its own address, which clients of the proxy would reach it at.
    report = await run(proxy.url, { publicBaseUrl: mockUrl, ...options });
  });
  afterAll(() => proxy.close());

  it("fails, naming the broken checks", () => {
    expect(report.result).toBe("failed");
    expect(failedChecks(report)).toEqual(fails);
  });

  it("says what broke and where", () => {
    expect(messagesOf(report, mentions[0])).toContain(mentions[1]);
  });
});

describe("breakage that rests only on the contract's assumptions", () => {
  const otherErrorShape: Breakage = {
    response: (_request, response) =>
      response.status === 400
        ? { status: 400, contentType: "application/json", body: { error: "bad request" } }
        : undefined,
  };
  let proxy: Awaited<ReturnType<typeof startBreakingProxy>>;
  beforeAll(async () => {
    proxy = await startBreakingProxy(mockUrl, otherErrorShape);
  });
  afterAll(() => proxy.close());

  it("is a warning by default: the run passes", async () => {
    const report = await run(proxy.url, { publicBaseUrl: mockUrl });
    expect(report.result).toBe("passed");
    const warnings = report.results.filter((result) => result.status === "warning");
    expect([...new Set(warnings.map((result) => result.check))].sort()).toEqual([
      "content_type_conformance",
      "response_schema_conformance",
      "undocumented_response_property",
    ]);
    expect(messagesOf(report, "response_schema_conformance")).toContain(
      "createProperty response.body/type: is required [required] (assumption)",
    );
  });

  it("is a failure with --strict", async () => {
    const report = await run(proxy.url, { strict: true, publicBaseUrl: mockUrl });
    expect(report.result).toBe("failed");
    expect(failedChecks(report)).toEqual([
      "content_type_conformance",
      "response_schema_conformance",
      "undocumented_response_property",
    ]);
  });
});

describe("a service behind another address (4.1: the uri is {base_url}/<autologin_path>/<ACCESS_TOKEN>)", () => {
  let proxy: Awaited<ReturnType<typeof startBreakingProxy>>;
  beforeAll(async () => {
    proxy = await startBreakingProxy(mockUrl, {});
  });
  afterAll(() => proxy.close());

  it("fails autologin_uri when the uri does not start with the run's address; says how to name another", async () => {
    const report = await run(proxy.url);
    expect(failedChecks(report)).toEqual(["autologin_uri"]);
    expect(messagesOf(report, "autologin_uri")).toContain("--public-base-url");
  });

  it("holds with --public-base-url naming the address clients reach the service at", async () => {
    const report = await run(proxy.url, { publicBaseUrl: mockUrl });
    expect(report.results.filter((result) => result.status === "failed")).toEqual([]);
    expect(
      report.results.filter((result) => result.check === "autologin_uri" && result.status === "passed").length,
    ).toBeGreaterThan(2);
  });
});

describe("the mock reached by another of its names (issue 29: the uri carries the address the client used)", () => {
  it("holds autologin_uri at http://localhost:<port> with no base URL given to the mock", async () => {
    const report = await run(mockUrl.replace("127.0.0.1", "localhost"));
    expect(report.results.filter((result) => result.status === "failed")).toEqual([]);
    expect(
      report.results.filter((result) => result.check === "autologin_uri" && result.status === "passed").length,
    ).toBeGreaterThan(2);
  });
});

describe("a service that stops answering", () => {
  it("fails not_a_server_error at the request after which it went silent, and skips the rest", async () => {
    let crashed = false;
    const proxy = await startBreakingProxy(mockUrl, {
      request: (request) => {
        if (request.body.includes('"property_type":"Attached"')) crashed = true;
        return crashed ? "hang-up" : undefined;
      },
    });
    try {
      const report = await run(proxy.url);
      expect(report.result).toBe("failed");
      expect(messagesOf(report, "not_a_server_error")).toContain(
        "the service stopped answering at POST /api/v1/object/property",
      );
      expect(report.results.filter((result) => result.status === "skipped").length).toBeGreaterThan(10);
    } finally {
      await proxy.close();
    }
  });

  it("is unreachable when nothing listens at the base URL", async () => {
    const outcome = await runContract({
      baseUrl: `${mockUrl.replace(/:\d+$/, "")}:9`,
      apiKey: "k",
      token: "t",
      contract,
      closedContract,
    });
    expect(outcome).toEqual({
      kind: "unreachable",
      message: expect.stringMatching(/^Cannot reach http:\/\/127\.0\.0\.1:9: /),
    });
  });
});
