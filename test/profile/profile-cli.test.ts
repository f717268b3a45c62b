/**
 * Issue 20 through the two programs as processes, as a user runs them: property-listing-contract records a
 * service profile from a service (--write-profile) and from a recording; property-listing-mock plays it back
 * (--profile, MOCK_PROFILE) and names it; the runner holds a service to it (--profile) and names every
 * difference; a profile that cannot be used whole is refused at start with exit 2, naming the entry.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createContract } from "../../src/contract/create-contract.ts";
import { sortedJson } from "../../src/contract/profile/infer-json-schema.ts";
import { readServiceProfile } from "../../src/contract/profile/read-service-profile.ts";
import type { ServiceProfile } from "../../src/contract/profile/service-profile.ts";
import type { RunReport } from "../../src/contract/runner/run-report.ts";
import { errorProbes } from "../support/error-probes.ts";
import { startIndependentService, type IndependentService } from "../support/independent-service/index.ts";
import { freePort, startProcess, waitForHealthy, type StartedProcess } from "../support/start-process.ts";

const document = createContract().document;
const folder = mkdtempSync(join(tmpdir(), "profile-cli-"));
const file = (name: string) => join(folder, name);
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** Runs a program of dist/cli to its end: its exit code and output. */
async function program(
  name: "contract" | "mock",
  args: string[],
  env: NodeJS.ProcessEnv = {},
): Promise<{ code: number | string; output: string }> {
  const started = startProcess("node", [`dist/cli/${name}.js`, ...args], env);
  const code = await started.exited;
  return { code, output: started.output() };
}

/** The mock as a process on a free port, once it answers /healthz. */
async function startMock(
  args: string[],
  env: NodeJS.ProcessEnv = {},
): Promise<{ process: StartedProcess; url: string }> {
  const port = await freePort();
  const process = startProcess("node", ["dist/cli/mock.js", "--port", String(port), "--quiet", ...args], env);
  const url = `http://127.0.0.1:${port}`;
  await waitForHealthy(`${url}/healthz`);
  return { process, url };
}

const mockAccounts = (fresh: string) => [
  "--api-key",
  "demo-key",
  "--token",
  "demo-token",
  "--other-api-key",
  "broker-key",
  "--other-token",
  "broker-token",
  "--fresh-api-key",
  fresh,
  "--fresh-token",
  `${fresh}-token`,
];
const readReport = (name: string) => JSON.parse(readFileSync(file(name), "utf8")) as RunReport;

