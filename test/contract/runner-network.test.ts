/**
 * The runner over a network that misbehaves the way a CI night does (issue 28): an answer that comes too late, a
 * 503 or 429 with Retry-After once and then fine, a 5xx without it, a 503 on the very first request. The
 * conforming mock sits behind a proxy on loopback that misbehaves on one chosen request. No verdict rests on
 * timing: the late answer is one that never comes until the test releases it, and the waits Retry-After asks for
 * go through an injected sleep that records them.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createContract } from "../../src/contract/create-contract.ts";
import { renderTextReport } from "../../src/contract/runner/reporters/text-reporter.ts";
import { runContract, type RunOptions } from "../../src/contract/runner/run-contract.ts";
import type { CheckResult, RunReport } from "../../src/contract/runner/run-report.ts";
import { createMockServer } from "../../src/hosts/node/create-mock-server.ts";
import {
  startBreakingProxy,
  type Breakage,
  type ForwardedRequest,
  type ProxiedResponse,
} from "../support/breaking-proxy.ts";
import { startIndependentService } from "../support/independent-service/index.ts";
import { sharedContract } from "../support/mock-harness.ts";

const contract = createContract();
const closedContract = sharedContract();
const mock = createMockServer({ contract: closedContract });
let mockUrl = "";
beforeAll(async () => {
  ({ url: mockUrl } = await mock.listen(0));
});
afterAll(() => mock.close());

/** The per-answer limit of the late-answer test: the held request waits this long, every other answer far less. */
const TIMEOUT_MS = 5_000;
let accounts = 0;

/** A run through a proxy that breaks one way; the waits asked for are recorded, not slept. */
async function runThrough(
  breakage: Breakage,
  options: Partial<RunOptions> = {},
): Promise<{ report: RunReport; waits: number[] }> {
  const proxy = await startBreakingProxy(mockUrl, breakage);
  const waits: number[] = [];
  const id = (accounts += 1);
  try {
    const outcome = await runContract({
      baseUrl: proxy.url,
      publicBaseUrl: mockUrl,
      apiKey: `network-${id}`,
      token: `token-${id}`,
      other: { apiKey: `network-${id}-other`, token: `other-${id}` },
      contract,
      closedContract,
      timeoutMs: TIMEOUT_MS,
      skipSeatChecks: true,
      sleep: async (ms) => void waits.push(ms),
      ...options,
    });
    if (outcome.kind !== "report") throw new Error(outcome.message);
    return { report: outcome.report, waits };
  } finally {
    await proxy.close();
  }
}

const failed = (report: RunReport) => report.results.filter((result) => result.status === "failed");
const line = (result: CheckResult) => `${result.check}: ${result.step}: ${result.message ?? ""}`;
/** The report's failed not_a_server_error checks, each as one line: check, step and message. */
const serverErrors = (report: RunReport) =>
  failed(report)
    .filter((result) => result.check === "not_a_server_error")
    .map(line);
const isRetrieve = (request: ForwardedRequest) =>
  request.method === "GET" && /^\/api\/v1\/object\/property\/\d+$/.test(request.path);
const busy = (headers: Record<string, string> = {}): ProxiedResponse => ({
  status: 503,
  contentType: "application/json",
  body: { error: "busy" },
  headers,
});

/** Misbehaves on the n-th request that matches (1 for the first), and on no other. */
function onNth(
  n: number,
  matches: (request: ForwardedRequest) => boolean,
  answer: (request: ForwardedRequest) => ReturnType<NonNullable<Breakage["request"]>>,
): Breakage {
  let seen = 0;
  return { request: (request) => (matches(request) && (seen += 1) === n ? answer(request) : undefined) };
}

