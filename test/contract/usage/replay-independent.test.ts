/**
 * Replay of a consumer's usage, recorded from the mock, against the independent implementation: its default
 * passes every test that rests on documented facts, and fails, as failures of the consumer naming the
 * assumption, exactly the tests resting on what it does otherwise (its error bodies, its seats answer, its
 * newest-first lists); ids are rebound (its nids start at 500000) and start records are made first.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { createContract } from "../../../src/contract/create-contract.ts";
import type { RunReport } from "../../../src/contract/runner/run-report.ts";
import { usageLines } from "../../../src/contract/runner/reporters/usage-lines.ts";
import { replayUsage } from "../../../src/contract/usage/replay-usage.ts";
import type { UsageDocument } from "../../../src/contract/usage/usage-document.ts";
import { startIndependentService } from "../../support/independent-service/index.ts";
import { FACT_ONLY, LINKS_TEST, NEVER_SET, recordSampleUsage, SAMPLE_TESTS } from "../../support/usage-samples.ts";

const contract = createContract();
const closedContract = createContract({ closed: true });
let usage: UsageDocument;

beforeAll(async () => {
  usage = await recordSampleUsage(Object.values(SAMPLE_TESTS));
});

async function replay(
  variant: string | undefined,
  document: UsageDocument = usage,
  {
    withFresh = true,
    before,
  }: {
    withFresh?: boolean;
    before?: (service: Awaited<ReturnType<typeof startIndependentService>>) => Promise<void>;
  } = {},
): Promise<RunReport> {
  const service = await startIndependentService(variant ? { variant } : {});
  try {
    await before?.(service);
    const { primary, other, fresh } = service.accounts;
    const outcome = await replayUsage({
      usage: document,
      file: "usage.json",
      baseUrl: service.url,
      apiKey: primary.apiKey,
      token: primary.token,
      other,
      ...(withFresh ? { fresh: { ...fresh, seats: fresh.agentSeats } } : {}),
      contract,
      closedContract,
      timeoutMs: 10_000,
      runId: "replay",
      nonce: "abc123",
    });
    if (outcome.kind !== "report") throw new Error(outcome.message);
    return outcome.report;
  } finally {
    await service.close();
  }
}

const formatUsageText = (report: RunReport) => usageLines(report).join("\n");
const verdicts = (report: RunReport) => Object.fromEntries(report.usage!.tests.map((test) => [test.name, test.result]));
const failed = (report: RunReport, check: string) =>
  report.results.filter((result) => result.status === "failed" && result.check === check);

describe("a replay against the independent implementation", () => {
  let report: RunReport;
  beforeAll(async () => {
    report = await replay(undefined);
  }, 60_000);

  it("passes every test that rests on documented facts, ids rebound and start records made first", () => {
    for (const key of FACT_ONLY) expect(verdicts(report)[SAMPLE_TESTS[key]!.name], key).toBe("passed");
    // The start record (the mock's 1001) was made on the service, labelled as the run's own.
    expect(report.created!.some((record) => record.by.includes("make property 1001"))).toBe(true);
    // A record the client reached through the list's answer was read from the start state too: made first, while
    // the nid it opens is the first the service's list answers.
    const openFirst = SAMPLE_TESTS.openFirst!.name;
    expect(usage.tests.find((test) => test.name === openFirst)!.interactions[1]!.bindings).toEqual([
      { at: "/params/nid", from: "answer", interaction: 0, pointer: "/0/nid" },
    ]);
    expect(report.created!.some((record) => record.by.includes(`"${openFirst} › start: make property 1001`))).toBe(
      true,
    );
    const retrieve = report.results.find(
      (result) => result.consumerTest === SAMPLE_TESTS.retrieve!.name && result.check === "consumer_assumption",
    );
    expect(retrieve?.request?.path).toMatch(/\/property\/5[0-9]{5}$/);
    expect(failed(report, "consumer_fact")).toEqual([]);
  });

  it("fails, as failures of the consumer naming the assumption, the tests resting on what it does otherwise", () => {
    expect(verdicts(report)[SAMPLE_TESTS.seats!.name]).toBe("failed");
    expect(verdicts(report)[SAMPLE_TESTS.invalid!.name]).toBe("failed");
    expect(verdicts(report)[SAMPLE_TESTS.order!.name]).toBe("failed");
    const seats = failed(report, "consumer_assumption").find(
      (result) => result.consumerTest === SAMPLE_TESTS.seats!.name,
    )!;
    expect(seats.message).toContain("seat-limit-status");
    expect(seats.message).toContain("interaction #0 (createAgentCard POST /api/v1/object/agent_card/)");
    expect(seats.message).toContain("application/json");
    const order = failed(report, "consumer_assumption").find(
      (result) => result.consumerTest === SAMPLE_TESTS.order!.name,
    )!;
    expect(order.message).toContain("the order of the list");
    expect(report.result).toBe("failed");
  });

  it("fails the test reading its property where the service answers null for unset fields (never-set-defaults)", () => {
    const name = SAMPLE_TESTS[NEVER_SET]!.name;
    expect(verdicts(report)[name]).toBe("failed");
    const unset = failed(report, "consumer_assumption").find((result) => result.consumerTest === name)!;
    expect(unset.message).toContain("rests on never-set-defaults at interaction #2 (retrieveProperty GET");
    expect(unset.message).toContain(
      "the field /country: the client got string, the service answered null (rests on never-set-defaults)",
    );
    expect(unset.message).toContain("the field /half_baths");
    // The property the test started from was made as the mock held it: created, then edited with the fields create
    // cannot take.
    expect(verdicts(report)[SAMPLE_TESTS.retrieve!.name]).toBe("passed");
  });

  it("fails as a defect (consumer_fact) a test whose agent's links come back as sent, not by weight", async () => {
    const links = await recordSampleUsage([LINKS_TEST]);
    const conforming = await replay(undefined, links);
    // Its agent's never-set fields may differ (agent-never-set-defaults); its facts hold.
    expect(failed(conforming, "consumer_fact").filter((result) => result.consumerTest === LINKS_TEST.name)).toEqual([]);
    const unordered = await replay("links-not-ordered-by-weight", links);
    expect(verdicts(unordered)[LINKS_TEST.name]).toBe("failed");
    const fact = failed(unordered, "consumer_fact").find((result) => result.consumerTest === LINKS_TEST.name)!;
    expect(fact.message).toContain("a defect of the service: at interaction #1");
    expect(fact.message).toContain(
      "the field /social_media_links (section 2.2): the client got links ordered by weight (either " +
        "direction), the service answered weights in the order 5, -2, 10",
    );
    expect(
      failed(unordered, "consumer_assumption")
        .filter((result) => result.consumerTest === LINKS_TEST.name)
        .map((result) => result.message),
    ).toEqual(
      failed(conforming, "consumer_assumption")
        .filter((result) => result.consumerTest === LINKS_TEST.name)
        .map((result) => result.message),
    );
  }, 60_000);

  it("passes the list-order test against a variant listing oldest first", async () => {
    const oldest = await replay("lists-oldest-first", {
      ...usage,
      tests: usage.tests.filter((test) => test.name === SAMPLE_TESTS.order!.name),
    });
    expect(verdicts(oldest)[SAMPLE_TESTS.order!.name]).toBe("passed");
    expect(oldest.result).toBe("passed");
  }, 60_000);

  it("deletes the agents it made for the seats-full start, and labels every property it made", () => {
    expect(report.leftBehind.filter((entry) => entry.startsWith("agent"))).toEqual([]);
    for (const record of report.created!) expect(record.title).toMatch(/^Contract Run replay-abc123 /);
  });

  it("skips, with the reason, a test that needs an account the run has no credentials for", async () => {
    const seatsOnly = { ...usage, tests: usage.tests.filter((test) => test.name === SAMPLE_TESTS.seats!.name) };
    const skipped = await replay(undefined, seatsOnly, { withFresh: false });
    expect(skipped.usage!.tests[0]).toMatchObject({
      result: "skipped",
      reason: expect.stringContaining("CONTRACT_FRESH_API_KEY"),
    });
    expect(skipped.result).toBe("passed");
  }, 60_000);

  it("marks not run, never passed, a test with an interaction that could not be sent, in text and JSON", async () => {
    const openFirst = structuredClone(usage.tests.find((test) => test.name === SAMPLE_TESTS.openFirst!.name)!);
    // The id the second request takes is one the service's list never answers.
    openFirst.interactions[1]!.bindings = [{ at: "/params/nid", from: "answer", interaction: 0, pointer: "/99/nid" }];
    const report = await replay(undefined, { ...usage, tests: [openFirst] });
    expect(report.usage!.tests[0]).toMatchObject({
      result: "skipped",
      reason: expect.stringMatching(
        new RegExp(
          /^#1 retrieveProperty GET .*: not sent: interaction #1 takes \/params\/nid from /.source +
            /an entry of the list answered to interaction #0 \(\/99\/nid, absent on the mock\)/.source,
        ),
      ),
    });
    const text = formatUsageText(report);
    expect(text).toMatch(
      new RegExp(
        `- ${openFirst.name.replace(/[>]/g, "\\$&")} \\(2 interactions; [^)]*\\): not run, #1 retrieveProperty`,
      ),
    );
    expect(text).not.toContain(`✓ ${openFirst.name}`);
  }, 60_000);

  it("binds an id the client took from a list by identity, not place: a reused account's leftover is not", async () => {
    const openFirst = usage.tests.find((test) => test.name === SAMPLE_TESTS.openFirst!.name)!;
    let leftover = "";
    // Listing oldest first, the account's leftover of an earlier run is the service's first entry.
    const report = await replay(
      "lists-oldest-first",
      { ...usage, tests: [openFirst] },
      {
        before: async (service) => {
          const { apiKey, token } = service.accounts.primary;
          const made = await fetch(`${service.url}/api/v1/object/property`, {
            method: "POST",
            headers: { "API-KEY": apiKey, TOKEN: token, "content-type": "application/json" },
            body: JSON.stringify({ street: "9 Leftover Lane", city: "Austin", state: "TX", zip: "78701" }),
          });
          leftover = String(((await made.json()) as { nid: string }).nid);
        },
      },
    );
    const start = report.created!.find((record) => record.by.includes("make property 1001"))!.nid;
    const retrieve = report.results.find(
      (result) =>
        result.consumerTest === openFirst.name &&
        result.check === "consumer_assumption" &&
        result.step.includes("#1 retrieveProperty"),
    );
    expect(retrieve?.request?.path).toBe(`/api/v1/object/property/${start}`);
    expect(retrieve?.request?.path).not.toBe(`/api/v1/object/property/${leftover}`);
    expect(verdicts(report)[openFirst.name]).toBe("passed");
  }, 60_000);

  it("takes the full account of a seats-full start as the fresh one, whichever role the usage gave it", async () => {
    const seats = structuredClone(usage.tests.find((test) => test.name === SAMPLE_TESTS.seats!.name)!);
    seats.interactions[0]!.request.account = "primary";
    const report = await replay(undefined, { ...usage, tests: [seats] });
    const judged = report.results.find(
      (result) => result.check === "consumer_assumption" && result.consumerTest === seats.name,
    )!;
    expect(judged.request?.status).toBe(402);
    expect(judged.message).toContain("seat-limit-status");
  }, 60_000);
});