describe("record, play back, catch drift, through the programs", () => {
  let service: IndependentService;
  let profile: ServiceProfile;
  let profiled: { process: StartedProcess; url: string };
  let plain: { process: StartedProcess; url: string };
  let recorded: { code: number | string; output: string };

  beforeAll(async () => {
    service = await startIndependentService();
    const { primary, other, fresh } = service.accounts;
    recorded = await program("contract", [
      "--base-url",
      service.url,
      "--api-key",
      primary.apiKey,
      "--token",
      primary.token,
      "--other-api-key",
      other.apiKey,
      "--other-token",
      other.token,
      "--fresh-api-key",
      fresh.apiKey,
      "--fresh-token",
      fresh.token,
      "--fresh-seats",
      String(fresh.agentSeats),
      "--run-id",
      "staging-1",
      "--write-profile",
      file("service.profile.json"),
      "--reporter",
      "json",
      "--output",
      file("record.json"),
    ]);
    profile = JSON.parse(readFileSync(file("service.profile.json"), "utf8")) as ServiceProfile;
    [profiled, plain] = await Promise.all([
      startMock(["--profile", file("service.profile.json"), "--validate-responses"]),
      startMock([]),
    ]);
  });
  afterAll(async () => {
    for (const started of [profiled, plain]) {
      started?.process.signal("SIGTERM");
      await started?.process.exited;
    }
    await service?.close();
  });

  it("--write-profile writes a versioned, sorted profile valid to its schema, entries with step, time, run", () => {
    expect(recorded.code).toBe(0);
    expect(recorded.output).toMatch(/Service profile written to .*service\.profile\.json \(\d+ observations\)/);
    const text = readFileSync(file("service.profile.json"), "utf8");
    expect(text).toBe(sortedJson(JSON.parse(text)));
    expect(readServiceProfile(text, document)).toMatchObject({ ok: true });
    expect(profile).toMatchObject({ profileVersion: 1, runId: "staging-1", baseUrl: service.url });
    for (const entry of Object.values(profile.observations))
      expect(entry).toMatchObject({
        step: expect.any(String),
        runId: "staging-1",
        observedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      });
    expect(profile.observations["error.unauthorized.wrong"]).toMatchObject({
      statuses: [403],
      mediaTypes: ["application/json; charset=utf-8"],
      example: { error: expect.any(String), kind: "auth" },
    });
    expect(profile.observations["order.agent_list"]?.value).toBe("descending");
    expect(profile.observations["seats.fresh"]?.value).toBe(service.accounts.fresh.agentSeats);
    expect(profile.observations["external_id.duplicate"]?.value).toBe("accepted");
    expect(profile.observations["unset.agent"]?.fields).toMatchObject({
      phone: "null",
      website: "null",
      card_type: "null",
      social_media_links: "null",
    });
    expect(profile.observations["extra_fields.property_list_item"]?.fields).toEqual({
      changed: { types: ["integer"], example: expect.any(Number) },
    });
  });

  it("the mock started with it names the profile in banner and /healthz, answers errors as the service", async () => {
    expect(profiled.process.output()).toContain(
      `Profile      ${file("service.profile.json")}: answers as run staging-1`,
    );
    const health = (await (await fetch(`${profiled.url}/healthz`)).json()) as { profile: unknown };
    expect(health.profile).toEqual({
      source: file("service.profile.json"),
      runId: "staging-1",
      recordedAt: profile.recordedAt,
    });
    const [noCredentials] = errorProbes(
      { apiKey: "demo-key", token: "demo-token" },
      { apiKey: "broker-key", token: "broker-token" },
    ).filter((probe) => probe.name === "an unknown route");
    const answer = await fetch(`${profiled.url}${noCredentials!.path}`, { headers: noCredentials!.headers });
    expect(answer.status).toBe(profile.observations["error.no_route"]!.statuses[0]);
    expect(answer.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(await answer.json()).toEqual({
      message: expect.stringContaining("No operation of the Property Listing Service at GET /api/v1/object/nowhere"),
    });
    // Without a profile, the mock's own answer: problem+json.
    const own = await fetch(`${plain.url}${noCredentials!.path}`, { headers: noCredentials!.headers });
    expect([own.status, own.headers.get("content-type")]).toEqual([404, "application/problem+json; charset=utf-8"]);
  });

  it("--profile passes the mock playing the profile, none of its answers breaking contract or profile", async () => {
    const run = await program("contract", [
      "--base-url",
      profiled.url,
      ...mockAccounts("cli-fresh-1"),
      "--fresh-seats",
      String(service.accounts.fresh.agentSeats),
      "--profile",
      file("service.profile.json"),
      "--reporter",
      "json",
      "--output",
      file("against-mock.json"),
    ]);
    expect(run.code).toBe(0);
    const report = readReport("against-mock.json");
    expect(report.summary.profile_conformance).toEqual({
      passed: Object.keys(profile.observations).length,
      failed: 0,
      warning: 0,
      skipped: 0,
    });
    expect(profiled.process.output()).not.toContain("CONTRACT VIOLATION");
  });

  it("--profile fails the mock without the profile, each difference naming its observation and its time", async () => {
    const run = await program("contract", [
      "--base-url",
      plain.url,
      ...mockAccounts("cli-fresh-2"),
      "--profile",
      file("service.profile.json"),
    ]);
    expect(run.code).toBe(1);
    expect(run.output).toMatch(/profile_conformance \[profile[^\]]*\]: .*\(profile: error\.unauthorized\.wrong\)/);
    expect(run.output).toContain('error.unauthorized.wrong differs from the profile (recorded by "');
    expect(run.output).toMatch(
      new RegExp(
        /in run staging-1\): answered 401, the profile recorded /.source +
          /403; answered as "application\/problem\+json; charset=utf-8", /.source +
          /the profile recorded "application\/json; charset=utf-8"/.source,
      ),
    );
    // An agent's never-set fields: the service's null, the mock's own empty string; the list items' extra field gone.
    expect(run.output).toMatch(
      new RegExp(
        /unset\.agent differs from the profile \(recorded by "retrieve the agent created /.source +
          /with its names and email only, to profile" at [^)]+ in run staging-1\): /.source +
          /agency_profile is "value", recorded "null"; .*phone is "empty", recorded "null"/.source,
      ),
    );
    expect(run.output).toMatch(
      new RegExp(
        /extra_fields\.property_list_item differs from the profile /.source +
          /\(recorded by "[^"]+" at [^)]+ in run staging-1\): changed is gone/.source,
      ),
    );
    // The service took a second property's external id; the mock without the profile refuses it.
    expect(run.output).toMatch(
      new RegExp(
        /external_id\.duplicate differs from the profile \(recorded by /.source +
          /"give the second property the external id of the first" at [^)]+ /.source +
          /in run staging-1\): "refused", the profile recorded "accepted"/.source,
      ),
    );
  });

  it("without --profile a run has no profile check", async () => {
    const run = await program("contract", [
      "--base-url",
      plain.url,
      ...mockAccounts("cli-fresh-3"),
      "--reporter",
      "json",
      "--output",
      file("plain.json"),
    ]);
    expect(run.code).toBe(0);
    const report = readReport("plain.json");
    expect(Object.keys(report.summary)).not.toContain("profile_conformance");
    expect(report.results.some((result) => result.step.includes("to profile"))).toBe(false);
  });

  it("--recording --write-profile profiles what a recording shows, and --profile holds a recording to it", async () => {
    const { primary } = service.accounts;
    const exchanges = [];
    for (const probe of errorProbes(primary, service.accounts.other).filter((each) => !each.path.includes("{nid"))) {
      const response = await fetch(`${service.url}${probe.path}`, {
        method: probe.method,
        headers: probe.headers,
        ...(probe.body ? { body: probe.body } : {}),
      });
      const text = await response.text();
      exchanges.push({
        request: {
          method: probe.method,
          url: `${service.url}${probe.path}`,
          headers: probe.headers,
          ...(probe.body ? { body: JSON.parse(probe.body) } : {}),
        },
        response: {
          status: response.status,
          headers: { "content-type": response.headers.get("content-type") },
          body: JSON.parse(text),
        },
      });
    }
    writeFileSync(file("traffic.json"), JSON.stringify(exchanges));
    const made = await program("contract", [
      "--recording",
      file("traffic.json"),
      "--write-profile",
      file("recording.profile.json"),
      "--quiet",
    ]);
    expect(made.output).toContain("Service profile written to");
    const fromRecording = JSON.parse(readFileSync(file("recording.profile.json"), "utf8")) as ServiceProfile;
    expect(fromRecording.recording).toBe(file("traffic.json"));
    for (const point of [
      "error.no_route",
      "error.validation",
      "error.content_type.wrong",
      "error.not_found",
      "error.unknown_property_reference",
    ]) {
      expect(fromRecording.observations[point as "error.no_route"]).toMatchObject({
        statuses: [profile.observations[point as "error.no_route"]!.statuses[0]],
      });
    }
    const held = await program("contract", [
      "--recording",
      file("traffic.json"),
      "--profile",
      file("service.profile.json"),
      "--reporter",
      "json",
      "--output",
      file("recording-held.json"),
      "--quiet",
    ]);
    expect(readReport("recording-held.json").summary.profile_conformance).toMatchObject({ failed: 0 });
    expect(held.code).toBe(made.code);
  });
});

