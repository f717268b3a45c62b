/**
 * Judging one interaction of a consumer's usage on what its client could notice (usage/judge-answer.ts), and a
 * whole usage against a recorded service profile alone (usage/judge-usage-offline.ts), with no request sent.
 */
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { createContract } from "../../../src/contract/create-contract.ts";
import { renderTextReport } from "../../../src/contract/runner/reporters/text-reporter.ts";
import { judgeAnswer } from "../../../src/contract/usage/judge-answer.ts";
import { judgeUsageOffline } from "../../../src/contract/usage/judge-usage-offline.ts";
import type { UsageDocument, UsageInteraction } from "../../../src/contract/usage/usage-document.ts";
import { error, PROFILE, provenance } from "../../support/sample-profile.ts";
import { recordSampleUsage, SAMPLE_TESTS } from "../../support/usage-samples.ts";

const contract = createContract();
let usage: UsageDocument;
beforeAll(async () => {
  usage = await recordSampleUsage(Object.values(SAMPLE_TESTS));
});
const interaction = (key: keyof typeof SAMPLE_TESTS, index = 0): UsageInteraction =>
  usage.tests.find((test) => test.name === SAMPLE_TESTS[key]!.name)!.interactions[index]!;

describe("judgeAnswer", () => {
  it("sees no difference where the document fixes only the type: another nid, another title", () => {
    const created = interaction("createEdit", 2);
    const body = { ...(created.response.body as object), nid: "500123", title: "Another title" };
    expect(judgeAnswer(created, { status: 200, mediaType: "application/json", body })).toEqual([]);
  });

  it("names each difference's basis: a status and a field on the seats assumption, section 7's value a fact", () => {
    const seats = interaction("seats");
    const differences = judgeAnswer(seats, {
      status: 403,
      mediaType: "application/json",
      body: { error: "Seats exhausted" },
    });
    expect(differences.map((difference) => [difference.what, difference.basis.tier])).toEqual([
      ["the status", "assumption"],
      ["the media type", "assumption"],
      ["the error value of section 7 (Not Enough Agent Seats)", "fact"],
    ]);
    expect(differences[0]!.basis).toMatchObject({ ids: ["seat-limit-status"] });
  });

  it("takes a field null on one side as data, but an answer missing a field the client got as a difference", () => {
    const retrieved = interaction("createEdit", 2);
    const body = { ...(retrieved.response.body as Record<string, unknown>), description: null };
    expect(judgeAnswer(retrieved, { status: 200, mediaType: "application/json", body })).toEqual([]);
    // A field the mock filled though no request set it (its country "US") rests on an assumption: null there is a
    // difference.
    expect((retrieved.response.body as Record<string, unknown>).country).toBe("US");
    const unset = judgeAnswer(retrieved, {
      status: 200,
      mediaType: "application/json",
      body: { ...body, country: null, half_baths: null },
    });
    expect(
      unset.map((difference) => [difference.what, difference.basis.tier === "assumption" ? difference.basis.ids : []]),
    ).toEqual([
      ["the field /country", ["never-set-defaults"]],
      ["the field /half_baths", ["never-set-defaults"]],
    ]);
    const seats = interaction("seats");
    const { title: _title, ...rest } = seats.response.body as Record<string, unknown>;
    expect(
      judgeAnswer(seats, { status: 402, mediaType: "application/problem+json", body: rest }).map(
        (difference) => difference.what,
      ),
    ).toEqual([
      // The problem's title carried the error value: without it the answer no longer names it (a fact).
      "the error value of section 7 (Not Enough Agent Seats)",
      "the field /title",
    ]);
  });
});

