/**
 * A service's answers served back to the suite whose usage they answer: by createMockServer (`answers`, and
 * `MOCK_ANSWERS` for a mock set up to record usage), by createMockHandlers in Node, and by the mock's program
 * (`--answers`). While test T runs, its n-th request matching the n-th interaction's operation gets the service's
 * n-th answer; what the answers do not cover is answered as the mock would, marked in the journal and listed;
 * the recorded usage is never written over.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setupServer } from "msw/node";
import request from "supertest";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import type { AnswersDocument } from "../../src/contract/usage/answers-document.ts";
import type { UsageDocument } from "../../src/contract/usage/usage-document.ts";
import { createMockHandlers } from "../../src/hosts/msw/create-mock-handlers.ts";
import { createMockServer } from "../../src/hosts/node/create-mock-server.ts";
import { sharedContract } from "../support/mock-harness.ts";
import { runCli } from "../support/run-contract-cli.ts";
import { PACKAGE_ROOT } from "../support/start-process.ts";

const API = "/api/v1/object";
const DEMO = { "API-KEY": "demo-key", TOKEN: "demo-token" };
const TEST = "listing > shows the header";

/** A usage as recorded (the mock's answers), and what the service answered it: a property whose country is null. */
function answersDocument(consumer = "web-app"): AnswersDocument {
  const usage = {
    usageVersion: 1,
    consumer,
    contract: { title: "t", version: "1", sha256: "0" },
    accounts: [{ role: "primary", uid: "1", source: "demo" }],
    tests: [{ name: TEST, start: { kind: "named", name: "fixtures" }, records: {}, interactions: [] }],
  } as unknown as UsageDocument;
  return {
    answersVersion: 1,
    consumer,
    source: { kind: "service", baseUrl: "https://service.example" },
    usage,
    tests: [
      {
        name: TEST,
        interactions: [
          {
            operation: "retrieveProperty",
            path: "/api/v1/object/property/500007",
            status: 200,
            mediaType: "application/json",
            headers: { "content-type": "application/json; charset=utf-8", "x-listing-service": "real" },
            body: { nid: "500007", title: "Quiet cottage", country: null },
          },
          { operation: "editProperty", notSent: "its id came from no earlier answer" },
        ],
      },
    ],
  };
}