describe("a profile that cannot be used whole is refused at start, naming the entry", () => {
  const good = (): ServiceProfile => ({
    profileVersion: 1,
    runId: "r1",
    recordedAt: "2026-01-02T03:04:05.000Z",
    observations: {
      "error.seats": {
        step: "s",
        observedAt: "2026-01-02T03:04:05.000Z",
        runId: "r1",
        statuses: [402],
        mediaTypes: ["application/json"],
        schema: { type: "object", properties: { error: { type: "string" } }, required: ["error"] },
        example: { error: "Not Enough Agent Seats" },
      },
    },
  });
  const cases: Array<[string, string, RegExp]> = [
    ["not JSON", "{ profileVersion: 1", /not JSON/],
    [
      "another version",
      JSON.stringify({ ...good(), profileVersion: 2 }),
      /profileVersion is 2; this kit reads version 1/,
    ],
    [
      "an unknown key",
      JSON.stringify({
        ...good(),
        observations: { ...good().observations, "error.teapot": good().observations["error.seats"] },
      }),
      /entry \/observations: unknown key "error.teapot"/,
    ],
    [
      "an error answered 200",
      JSON.stringify({
        ...good(),
        observations: { "error.seats": { ...good().observations["error.seats"]!, statuses: [200] } },
      }),
      /entry \/observations\/error\.seats: status 200 is not a refusal/,
    ],
    [
      "an error as HTML",
      JSON.stringify({
        ...good(),
        observations: { "error.seats": { ...good().observations["error.seats"]!, mediaTypes: ["text/html"] } },
      }),
      /entry \/observations\/error\.seats: media type "text\/html" is not JSON/,
    ],
    [
      "a named error not named",
      JSON.stringify({
        ...good(),
        observations: { "error.seats": { ...good().observations["error.seats"]!, example: { error: "full" } } },
      }),
      /entry \/observations\/error\.seats: its body does not name the error value "Not Enough Agent Seats"/,
    ],
    [
      "an error body with a success status",
      JSON.stringify({
        ...good(),
        observations: {
          "error.seats": {
            ...good().observations["error.seats"]!,
            schema: {},
            example: { error: "Not Enough Agent Seats", status: 200 },
          },
        },
      }),
      /its body's status 200 is a success status/,
    ],
    [
      "a documented field absent",
      JSON.stringify({
        ...good(),
        observations: {
          "unset.property": {
            step: "s",
            observedAt: "2026-01-02T03:04:05.000Z",
            runId: "r1",
            fields: { bedrooms: "absent" },
          },
        },
      }),
      new RegExp(
        /entry \/observations\/unset\.property: bedrooms comes back /.source +
          /absent, but section 2\.1 says absent values come back as null/.source,
      ),
    ],
  ];

  it.each(cases)("%s: the mock (MOCK_PROFILE) exits 2", async (_name, text, message) => {
    const path = file(`bad-${_name.replace(/\W+/g, "-")}.json`);
    writeFileSync(path, text);
    const started = await program("mock", ["--port", "0"], { MOCK_PROFILE: path });
    expect(started.code).toBe(2);
    expect(started.output).toContain(`The service profile ${path} is refused`);
    expect(started.output).toMatch(message);
  });

  it("the runner's --profile exits 2 too, before sending anything", async () => {
    const path = file("bad-runner.json");
    writeFileSync(
      path,
      JSON.stringify({
        ...good(),
        observations: { "error.seats": { ...good().observations["error.seats"]!, statuses: [204] } },
      }),
    );
    const run = await program("contract", [
      "--base-url",
      "http://127.0.0.1:9",
      "--api-key",
      "k",
      "--token",
      "t",
      "--profile",
      path,
    ]);
    expect(run.code).toBe(2);
    expect(run.output).toMatch(
      /The service profile .* is refused:\n {2}entry \/observations\/error\.seats: status 204 is not a refusal/,
    );
  });
});