describe("judgeUsageOffline", () => {
  afterEach(() => vi.restoreAllMocks());

  it("fails the consumer whose seats screen rests on a 402 the profile saw as a 403, other body; sends nothing", () => {
    const fetch = vi.spyOn(globalThis, "fetch");
    const profile = {
      ...PROFILE,
      observations: {
        ...PROFILE.observations,
        "error.seats": error(403, { error: "Not Enough Agent Seats", message: "no seat left" }),
      },
    };
    const outcome = judgeUsageOffline({ usage, file: "usage.json", profile, profileFile: "profile.json", contract });
    if (outcome.kind !== "report") throw new Error(outcome.message);
    const { report } = outcome;
    expect(fetch).not.toHaveBeenCalled();
    expect(report.exchanges).toBe(0);
    const seats = report.results.filter(
      (result) => result.consumerTest === SAMPLE_TESTS.seats!.name && result.status === "failed",
    );
    expect(seats).toHaveLength(1);
    expect(seats[0]!.message).toMatch(
      new RegExp(
        /rests on seat-limit-status, error-body-shape at interaction /.source +
          /#0 \(createAgentCard POST \/api\/v1\/object\/agent_card\/\)/.source,
      ),
    );
    expect(seats[0]!.message).toContain("403 (error.seats)");
    // The invalid create rests on validation-status: the profile's error.validation is a 422 with another body.
    expect(report.usage!.tests.find((test) => test.name === SAMPLE_TESTS.invalid!.name)!.result).toBe("failed");
    expect(report.usage!.tests.find((test) => test.name === SAMPLE_TESTS.createEdit!.name)!.result).toBe("passed");
    expect(report.result).toBe("failed");
    // Nothing was sent: the text report has no coverage of operations to show.
    const text = renderTextReport(report);
    expect(text).toContain("Consumer tests");
    expect(text).not.toContain("Coverage:");
  });

  it("fails the test reading its property's unset fields where the profile saw null, naming never-set-defaults", () => {
    const profile = {
      ...PROFILE,
      observations: {
        ...PROFILE.observations,
        "unset.property": {
          ...provenance,
          fields: { country: "null", half_baths: "null", title: "value", bedrooms: "null" },
        },
      },
    } as typeof PROFILE;
    const outcome = judgeUsageOffline({ usage, file: "usage.json", profile, profileFile: "profile.json", contract });
    if (outcome.kind !== "report") throw new Error(outcome.message);
    const name = SAMPLE_TESTS.createEdit!.name;
    expect(outcome.report.usage!.tests.find((test) => test.name === name)!.result).toBe("failed");
    const failure = outcome.report.results.find(
      (result) => result.consumerTest === name && result.status === "failed",
    )!;
    expect(failure.message).toContain("rests on never-set-defaults at interaction #2 (retrieveProperty GET");
    expect(failure.message).toContain(
      "the field /country: the client got string, the profile says null (unset.property)",
    );
    expect(failure.message).toContain("the field /half_baths");
    // The title was set by the test's edit, bedrooms by its create: neither is judged as never set.
    expect(failure.message).not.toContain("/title");
    expect(failure.message).not.toContain("/bedrooms");
    // A property the test read from the start state is made with every field the mock held: not judged so.
    expect(outcome.report.usage!.tests.find((test) => test.name === SAMPLE_TESTS.retrieve!.name)!.result).toBe(
      "passed",
    );
  });

  it("passes a usage whose assumptions the profile saw kept, and skips what it did not record, with the reason", () => {
    const seats = interaction("seats");
    const problem = {
      ...error(402, {}),
      mediaTypes: ["application/problem+json"],
      schema: {
        type: "object",
        properties: Object.fromEntries(
          Object.keys(seats.response.body as object).map((key) => [
            key,
            { type: typeof (seats.response.body as Record<string, unknown>)[key] === "number" ? "integer" : "string" },
          ]),
        ),
      },
    };
    const profile = { ...PROFILE, observations: { "error.seats": problem } };
    const only = {
      ...usage,
      tests: usage.tests.filter(
        (test) => test.name === SAMPLE_TESTS.seats!.name || test.name === SAMPLE_TESTS.invalid!.name,
      ),
    };
    const outcome = judgeUsageOffline({
      usage: only,
      file: "usage.json",
      profile,
      profileFile: "profile.json",
      contract,
    });
    if (outcome.kind !== "report") throw new Error(outcome.message);
    expect(outcome.report.result).toBe("passed");
    const skipped = outcome.report.results.find((result) => result.status === "skipped")!;
    expect(skipped.message).toContain("error.validation");
  });
});
