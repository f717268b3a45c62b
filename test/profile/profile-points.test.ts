/**
 * Issue 20, points a run profiles beyond the error situations of the scenario: an external id another property
 * has; the never-set fields of an agent; the undocumented fields of the property list's items. Each is recorded from
 * one implementation and held against another that answers otherwise, where profile_conformance names the point and
 * when it was recorded. In-process, as closed-loop.test.ts.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ServiceProfile } from "../../src/contract/profile/service-profile.ts";
import type { RunReport } from "../../src/contract/runner/run-report.ts";
import { createMockServer, type MockServer } from "../../src/hosts/node/create-mock-server.ts";
import { closedContract, run, serviceAccounts, type Accounts } from "../support/profile-runs.ts";
import { startIndependentService, type IndependentService } from "../support/independent-service/index.ts";

const folder = mkdtempSync(join(tmpdir(), "profile-points-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

let freshKeys = 0;
const mockAccounts = (): Accounts => {
  freshKeys += 1;
  return {
    apiKey: "demo-key",
    token: "demo-token",
    other: { apiKey: "broker-key", token: "broker-token" },
    fresh: { apiKey: `points-fresh-${freshKeys}`, token: "points-fresh-token", seats: 3 },
  };
};
const drift = (report: RunReport, point: string) =>
  report.results
    .filter(
      (result) =>
        result.check === "profile_conformance" &&
        result.status === "failed" &&
        result.step.endsWith(`(profile: ${point})`),
    )
    .map((result) => result.message);

describe("points profiled beyond the scenario's errors", () => {
  let service: IndependentService;
  let mock: MockServer;
  let mockUrl: string;
  let fromMock: ServiceProfile;
  let fromService: ServiceProfile;

  beforeAll(async () => {
    service = await startIndependentService();
    mock = createMockServer({ quiet: true, agentSeats: 3 });
    mockUrl = (await mock.listen(0, "127.0.0.1")).url;
    fromMock = (await run(mockUrl, mockAccounts(), { recordProfile: true, runId: "points-mock" })).profile!;
    fromService = (
      await run(service.url, serviceAccounts(service), {
        recordProfile: true,
        runId: "points-service",
        fetch: service.fetch,
      })
    ).profile!;
  });
  afterAll(async () => {
    await mock?.close();
    await service?.close();
  });

  it("records an external id in use: the mock's refusal as an error point, the independent service's taking", () => {
    expect(fromMock.observations["external_id.duplicate"]).toMatchObject({
      value: "refused",
      step: "give the second property the external id of the first",
      runId: "points-mock",
    });
    expect(fromMock.observations["error.external_id_in_use"]).toMatchObject({
      statuses: [409],
      mediaTypes: ["application/problem+json; charset=utf-8"],
      example: {
        title: "External Id Already In Use",
        status: 409,
        detail: expect.stringContaining("already belongs to property"),
      },
      schema: { type: "object", required: expect.arrayContaining(["type", "title", "status", "detail"]) },
    });
    expect(fromService.observations["external_id.duplicate"]?.value).toBe("accepted");
    expect(fromService.observations["error.external_id_in_use"]).toBeUndefined();
  });

  it("catches drift on an external id in use, both ways", async () => {
    const againstService = await run(service.url, serviceAccounts(service), {
      profile: fromMock,
      runId: "points-drift-1",
      fetch: service.fetch,
    });
    expect(drift(againstService.report, "external_id.duplicate")).toEqual([
      expect.stringMatching(
        new RegExp(
          /^external_id\.duplicate differs from the profile \(recorded by /.source +
            /"give the second property the external id of the first" at \S+ /.source +
            /in run points-mock\): "accepted", the profile recorded "refused"$/.source,
        ),
      ),
    ]);
    const againstMock = await run(mockUrl, mockAccounts(), { profile: fromService, runId: "points-drift-2" });
    expect(drift(againstMock.report, "external_id.duplicate")).toEqual([
      expect.stringContaining('"refused", the profile recorded "accepted"'),
    ]);
  });

  it("catches a refusal answered otherwise than recorded", async () => {
    const otherRefusal = structuredClone(fromMock);
    otherRefusal.observations["error.external_id_in_use"] = {
      ...otherRefusal.observations["error.external_id_in_use"]!,
      statuses: [422],
      mediaTypes: ["application/json"],
      schema: { type: "object", required: ["message"], properties: { message: { type: "string" } } },
      example: { message: "in use" },
    };
    const outcome = await run(mockUrl, mockAccounts(), { profile: otherRefusal, runId: "points-drift-3" });
    expect(drift(outcome.report, "error.external_id_in_use")).toEqual([
      expect.stringMatching(
        new RegExp(
          /^error\.external_id_in_use differs from the profile .*: answered /.source +
            /409, the profile recorded 422; answered as "application\/problem\+json; /.source +
            /charset=utf-8", the profile recorded "application\/json"; /.source +
            /a body does not have the recorded shape: the body lacks message/.source,
        ),
      ),
    ]);
  });

  it("records how an agent's never-set fields come back: the mock's defaults, the independent service's nulls", () => {
    expect(fromMock.observations["unset.agent"]).toMatchObject({
      step: "retrieve the agent created with its names and email only, to profile",
      fields: {
        phone: "empty",
        company: "empty",
        professional_title: "empty",
        license: "null",
        website: "value",
        social_media_links: "empty",
        card_type: "value",
        agency_profile: "value",
        headshot_url: "value",
        notes: "null",
      },
    });
    const fields = fromService.observations["unset.agent"]!.fields;
    expect(Object.keys(fields).sort()).toEqual([
      "agency_profile",
      "card_type",
      "company",
      "headshot_url",
      "license",
      "notes",
      "phone",
      "professional_title",
      "social_media_links",
      "website",
    ]);
    expect(new Set(Object.values(fields))).toEqual(new Set(["null"]));
  });

  it("the mock plays the service's never-set agent fields back, and drift on them fails", async () => {
    const db = join(folder, "agents.json");
    let playing = createMockServer({
      quiet: true,
      agentSeats: 3,
      profile: fromService,
      validateResponses: true,
      contract: closedContract,
      db,
    });
    let url = (await playing.listen(0, "127.0.0.1")).url;
    try {
      const headers = { "API-KEY": "demo-key", TOKEN: "demo-token", "content-type": "application/json" };
      const given = {
        agent_first_name: "Nul",
        agent_last_name: "Fields",
        email: "nul.fields@points.example",
        phone: "(512) 555-0100",
        card_type: "broker",
      };
      const nid = (
        (await (
          await fetch(`${url}/api/v1/object/agent_card/`, { method: "POST", headers, body: JSON.stringify(given) })
        ).json()) as { nid: string }
      ).nid;
      const card = (await (
        await fetch(`${url}/api/v1/object/agent_card/${nid}`, { method: "POST", headers })
      ).json()) as Record<string, unknown>;
      expect(card).toMatchObject({
        phone: "(512) 555-0100",
        card_type: "broker",
        company: null,
        professional_title: null,
        license: null,
        website: null,
        social_media_links: null,
        agency_profile: null,
        headshot_url: null,
        notes: null,
      });
      expect(playing.violations).toEqual([]);
      // The stored card, nulls and all, can be written back raw.
      const stored = (await (await fetch(`${url}/__db/agents/${nid}`)).json()) as Record<string, unknown>;
      expect(stored).toMatchObject({ company: null, social_media_links: null });
      expect(
        (
          await fetch(`${url}/__db/agents/${nid}`, {
            method: "PUT",
            headers: { "content-type": "application/json" },
            body: JSON.stringify(stored),
          })
        ).status,
      ).toBe(200);
      // Kept as answered across a restart (--db).
      await playing.close();
      playing = createMockServer({
        quiet: true,
        agentSeats: 3,
        profile: fromService,
        validateResponses: true,
        contract: closedContract,
        db,
      });
      url = (await playing.listen(0, "127.0.0.1")).url;
      expect(await (await fetch(`${url}/api/v1/object/agent_card/${nid}`, { method: "POST", headers })).json()).toEqual(
        card,
      );
      const againstMock = await run(url, mockAccounts(), { profile: fromService, runId: "points-agent-1" });
      expect(drift(againstMock.report, "unset.agent")).toEqual([]);
      expect(againstMock.report.results.find((result) => result.step.endsWith("(profile: unset.agent)"))?.status).toBe(
        "passed",
      );
    } finally {
      await playing.close();
    }
    const againstPlain = await run(mockUrl, mockAccounts(), { profile: fromService, runId: "points-agent-2" });
    expect(drift(againstPlain.report, "unset.agent")).toEqual([
      expect.stringMatching(
        new RegExp(
          /^unset\.agent differs from the profile \(recorded by "retrieve the agent /.source +
            /created with its names and email only, to profile" at \S+ in run points-service\): /.source +
            /phone is "empty", recorded "null"; company is "empty", recorded "null"/.source,
        ),
      ),
    ]);
  });

  it("records the undocumented fields of the property list's items, plays them back, catches their drift", async () => {
    expect(fromService.observations["extra_fields.property_list_item"]).toMatchObject({
      step: expect.any(String),
      runId: "points-service",
      fields: { changed: { types: ["integer"], example: expect.any(Number) } },
    });
    expect(fromMock.observations["extra_fields.property_list_item"]).toBeUndefined();
    const playing = createMockServer({
      quiet: true,
      agentSeats: 3,
      profile: fromService,
      validateResponses: true,
      contract: closedContract,
    });
    const url = (await playing.listen(0, "127.0.0.1")).url;
    try {
      const headers = { "API-KEY": "demo-key", TOKEN: "demo-token", "content-type": "application/json" };
      const created = (await (
        await fetch(`${url}/api/v1/object/property`, {
          method: "POST",
          headers,
          body: JSON.stringify({ street: "9 List Item Row", city: "Austin", state: "TX", zip: "78701" }),
        })
      ).json()) as { nid: string };
      const { uid } = (await (await fetch(`${url}/api/v1/object/property/${created.nid}`, { headers })).json()) as {
        uid: string;
      };
      const items = (await (await fetch(`${url}/api/v1/object/properties/${uid}`, { headers })).json()) as Array<
        Record<string, unknown>
      >;
      expect(items.length).toBeGreaterThan(1);
      // The property created here has no title on the profiled service (unset.property: null), and so when played
      // back.
      for (const item of items)
        expect(item).toEqual({
          nid: expect.any(String),
          published: expect.any(String),
          title: item.nid === created.nid ? null : expect.any(String),
          external_id: item.external_id,
          changed: fromService.observations["extra_fields.property_list_item"]!.fields.changed!.example,
        });
      expect(playing.violations).toEqual([]);
      const againstPlaying = await run(url, mockAccounts(), { profile: fromService, runId: "points-list-1" });
      expect(
        againstPlaying.report.results.find((result) =>
          result.step.endsWith("(profile: extra_fields.property_list_item)"),
        )?.status,
      ).toBe("passed");
    } finally {
      await playing.close();
    }
    const againstPlain = await run(mockUrl, mockAccounts(), { profile: fromService, runId: "points-list-2" });
    expect(drift(againstPlain.report, "extra_fields.property_list_item")).toEqual([
      expect.stringMatching(
        new RegExp(
          /^extra_fields\.property_list_item differs from the profile /.source +
            /\(recorded by ".+" at \S+ in run points-service\): changed /.source +
            /is gone \(recorded \{"types":\["integer"\],"example":\d+\}\)$/.source,
        ),
      ),
    ]);
  });
});