describe("an answer later than --timeout", () => {
  let report: RunReport;
  let release: () => void = () => {};
  beforeAll(
    async () => {
      // The first retrieve of a property (the one just created, step "retrieve the property") is held until the run
      // is over: it never answers within the limit.
      // So is the retrieve right after the near misses (the edit of the state to 3 characters).
      const held = new Promise<void>((resolve) => (release = resolve));
      const first = onNth(1, isRetrieve, () => held.then(() => "hang-up" as const));
      let previous: ForwardedRequest | undefined;
      ({ report } = await runThrough({
        request: (request) => {
          const afterNearMisses =
            previous?.method === "PUT" && previous.body === '{"state":"CAL"}' && isRetrieve(request);
          previous = request;
          return afterNearMisses ? held.then(() => "hang-up" as const) : first.request!(request);
        },
      }));
      release();
    },
    6 * TIMEOUT_MS + 120_000,
  );
  afterAll(() => release());

  it("fails exactly those requests: the request, the limit, no answer", () => {
    expect(failed(report).map(line)).toEqual([
      expect.stringMatching(
        new RegExp(
          `^not_a_server_error: retrieve the property: GET /api/v1/object/property/\\d+ got no answer: no ` +
            `answer within ${TIMEOUT_MS} ms \\(--timeout\\)$`,
        ),
      ),
      expect.stringMatching(
        new RegExp(
          `^not_a_server_error: edit the property's state to 3 characters: retrieve the property after: GET ` +
            `/api/v1/object/property/\\d+ got no answer: no answer within ${TIMEOUT_MS} ms \\(--timeout\\)$`,
        ),
      ),
    ]);
    expect(report.unanswered).toEqual([
      expect.objectContaining({
        step: "retrieve the property",
        method: "GET",
        reason: `no answer within ${TIMEOUT_MS} ms (--timeout)`,
      }),
      expect.objectContaining({
        step: "edit the property's state to 3 characters: retrieve the property after",
        method: "GET",
        reason: `no answer within ${TIMEOUT_MS} ms (--timeout)`,
      }),
    ]);
  });

  it("skips what rested on that answer, with the reason, and fails nothing for it", () => {
    const skipped = report.results.filter(
      (result) => result.status === "skipped" && result.step === "retrieve the property",
    );
    expect(skipped.map((result) => result.check).sort()).toEqual(["create_round_trip", "ensure_resource_availability"]);
    for (const result of skipped)
      expect(result.message).toMatch(
        new RegExp(
          `^rests on the answer to GET /api/v1/object/property/\\d+ \\("retrieve the property"\\), which ` +
            `never came: no answer within ${TIMEOUT_MS} ms`,
        ),
      );
  });

  it("goes on with everything that does not rest on it", () => {
    for (const check of [
      "edit_visible",
      "external_id_lookup",
      "floorplan_on_property",
      "duplicate_agent_rejected",
      "ignored_auth",
      "negative_data_rejection",
      "template_catalogue",
      "use_after_free",
    ]) {
      expect(report.summary[check]!.passed, check).toBeGreaterThan(0);
    }
    // The near miss whose retrieve never answered: its refusal is judged from the edit's own answer, and that the
    // refusal changed nothing (what the retrieve would show) is skipped, with the reason.
    const nearMiss = report.results.filter(
      (result) =>
        result.step.startsWith("edit the property's state to 3 characters") &&
        result.check === "negative_data_rejection",
    );
    expect(nearMiss.map((result) => [result.step, result.status, result.message])).toEqual([
      ["edit the property's state to 3 characters", "passed", undefined],
      [
        "edit the property's state to 3 characters: retrieve the property after",
        "skipped",
        expect.stringMatching(
          new RegExp(
            /^rests on the answer to GET .*\("edit the property's state to /.source +
              /3 characters: retrieve the property after"\), which never came/.source,
          ),
        ),
      ],
    ]);
  });
});

describe("the very first request answered late", () => {
  it(
    "fails that request, and the run goes on: a late answer is no sign of a wrong address",
    async () => {
      let release: () => void = () => {};
      const held = new Promise<void>((resolve) => (release = resolve));
      try {
        const { report } = await runThrough(
          onNth(
            1,
            () => true,
            () => held.then(() => "hang-up" as const),
          ),
        );
        expect(failed(report).map(line)).toEqual([
          `not_a_server_error: preflight: GET /api/v1/object/template_base as the primary account: GET ` +
            `/api/v1/object/template_base got no answer: no answer within ${TIMEOUT_MS} ms (--timeout)`,
        ]);
        expect(report.summary.template_catalogue!.passed).toBe(1);
      } finally {
        release();
      }
    },
    2 * TIMEOUT_MS + 120_000,
  );
});

describe("a 503 or 429 with Retry-After", () => {
  it("to a GET, once: waited for, sent again, the run holds; the report says which request and how long", async () => {
    const { report, waits } = await runThrough(
      onNth(
        1,
        (request) => request.method === "GET" && request.path === "/api/v1/object/agent_cards",
        () => busy({ "retry-after": "1" }),
      ),
      { runId: "retry-once" },
    );
    expect(failed(report).map(line)).toEqual([]);
    expect(report.result).toBe("passed");
    expect(waits).toEqual([1000]);
    expect(report.retried).toEqual([
      expect.objectContaining({
        method: "GET",
        path: "/api/v1/object/agent_cards",
        answers: [{ status: 503, retryAfter: "1" }],
        waitedMs: 1000,
        finalStatus: 200,
      }),
    ]);
  });

  it("as an HTTP-date, and a 429 to the POST retrieving an agent card: the same (a past date: at once)", async () => {
    let agentRetrieves = 0;
    const { report, waits } = await runThrough({
      request: (request) => {
        if (
          request.method === "POST" &&
          /^\/api\/v1\/object\/agent_card\/\d+$/.test(request.path) &&
          (agentRetrieves += 1) === 1
        ) {
          return {
            status: 429,
            contentType: "application/json",
            body: { error: "slow down" },
            headers: { "retry-after": "Wed, 21 Oct 2015 07:28:00 GMT" },
          };
        }
        return undefined;
      },
    });
    expect(failed(report).map(line)).toEqual([]);
    expect(waits).toEqual([]);
    expect(report.retried).toEqual([
      expect.objectContaining({
        method: "POST",
        answers: [{ status: 429, retryAfter: "Wed, 21 Oct 2015 07:28:00 GMT" }],
        waitedMs: 0,
        finalStatus: 200,
      }),
    ]);
  });

  it("to a create: not sent again (a create is not safe to repeat), and judged as it came", async () => {
    const { report, waits } = await runThrough(
      onNth(
        1,
        (request) => request.method === "POST" && request.path === "/api/v1/object/property",
        () => busy({ "retry-after": "1" }),
      ),
    );
    expect(waits).toEqual([]);
    expect(report.retried).toBeUndefined();
    expect(serverErrors(report)).toEqual([
      expect.stringMatching(/^not_a_server_error: create a property with every documented field: answered 503/),
    ]);
  });

  it("every time: sent again 3 times, then judged; and never past the run's 30 s of waiting", async () => {
    const always = await runThrough({
      request: (request) =>
        request.method === "GET" && request.path === "/api/v1/object/agent_cards"
          ? busy({ "retry-after": "2" })
          : undefined,
    });
    expect(always.report.retried![0]).toEqual(
      expect.objectContaining({
        answers: [1, 2, 3].map(() => ({ status: 503, retryAfter: "2" })),
        finalStatus: 503,
        gaveUp: "sent 3 times again already",
      }),
    );
    expect(always.waits.reduce((sum, ms) => sum + ms, 0)).toBeLessThanOrEqual(30_000);
    expect(failed(always.report).map((result) => result.check)).toContain("not_a_server_error");

    const long = await runThrough({
      request: (request) =>
        request.method === "GET" && request.path === "/api/v1/object/agent_cards"
          ? busy({ "retry-after": "20" })
          : undefined,
    });
    expect(long.waits).toEqual([20_000]);
    expect(long.report.retried!.every((entry) => entry.finalStatus === 503)).toBe(true);
    expect(long.report.retried!.at(-1)!.gaveUp).toMatch(/^a wait of 20 s would pass the run's 30 s of waiting/);
  });
});

describe("a connection closed without an answer (a proxy dropping a request, an idle one the service closed)", () => {
  it("to a GET, once: sent again at once, and the run holds; the report says which request and why", async () => {
    const { report, waits } = await runThrough(onNth(2, isRetrieve, () => "hang-up"));
    expect(failed(report).map(line)).toEqual([]);
    expect(report.result).toBe("passed");
    expect(waits).toEqual([]);
    expect(report.retried).toEqual([
      expect.objectContaining({
        method: "GET",
        path: expect.stringMatching(/^\/api\/v1\/object\/property\/\d+$/),
        answers: [],
        dropped: expect.any(String),
        waitedMs: 0,
        finalStatus: 200,
      }),
    ]);
    expect(renderTextReport(report)).toMatch(
      new RegExp(
        /Sent again after a connection closed without an answer \(1 request, /.source +
          /0\.0 s waited in all\)\n {2}GET \/api\/v1\/object\/property\/\d+ /.source +
          /\(.+\): connection closed without an answer \(.+\); then 200/.source,
      ),
    );
  });

  it("to the same GET twice: judged, that request fails once (no answer) and the run goes on", async () => {
    let drops = 0;
    const { report } = await runThrough({
      request: (request) => (isRetrieve(request) && (drops += 1) <= 2 ? "hang-up" : undefined),
    });
    expect(failed(report).map(line)).toEqual([
      expect.stringMatching(
        /^not_a_server_error: retrieve the property: GET \/api\/v1\/object\/property\/\d+ got no answer: /,
      ),
    ]);
    expect(report.summary.edit_visible!.passed).toBeGreaterThan(0);
  });

  it("to a create: not sent again (the service may have made the property); the request fails: no answer", async () => {
    const { report } = await runThrough(
      onNth(
        1,
        (request) => request.method === "POST" && request.path === "/api/v1/object/property",
        () => "hang-up",
      ),
      { runId: "dropped-create" },
    );
    expect(report.retried).toBeUndefined();
    expect(serverErrors(report)).toEqual([
      expect.stringMatching(
        new RegExp(
          /^not_a_server_error: create a property with every documented /.source +
            /field: POST \/api\/v1\/object\/property got no answer: /.source,
        ),
      ),
    ]);
  });
});

describe("a 5xx without Retry-After", () => {
  it("mid-run fails not_a_server_error for that request, and is not sent again", async () => {
    const { report, waits } = await runThrough(onNth(2, isRetrieve, () => busy()));
    expect(waits).toEqual([]);
    expect(report.retried).toBeUndefined();
    expect(serverErrors(report)).toEqual([
      expect.stringMatching(
        new RegExp(
          /^not_a_server_error: retrieve the property created with garage /.source +
            /Attached, property_type Single Family, template rubik_v2: answered 503/.source,
        ),
      ),
    ]);
  });

  it("on the very first request (the preflight) fails not_a_server_error too: the run does not hold", async () => {
    const { report } = await runThrough(
      onNth(
        1,
        () => true,
        () => busy(),
      ),
    );
    expect(report.result).toBe("failed");
    expect(serverErrors(report)).toEqual([
      "not_a_server_error: preflight: GET /api/v1/object/template_base as the primary account: answered 503: " +
        '{"error":"busy"}',
    ]);
  });
});

describe("the independent implementation, busy once on every operation safe to repeat", () => {
  it("is waited for on each, and holds: no failure, every wait in the report", async () => {
    const service = await startIndependentService();
    const creates = /^POST \/api\/v1\/object\/(property|agent_card\/|document\/)$/;
    const seen = new Set<string>();
    const proxy = await startBreakingProxy(service.url, {
      request: (request) => {
        const kind = `${request.method} ${request.path
          .replace(/\/(property|agent_card|document)\/[^/]+$/, "/$1/:id")
          .replace(/\/external-property\/.*$/, "/external-property/:id")
          .replace(/\/properties\/.*$/, "/properties/:uid")}`;
        if (creates.test(`${request.method} ${request.path}`) || seen.has(kind)) return undefined;
        seen.add(kind);
        return busy({ "retry-after": "1" });
      },
    });
    const waits: number[] = [];
    try {
      const { primary, other, fresh } = service.accounts;
      const outcome = await runContract({
        baseUrl: proxy.url,
        publicBaseUrl: service.url,
        apiKey: primary.apiKey,
        token: primary.token,
        other,
        fresh: { ...fresh, seats: fresh.agentSeats },
        contract,
        closedContract,
        timeoutMs: TIMEOUT_MS,
        sleep: async (ms) => void waits.push(ms),
      });
      if (outcome.kind !== "report") throw new Error(outcome.message);
      expect(failed(outcome.report).map(line)).toEqual([]);
      // The twelve operations safe to repeat (every GET, PUT and DELETE, and the POST that retrieves an agent card).
      expect(seen.size).toBe(12);
      expect(outcome.report.retried!.map((entry) => `${entry.method} ${entry.finalStatus}`).sort()).toEqual(
        [...seen].map((kind) => `${kind.split(" ")[0]} 200`).sort(),
      );
      expect(waits).toEqual(Array.from({ length: 12 }, () => 1000));
    } finally {
      await proxy.close();
      await service.close();
    }
  });
});

describe("an answer later than --timeout in the generated phase (--fuzz)", () => {
  let report: RunReport;
  let release: () => void = () => {};
  let held: ForwardedRequest | undefined;
  beforeAll(
    async () => {
      // How many requests a run sends without --fuzz: the same scenario against the same mock, request for request.
      let plain = 0;
      await runThrough({ request: () => void (plain += 1) }, { seed: 21 });
      // With --fuzz, the generated phase comes before the clean-up: the request 5 past the plain run's count is one of
      // its cases or of the reads that check one. It is held until the run is over.
      const hold = new Promise<void>((resolve) => (release = resolve));
      let seen = 0;
      ({ report } = await runThrough(
        {
          request: (request) => {
            seen += 1;
            if (seen !== plain + 5) return undefined;
            held = request;
            return hold.then(() => "hang-up" as const);
          },
        },
        { seed: 21, fuzz: 20 },
      ));
      release();
    },
    4 * TIMEOUT_MS + 180_000,
  );
  afterAll(() => release());

  it("fails that one request, and no check for an answer that never came", () => {
    expect(held).toBeDefined();
    expect(failed(report).map(line)).toEqual([
      expect.stringMatching(
        new RegExp(
          `^not_a_server_error: generated cases: ${held!.method} ` +
            `${held!.path.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} got no answer: no answer within ` +
            `${TIMEOUT_MS} ms`,
        ),
      ),
    ]);
    expect(report.unanswered).toEqual([expect.objectContaining({ method: held!.method, path: held!.path })]);
  });

  it("goes on with the other cases: the phase sends every operation its cases", () => {
    const operations = Object.values(report.fuzz!.operations);
    expect(operations.reduce((sum, entry) => sum + (entry.unanswered ?? 0), 0)).toBe(1);
    for (const entry of operations)
      if (!entry.skipped) expect(entry.cases + (entry.notSent ?? 0)).toBeGreaterThanOrEqual(20);
  });
});