const folder = mkdtempSync(join(tmpdir(), "plk-answers-serving-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));
const saved = process.env.MOCK_ANSWERS;
afterEach(() => {
  if (saved === undefined) delete process.env.MOCK_ANSWERS;
  else process.env.MOCK_ANSWERS = saved;
});

describe("createMockServer({ answers })", () => {
  it("answers a test's requests with the service's answers in order, then as the mock would, listed", async () => {
    const mock = createMockServer({ contract: sharedContract(), log: () => {}, answers: answersDocument() });
    try {
      const begun = await request(mock.app).post("/__admin/usage/tests").send({ name: TEST });
      expect(begun.status).toBe(200);
      const served = await request(mock.app).get(`${API}/property/500007`).set(DEMO);
      expect(served.status).toBe(200);
      expect(served.body).toEqual({ nid: "500007", title: "Quiet cottage", country: null });
      expect(served.headers["x-listing-service"]).toBe("real");
      // The next answer is an edit's: the mock answers this read as it would (it holds no property 500007).
      const after = await request(mock.app).get(`${API}/property/500007`).set(DEMO);
      expect(after.status).toBe(404);
      expect(after.headers["content-type"]).toMatch(/^application\/problem\+json/);
      // The edit the service was never asked: the mock's own answer.
      const edited = await request(mock.app).put(`${API}/property/1001`).set(DEMO).send({ title: "Renamed" });
      expect(edited.status).toBe(200);
      await request(mock.app).get(`${API}/property/1001`).set(DEMO);
      const journal = mock.requests();
      expect(journal.map((entry) => entry.fault?.answers)).toEqual([
        "service",
        "not-covered",
        "not-covered",
        "not-covered",
      ]);
      expect(mock.answers!.notCovered().map((call) => `${call.method} ${call.path}: ${call.reason}`)).toEqual([
        `GET ${API}/property/500007: the next answer is for editProperty, not retrieveProperty`,
        `PUT ${API}/property/1001: the service was not asked it: its id came from no earlier answer`,
        `GET ${API}/property/1001: the test's 2 answers were used up`,
      ]);
    } finally {
      await mock.close();
    }
  });

  it("answers a request of another operation than the next answer's as the mock would, saying why", async () => {
    const logged: string[] = [];
    const mock = createMockServer({
      contract: sharedContract(),
      log: (line) => logged.push(line),
      quiet: true,
      answers: answersDocument(),
    });
    try {
      mock.usage!.beginTest(TEST);
      const listed = await request(mock.app).get(`${API}/properties/1`).set(DEMO);
      expect(listed.status).toBe(200);
      expect(Array.isArray(listed.body)).toBe(true);
      expect(mock.answers!.notCovered(TEST)[0]!.reason).toBe(
        "the next answer is for retrieveProperty, not listUserProperties",
      );
      mock.usage!.beginTest("a test the service never answered");
      await request(mock.app).get(`${API}/property/1001`).set(DEMO);
      expect(mock.answers!.notCovered("a test the service never answered")[0]!.reason).toBe(
        'the answers hold no test named "a test the service never answered"',
      );
    } finally {
      await mock.close();
    }
    expect(logged.join("\n")).toContain(
      "2 requests were not covered by the service's answers, and answered as the mock would:",
    );
    expect(logged.join("\n")).toContain(
      `${TEST}: GET ${API}/properties/1 (the next answer is for retrieveProperty, not listUserProperties)`,
    );
  });

  it("answers requests sent at once in another order by their paths: the service's ids, or the mock's", async () => {
    const answered = (nid: string, path: string) => ({
      operation: "retrieveProperty",
      path,
      status: 200,
      mediaType: "application/json",
      headers: { "content-type": "application/json" },
      body: { nid, title: `service ${nid}` },
    });
    const document = answersDocument();
    const recorded = (path: string) => ({
      operation: "retrieveProperty",
      request: { method: "GET", path, params: {}, headers: {}, account: "primary" },
      response: { status: 200, mediaType: "application/json", body: {} },
      bindings: [],
      basis: { status: { tier: "fact" }, mediaType: { tier: "fact" }, fields: {} },
    });
    (document.usage.tests[0] as { interactions: unknown[] }).interactions = [
      recorded(`${API}/property/1001`),
      recorded(`${API}/property/1002`),
      recorded(`${API}/property/1003`),
    ];
    document.tests[0]!.interactions = [
      answered("500007", `${API}/property/500007`),
      answered("500013", `${API}/property/500013`),
      answered("500019", `${API}/property/500019`),
    ];
    const mock = createMockServer({ contract: sharedContract(), log: () => {}, answers: document });
    try {
      mock.usage!.beginTest(TEST);
      // The second interaction's record first, by the id the service gave it; then the third's, by the mock's id.
      expect((await request(mock.app).get(`${API}/property/500013`).set(DEMO)).body.nid).toBe("500013");
      expect((await request(mock.app).get(`${API}/property/1003`).set(DEMO)).body.nid).toBe("500019");
      // A path neither names takes the first interaction left, in order.
      expect((await request(mock.app).get(`${API}/property/42`).set(DEMO)).body.nid).toBe("500007");
      expect(mock.answers!.notCovered()).toEqual([]);
    } finally {
      await mock.close();
    }
  });

  it("turns on with MOCK_ANSWERS for a mock set up to record usage, and never writes the usage file then", async () => {
    const answersFile = join(folder, "answers.json");
    writeFileSync(answersFile, JSON.stringify(answersDocument()));
    const usageFile = join(folder, "usage-not-written.json");
    process.env.MOCK_ANSWERS = answersFile;
    const mock = createMockServer({
      contract: sharedContract(),
      log: () => {},
      usage: { consumer: "web-app", file: usageFile },
    });
    try {
      mock.usage!.beginTest(TEST);
      const served = await request(mock.app).get(`${API}/property/500007`).set(DEMO);
      expect(served.body.country).toBeNull();
      // What a suite that writes its usage reads back is the usage the answers were made from.
      expect(mock.usage!.toJSON()).toEqual(answersDocument().usage);
    } finally {
      await mock.close();
    }
    expect(existsSync(usageFile)).toBe(false);
  });

  it("refuses answers of another version or another consumer, naming where they came from", () => {
    const file = join(folder, "answers-v2.json");
    writeFileSync(file, JSON.stringify({ ...answersDocument(), answersVersion: 2 }));
    process.env.MOCK_ANSWERS = file;
    expect(() =>
      createMockServer({ contract: sharedContract(), log: () => {}, usage: { consumer: "web-app" } }),
    ).toThrow(/MOCK_ANSWERS \(.*answers-v2\.json\) is refused: answersVersion is 2/);
    expect(() =>
      createMockServer({
        contract: sharedContract(),
        log: () => {},
        usage: { consumer: "web-app" },
        answers: answersDocument("mobile-app"),
      }),
    ).toThrow(/answers the usage of "mobile-app", not of "web-app"/);
  });
});

describe("createMockHandlers in Node", () => {
  it("serves the file MOCK_ANSWERS names to a handler set that records usage, with no other change", async () => {
    const answersFile = join(folder, "answers-msw.json");
    writeFileSync(answersFile, JSON.stringify(answersDocument()));
    process.env.MOCK_ANSWERS = answersFile;
    const mock = createMockHandlers({ baseUrl: "http://listing.test", usage: { consumer: "web-app" } });
    const server = setupServer(...mock.handlers);
    server.listen({ onUnhandledRequest: "error" });
    try {
      mock.usage!.beginTest(TEST);
      const response = await fetch(`http://listing.test${API}/property/500007`, { headers: DEMO });
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ nid: "500007", title: "Quiet cottage", country: null });
      expect(mock.answers).toBeDefined();
    } finally {
      server.close();
    }
  });

  it("records usage as before when MOCK_ANSWERS is not set", () => {
    delete process.env.MOCK_ANSWERS;
    const mock = createMockHandlers({ usage: { consumer: "web-app" } });
    expect(mock.answers).toBeUndefined();
    expect(mock.usage!.toJSON().tests).toEqual([]);
  });
});

describe("property-listing-mock --answers", () => {
  it("refuses a missing file with exit 2, naming the flag and the file", async () => {
    const { code, stderr } = await runCli("node", [
      join(PACKAGE_ROOT, "dist", "cli", "mock.js"),
      "--answers",
      join(folder, "missing.json"),
      "--port",
      "0",
    ]);
    expect(code).toBe(2);
    expect(stderr).toMatch(/--answers \(.*missing\.json\): cannot read it: no such file/);
  });

  it("refuses an empty file name", async () => {
    const { code, stderr } = await runCli("node", [join(PACKAGE_ROOT, "dist", "cli", "mock.js"), "--answers="]);
    expect(code).toBe(2);
    expect(stderr).toContain("--answers needs a file name");
  });
});

it("keeps the answers file as it was given", () => {
  const file = join(folder, "answers.json");
  expect(JSON.parse(readFileSync(file, "utf8"))).toEqual(answersDocument());
});
