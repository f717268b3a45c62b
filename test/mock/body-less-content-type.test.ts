/**
 * Issue 30, item 6: section 5 requires `content-type: application/json` on the four GETs of endpoints 1, 2, 5
 * and 15, which carry no body, and most clients (a generated one among them) send none without a body. The mock
 * answers such a request; the contract still reports it as breaking section 5; a content-type naming another
 * media type is still refused; and a service profile that saw the service refuse the request makes the mock
 * refuse it the same way.
 */
import request from "supertest";
import { afterEach, describe, expect, it } from "vitest";
import type { ServiceProfile } from "../../src/contract/profile/service-profile.ts";
import { createMockServer, type MockServer } from "../../src/hosts/node/create-mock-server.ts";
import { createHarness, sharedContract } from "../support/mock-harness.ts";
import { DEMO, tinyFixtures } from "../support/tiny-fixtures.ts";

const { mock } = createHarness();
const GETS = [
  ["retrieveProperty", "/api/v1/object/property/1001"],
  ["retrievePropertyByExternalId", "/api/v1/object/external-property/crm-1001"],
  ["listUserProperties", "/api/v1/object/properties/1"],
  ["retrieveTemplateCatalogue", "/api/v1/object/template_base"],
] as const;

describe("a GET of endpoints 1, 2, 5 and 15 without content-type", () => {
  it.each(GETS)("%s is answered 200 with the same body as with it", async (_operation, path) => {
    const without = await request(mock.app).get(path).set(DEMO).expect(200);
    const withIt = await request(mock.app)
      .get(path)
      .set({ ...DEMO, "content-type": "application/json" })
      .expect(200);
    expect(without.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(without.text).toBe(withIt.text);
  });

  it.each(GETS)("%s still breaks a documented fact of section 5 in the contract's eyes", (operation, path) => {
    const checked = sharedContract().validateRequest({ method: "GET", path, headers: DEMO });
    expect(checked.errors).toEqual([
      expect.objectContaining({ operation, part: "header", pointer: "/content-type", tier: "fact", section: "5" }),
    ]);
  });

  it("is journaled as sent, without the header", async () => {
    await request(mock.app).get("/api/v1/object/template_base").set(DEMO).expect(200);
    const [entry] = mock.requests();
    expect(entry!.headers).not.toHaveProperty("content-type");
  });
});

describe("what is still refused", () => {
  it("a GET whose content-type names another media type: 400 naming the header", async () => {
    const { body } = await request(mock.app)
      .get("/api/v1/object/property/1001")
      .set({ ...DEMO, "content-type": "text/plain" })
      .expect(400);
    expect(body.errors).toEqual([
      { in: "header", pointer: "/content-type", detail: "must be application/json, got text/plain" },
    ]);
  });

  it("a GET with an empty content-type: 400", async () => {
    const { body } = await request(mock.app)
      .get("/api/v1/object/template_base")
      .set({ ...DEMO, "content-type": "" })
      .expect(400);
    expect(body.errors).toEqual([
      { in: "header", pointer: "/content-type", detail: expect.stringContaining("is required") },
    ]);
  });

  it("a create whose body comes without content-type: 415, creating nothing", async () => {
    const before = mock.store.counts();
    await request(mock.app)
      .post("/api/v1/object/property")
      .set(DEMO)
      .send(Buffer.from(JSON.stringify({ street: "1 Main St", city: "Austin", state: "TX", zip: "78701" })))
      .expect(415);
    expect(mock.store.counts()).toEqual(before);
  });

  it("a GET without credentials: 401, whatever its content-type", async () => {
    await request(mock.app).get("/api/v1/object/property/1001").expect(401);
  });
});

describe("with a service profile", () => {
  const provenance = {
    step: "retrieve the property without a content-type header",
    observedAt: "2026-01-02T03:04:05.000Z",
    runId: "r1",
  };
  const refused: ServiceProfile = {
    profileVersion: 1,
    runId: "r1",
    recordedAt: "2026-01-02T03:04:05.000Z",
    observations: {
      "error.content_type.missing": {
        ...provenance,
        statuses: [406],
        mediaTypes: ["application/json"],
        example: { error: "Unsupported request content type" },
        schema: { type: "object", properties: { error: { type: "string" } }, required: ["error"] },
      },
    },
  };
  const answered: ServiceProfile = {
    profileVersion: 1,
    runId: "r2",
    recordedAt: "2026-01-02T03:04:05.000Z",
    observations: { "media_type.success": { ...provenance, value: ["application/json"] } },
  };
  const started: MockServer[] = [];
  afterEach(async () => {
    for (const profiled of started.splice(0)) await profiled.close();
  });
  const withProfile = (profile: ServiceProfile) => {
    const profiled = createMockServer({
      fixtures: tinyFixtures(),
      profile,
      contract: sharedContract(),
      validateResponses: true,
      quiet: true,
    });
    started.push(profiled);
    return profiled;
  };

  it("that saw the service refuse a retrieve without content-type: refused alike, and answered with it", async () => {
    const profiled = withProfile(refused);
    for (const [, path] of GETS) {
      const { body } = await request(profiled.app).get(path).set(DEMO).expect(406);
      expect(body).toEqual({ error: expect.any(String) });
      await request(profiled.app)
        .get(path)
        .set({ ...DEMO, "content-type": "application/json" })
        .expect(200);
    }
    expect(profiled.violations).toEqual([]);
  });

  it("that saw no such refusal: answered", async () => {
    const profiled = withProfile(answered);
    for (const [, path] of GETS) await request(profiled.app).get(path).set(DEMO).expect(200);
    expect(profiled.violations).toEqual([]);
  });
});
