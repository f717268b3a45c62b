/** The request log (what `npm start` prints per request): a timestamp, and for an error, why. */
import request from "supertest";
import { describe, expect, it } from "vitest";
import { createMockServer } from "../../src/hosts/node/create-mock-server.ts";
import { sharedContract } from "../support/mock-harness.ts";
import { DEMO, tinyFixtures } from "../support/tiny-fixtures.ts";

const lines: string[] = [];
const at = Date.UTC(2026, 0, 2, 3, 4, 5, 678);
const mock = createMockServer({
  fixtures: tinyFixtures(),
  contract: sharedContract(),
  log: (line) => lines.push(line),
  now: () => at,
});
const last = () => lines.at(-1)!;

describe("a line of the request log", () => {
  it("starts with the time of the answer, then the method, path, status and duration", async () => {
    await request(mock.app)
      .get("/api/v1/object/template_base")
      .set({ ...DEMO, "content-type": "application/json" })
      .expect(200);
    expect(last()).toMatch(/^2026-01-02T03:04:05\.678Z GET \/api\/v1\/object\/template_base 200 \d+ms$/);
  });

  it("gives an error's title and its first offending field, and how many more there are", async () => {
    await request(mock.app)
      .post("/api/v1/object/property")
      .set({ ...DEMO, "content-type": "application/json" })
      .send({ city: "Austin", garage: "attached" })
      .expect(400);
    expect(last()).toMatch(
      new RegExp(
        /^2026-01-02T03:04:05\.678Z POST \/api\/v1\/object\/property /.source +
          /400 \d+ms Invalid Request: body \/\S+ .+ \(and \d+ more\)$/.source,
      ),
    );
  });

  it("gives an error's title and detail when no field is at fault", async () => {
    await request(mock.app).get("/api/v1/object/agent_cards").expect(401);
    expect(last()).toMatch(
      / GET \/api\/v1\/object\/agent_cards 401 \d+ms Unauthorized: The API-KEY header is missing\.$/,
    );
    await request(mock.app)
      .post("/api/v1/object/agent_card")
      .set({ ...DEMO, "content-type": "application/json" })
      .send({})
      .expect(404);
    expect(last()).toContain(" 404 ");
    expect(last()).toContain(
      "Not Found: No operation of the Property Listing Service at POST /api/v1/object/agent_card. Did you " +
        "mean POST /api/v1/object/agent_card/?",
    );
  });

  it("stays one line whatever the client sent", async () => {
    await request(mock.app)
      .post("/api/v1/object/property")
      .set({ ...DEMO, "content-type": "application/json" })
      .send('{"street": "a\nb"')
      .expect(400);
    expect(last()).toMatch(/ 400 \d+ms Malformed JSON: /);
    expect(last()).not.toContain("\n");
  });
});

describe('the request log with logFormat: "json" (--log-format json)', () => {
  const json: string[] = [];
  const jsonMock = createMockServer({
    fixtures: tinyFixtures(),
    contract: sharedContract(),
    log: (line) => json.push(line),
    logFormat: "json",
    now: () => at,
  });
  const lastJson = () => JSON.parse(json.at(-1)!) as Record<string, unknown>;

  it("writes JSON a line in pino's shape: level, time, pid, hostname, req, res, responseTime, msg", async () => {
    await request(jsonMock.app)
      .get("/api/v1/object/template_base")
      .set({ ...DEMO, "content-type": "application/json" })
      .expect(200);
    expect(json.at(-1)).not.toContain("\n");
    const line = lastJson();
    expect(Object.keys(line)).toEqual(["level", "time", "pid", "hostname", "req", "res", "responseTime", "msg"]);
    expect(line).toMatchObject({
      level: 30,
      time: at,
      pid: process.pid,
      req: { method: "GET", url: "/api/v1/object/template_base" },
      res: { statusCode: 200 },
      msg: "request completed",
    });
    expect(typeof line.hostname).toBe("string");
    expect(Number.isInteger(line.responseTime)).toBe(true);
  });

  it("logs a 4xx at level 40 with the problem's title, detail and offending fields", async () => {
    await request(jsonMock.app)
      .post("/api/v1/object/property")
      .set({ ...DEMO, "content-type": "application/json" })
      .send({ city: "Austin", garage: "attached" })
      .expect(400);
    const line = lastJson();
    expect(line).toMatchObject({
      level: 40,
      req: { method: "POST", url: "/api/v1/object/property" },
      res: { statusCode: 400 },
      problem: { title: "Invalid Request" },
    });
    const problem = line.problem as { detail: string; errors: Array<{ in: string; pointer: string; detail: string }> };
    expect(problem.detail).toMatch(/breaks the contract/);
    expect(problem.errors.length).toBeGreaterThan(1);
    expect(problem.errors.map((error) => error.pointer)).toContain("/garage");
  });

  it("keeps what the client sent a JSON string on one line (quotes, newlines)", async () => {
    await request(jsonMock.app)
      .get("/api/v1/object/external-property/%22x%0Ay")
      .set({ ...DEMO, "content-type": "application/json" })
      .expect(404);
    expect(json.at(-1)).not.toContain("\n");
    const line = lastJson();
    expect(line).toMatchObject({
      level: 40,
      req: { url: "/api/v1/object/external-property/%22x%0Ay" },
      res: { statusCode: 404 },
    });
    expect((line.problem as { detail: string }).detail).toBe(
      String.raw`No property with the external id "\"x\ny" for this account.`,
    );
  });

  it("is refused in any other format, naming the option", () => {
    expect(() =>
      createMockServer({ fixtures: tinyFixtures(), contract: sharedContract(), logFormat: "xml" as "json" }),
    ).toThrow(/"logFormat" must be "text" or "json", got "xml"/);
  });
});
