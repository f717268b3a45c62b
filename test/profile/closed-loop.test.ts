/**
 * Issue 20, item 4: the closed loop, for the independent implementation and each of its legitimate variants V
 * (choices the document leaves open). A profile recorded from V makes the mock answer like V: (a) the runner
 * holding that profile passes against the mock and against V; (b) a fixed set of error probes gets the same
 * status, media type and body shape from both; (c) the same profile fails against another variant W, with
 * profile_conformance naming the observation that differs and when it was recorded.
 * In-process for the whole matrix; test/profile/profile-cli.test.ts goes through the programs as processes.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inferJsonSchema } from "../../src/contract/profile/infer-json-schema.ts";
import type { ServiceProfile } from "../../src/contract/profile/service-profile.ts";
import type { RunReport } from "../../src/contract/runner/run-report.ts";
import { createMockServer, type MockServer } from "../../src/hosts/node/create-mock-server.ts";
import {
  LEGITIMATE_VARIANTS,
  startIndependentService,
  type IndependentService,
} from "../support/independent-service/index.ts";
import { errorProbes, probeAll, type ProbeAnswer } from "../support/error-probes.ts";
import { closedContract, run, serviceAccounts, type Accounts } from "../support/profile-runs.ts";

/** The plain instance, then every legitimate variant. */
const UNDER_TEST = ["plain", ...LEGITIMATE_VARIANTS.map((variant) => variant.name)];
/** The variant each profile is held against for (c): one whose errors all differ (every refusal 400, another body). */
const otherThan = (name: string) => (name === "errors-all-400-list-body" ? "plain" : "errors-all-400-list-body");
const start = (name: string) => startIndependentService(name === "plain" ? {} : { variant: name });

let freshKeys = 0;
const mockAccounts = (profile: ServiceProfile): Accounts => {
  freshKeys += 1;
  const seats = profile.observations["seats.fresh"]?.value;
  return {
    apiKey: "demo-key",
    token: "demo-token",
    other: { apiKey: "broker-key", token: "broker-token" },
    fresh: { apiKey: `loop-fresh-${freshKeys}`, token: "loop-fresh-token", ...(seats ? { seats } : {}) },
  };
};

const failures = (report: RunReport) =>
  report.results
    .filter((result) => result.status === "failed")
    .map((result) => `${result.check} [${result.step}]: ${result.message}`);
const shape = (answer: ProbeAnswer) => ({
  status: answer.status,
  mediaType: answer.mediaType.replace(/\s+/g, "").toLowerCase(),
  body: inferJsonSchema(answer.body),
});

describe.each(UNDER_TEST)("the closed loop with %s", (name) => {
  let service: IndependentService;
  let mock: MockServer;
  let mockUrl: string;
  let profile: ServiceProfile;

  beforeAll(async () => {
    service = await start(name);
    const recorded = await run(service.url, serviceAccounts(service), {
      recordProfile: true,
      runId: `record-${name}`,
      fetch: service.fetch,
    });
    profile = recorded.profile!;
    mock = createMockServer({ profile, validateResponses: true, contract: closedContract, quiet: true });
    mockUrl = (await mock.listen(0, "127.0.0.1")).url;
  });
  afterAll(async () => {
    await mock?.close();
    await service?.close();
  });

  it("records every error situation the run provokes, and the other points", () => {
    const points = Object.keys(profile.observations);
    const expected = [
      "error.validation",
      "error.unauthorized.missing",
      "error.unauthorized.wrong",
      "error.not_found",
      "error.foreign_record",
      "error.no_route",
      "error.method_not_allowed",
      "error.content_type.missing",
      "error.content_type.wrong",
      "error.seats",
      "error.unknown_property_reference",
      "media_type.success",
      "order.property_list",
      "order.template_catalogue",
      "derived.edit_property",
      "external_id.duplicate",
      "encoding.empty_agent_list",
      "seats.fresh",
      "unset.property",
    ];
    expect(expected.filter((point) => !points.includes(point))).toEqual([]);
  });

  it("(a) the runner with V's profile passes against the mock playing it, and against V", async () => {
    const againstMock = await run(mockUrl, mockAccounts(profile), { profile, runId: `mock-${name}` });
    expect(failures(againstMock.report)).toEqual([]);
    expect(againstMock.report.summary.profile_conformance!.passed).toBe(Object.keys(profile.observations).length);
    expect(mock.violations).toEqual([]);
    const againstService = await run(service.url, serviceAccounts(service), {
      profile,
      runId: `again-${name}`,
      fetch: service.fetch,
    });
    expect(failures(againstService.report)).toEqual([]);
  });

  it("(b) a fixed set of error probes gets the same status, media type and body shape from mock and V", async () => {
    const fromService = await probeAll(service.url, errorProbes(service.accounts.primary, service.accounts.other));
    const fromMock = await probeAll(
      mockUrl,
      errorProbes({ apiKey: "demo-key", token: "demo-token" }, { apiKey: "broker-key", token: "broker-token" }),
    );
    expect(fromMock.map(shape)).toEqual(fromService.map(shape));
  });

  it("(c) the profile fails against another variant, profile_conformance naming the observation and when", async () => {
    const other = await start(otherThan(name));
    try {
      const outcome = await run(other.url, serviceAccounts(other), {
        profile,
        runId: `drift-${name}`,
        fetch: other.fetch,
      });
      const drift = outcome.report.results.filter(
        (result) => result.check === "profile_conformance" && result.status === "failed",
      );
      expect(drift.length).toBeGreaterThan(0);
      expect(drift[0]!.tier).toBe("profile");
      expect(drift[0]!.message).toMatch(
        /^[a-z_]+\.[a-z_.]+ differs from the profile \(recorded by ".+" at \d{4}-\d\d-\d\dT[0-9:.]+Z in run record-/,
      );
      expect(outcome.report.result).toBe("failed");
    } finally {
      await other.close();
    }
  });
});
