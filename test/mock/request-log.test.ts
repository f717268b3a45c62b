/** The request log (what `npm start` prints per request): a timestamp, and for an error, why. */
import request from "supertest";
import { describe, expect, it } from "vitest";
import { createMockServer } from "../../src/mock/create-mock-server.ts";
import { sharedContract } from "../support/mock-harness.ts";
import { DEMO, tinyFixtures } from "../support/tiny-fixtures.ts";

const lines: string[] = [];
const at = Date.UTC(2026, 0, 2, 3, 4, 5, 678);
const mock = createMockServer({ fixtures: tinyFixtures(), contract: sharedContract(), log: (line) => lines.push(line), now: () => at });
const last = () => lines.at(-1)!;

describe("a line of the request log", () => {
  it("starts with the time of the answer, then the method, path, status and duration", async () => {
    await request(mock.app).get("/api/v1/object/template_base").set({ ...DEMO, "content-type": "application/json" }).expect(200);
    expect(last()).toMatch(/^2026-01-02T03:04:05\.678Z GET \/api\/v1\/object\/template_base 200 \d+ms$/);
  });

  it("gives an error's title and its first offending field, and how many more there are", async () => {
    await request(mock.app).post("/api/v1/object/property").set({ ...DEMO, "content-type": "application/json" }).send({ city: "Austin", garage: "attached" }).expect(400);
    expect(last()).toMatch(/^2026-01-02T03:04:05\.678Z POST \/api\/v1\/object\/property 400 \d+ms Invalid Request: body \/\S+ .+ \(and \d+ more\)$/);
  });

  it("gives an error's title and detail when no field is at fault", async () => {
    await request(mock.app).get("/api/v1/object/agent_cards").expect(401);
    expect(last()).toMatch(/ GET \/api\/v1\/object\/agent_cards 401 \d+ms Unauthorized: The API-KEY header is missing\.$/);
    await request(mock.app).post("/api/v1/object/agent_card").set({ ...DEMO, "content-type": "application/json" }).send({}).expect(404);
    expect(last()).toContain(" 404 ");
    expect(last()).toContain("Not Found: No operation of the Property Listing Service at POST /api/v1/object/agent_card. Did you mean POST /api/v1/object/agent_card/?");
  });

  it("stays one line whatever the client sent", async () => {
    await request(mock.app).post("/api/v1/object/property").set({ ...DEMO, "content-type": "application/json" }).send('{"street": "a\nb"').expect(400);
    expect(last()).toMatch(/ 400 \d+ms Malformed JSON: /);
    expect(last()).not.toContain("\n");
  });
});
