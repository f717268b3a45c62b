/**
 * Recorded traffic held against the contract: HAR files made of real answers of the mock (and edited where
 * a test needs a broken service), and lists of exchanges in the matcher's shape.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createContract } from "../../src/contract/create-contract.ts";
import { checkRecording, type RecordingOptions } from "../../src/contract/recording/check-recording.ts";
import { readRecording } from "../../src/contract/recording/read-recording.ts";
import { RECORDING_CHECKS } from "../../src/contract/runner/checks.ts";
import type { RunReport } from "../../src/contract/runner/run-report.ts";
import { createMockServer } from "../../src/hosts/node/create-mock-server.ts";
import { createHarRecorder, otherTraffic, preflight, type HarRecorder } from "../support/har-recorder.ts";
import { sharedContract } from "../support/mock-harness.ts";
import { DEMO } from "../support/tiny-fixtures.ts";

const contract = createContract();
const closedContract = sharedContract();
const mock = createMockServer({ validateResponses: true, contract: closedContract, log: () => {} });
let url = "";
beforeAll(async () => {
  ({ url } = await mock.listen(0));
});
afterAll(() => mock.close());

const API = "/api/v1/object";
const JSON_HEADERS = { ...DEMO, "content-type": "application/json" };
const recorder = () => createHarRecorder(url, JSON_HEADERS);

/** Reads a HAR document as the CLI does (through its text) and checks it. */
const check = (document: unknown, options: Partial<RecordingOptions> = {}) => {
  const read = readRecording(JSON.stringify(document));
  if (!read.ok) throw new Error(read.message);
  return checkRecording(read.exchanges, { source: "traffic.har", contract, closedContract, ...options });
};
const reportOf = (document: unknown, options: Partial<RecordingOptions> = {}): RunReport => {
  const outcome = check(document, options);
  if (outcome.kind !== "report") throw new Error(outcome.message);
  return outcome.report;
};
const notPassed = (report: RunReport) => report.results.filter((result) => result.status !== "passed");

/** A client's session: a property with a floorplan, an agent, the catalogue; a page and a preflight around it. */
async function recordSession(): Promise<HarRecorder> {
  const har = recorder();
  har.add(otherTraffic("http://localhost:3000/"));
  har.add(preflight(`${url}${API}/property`));
  const created = await har.send("POST", `${API}/property`, {
    body: { street: "1 Main St", city: "Austin", state: "TX", zip: "78701", bedrooms: 3, garage: "Attached" },
  });
  const { nid } = created.body as { nid: string };
  await har.send("GET", `${API}/property/${nid}`);
  await har.send("PUT", `${API}/property/${nid}`, { body: { street: "2 Main St", external_id: `ext-${nid}` } });
  await har.send("GET", `${API}/external-property/ext-${nid}`);
  await har.send("GET", `${API}/properties/1`);
  await har.send("POST", `${API}/document/`, {
    body: {
      property_reference: Number(nid),
      title: "Ground floor",
      file_url: "https://example.com/plan.pdf",
      is_floorplan: true,
    },
  });
  await har.send("POST", `${API}/agent_card/`, {
    body: { agent_first_name: "Ada", agent_last_name: "Agent", email: `ada-${nid}@example.com` },
  });
  await har.send("GET", `${API}/agent_cards`);
  await har.send("GET", `${API}/template_base`);
  return har;
}

describe("a recording of a client that keeps the contract", () => {
  let har: HarRecorder;
  let report: RunReport;
  beforeAll(async () => {
    har = await recordSession();
    report = reportOf(har.har());
  });

  it("passes, with every exchange with the service checked on both sides", () => {
    expect(notPassed(report)).toEqual([]);
    expect(report.result).toBe("passed");
    expect(Object.keys(report.summary)).toEqual(RECORDING_CHECKS);
    expect(report.exchanges).toBe(9);
    expect(report.summary.request_conformance!.passed).toBe(9);
    expect(report.summary.response_schema_conformance!.passed).toBe(9);
  });

  it("leaves out the page and the preflight, and says so", () => {
    expect(report.recording).toEqual({
      file: "traffic.har",
      apiPrefix: `${API}/`,
      entries: 11,
      checked: 9,
      preflights: 1,
      otherTraffic: 1,
    });
  });

  it("reports which operations the client used", () => {
    const used = Object.entries(report.coverage)
      .filter(([, coverage]) => coverage.statuses.length > 0)
      .map(([id]) => id)
      .sort();
    expect(used).toEqual([
      "createAgentCard",
      "createDocument",
      "createProperty",
      "editProperty",
      "listAgentCards",
      "listUserProperties",
      "retrieveProperty",
      "retrievePropertyByExternalId",
      "retrieveTemplateCatalogue",
    ]);
  });
});

describe("a client that breaks the contract", () => {
  it("fails request_conformance for a bad body, naming the field; the mock's refusal itself conforms", async () => {
    const har = recorder();
    await har.send("POST", `${API}/property`, {
      body: { street: "1 Main St", city: "Austin", state: "TX", zip: "78701", garage: "attached" },
    });
    const report = reportOf(har.har());
    expect(report.result).toBe("failed");
    expect(
      notPassed(report).map((result) => [result.check, result.status, result.step, result.request?.status]),
    ).toEqual([["request_conformance", "failed", "entry 1", 400]]);
    expect(notPassed(report)[0]!.message).toBe(
      'createProperty request.body/garage: must be one of "Attached", "Detached", "None", got string ' +
        '"attached" [enum]',
    );
  });

  it("fails request_conformance for missing credentials and for a route the contract does not have", async () => {
    const har = createHarRecorder(url, { "API-KEY": "demo-key", "content-type": "application/json" });
    await har.send("GET", `${API}/property/1`);
    await har.send("GET", `${API}/properties`);
    const report = reportOf(har.har());
    const messages = notPassed(report).map((result) => `${result.check} ${result.status}: ${result.message}`);
    expect(messages).toEqual([
      "request_conformance failed: retrieveProperty request.header/TOKEN: is required by the " +
        "retrieveProperty operation [security]",
      "request_conformance failed: GET /api/v1/object/properties request.route: no operation of the contract " +
        "has this path [operation]",
    ]);
  });

  it("still fails not_a_server_error when a route the contract does not have answers 5xx", async () => {
    const har = recorder();
    await har.send("GET", `${API}/properties`);
    Object.assign(har.entries[0]!.response, { status: 502, statusText: "Bad Gateway" });
    const report = reportOf(har.har());
    expect(notPassed(report).map((result) => `${result.check} ${result.status}`)).toEqual([
      "request_conformance failed",
      "not_a_server_error failed",
    ]);
    expect(report.summary.status_code_conformance).toEqual({ passed: 0, failed: 0, warning: 0, skipped: 0 });
  });

  it("fails when a request body announced as JSON does not parse", async () => {
    const har = recorder();
    await har.send("POST", `${API}/property`, { body: '{"street": "1 Main St",' });
    const [failure, ...rest] = notPassed(reportOf(har.har()));
    expect(rest).toEqual([]);
    expect(failure!.check).toBe("request_conformance");
    expect(failure!.message).toMatch(/^the body is announced as JSON but does not parse: /);
  });
});

describe("a service that breaks the contract, seen in a recording", () => {
  it("fails response_schema_conformance at the place in the body", async () => {
    const har = recorder();
    await har.send("POST", `${API}/property`, {
      body: { street: "1 Main St", city: "Austin", state: "TX", zip: "78701" },
    });
    const content = har.entries[0]!.response.content;
    content.text = JSON.stringify({ ...(JSON.parse(content.text!) as object), nid: 7 });
    const failures = notPassed(reportOf(har.har()));
    expect(failures.map((result) => [result.check, result.status, result.message])).toEqual([
      [
        "response_schema_conformance",
        "failed",
        "createProperty response.body/nid: must be string, got integer 7 [type]",
      ],
    ]);
  });

  it("fails not_a_server_error on a 500, and a body that is not the JSON it claims", async () => {
    const har = recorder();
    await har.send("GET", `${API}/template_base`);
    await har.send("GET", `${API}/agent_cards`);
    Object.assign(har.entries[0]!.response, { status: 500, statusText: "Internal Server Error" });
    har.entries[1]!.response.content.text = "[{";
    const failures = notPassed(reportOf(har.har())).map((result) => `${result.step} ${result.check} ${result.status}`);
    expect(failures).toEqual([
      "entry 1 not_a_server_error failed",
      "entry 1 status_code_conformance failed",
      "entry 2 response_schema_conformance failed",
    ]);
  });

  it("warns on an error answer of another shape, and fails it with strict", async () => {
    const har = recorder();
    await har.send("GET", `${API}/property/999999`);
    Object.assign(har.entries[0]!.response, {
      headers: [{ name: "content-type", value: "text/plain" }],
      content: { size: 9, mimeType: "text/plain", text: "not found" },
    });
    const lenient = reportOf(har.har());
    expect(notPassed(lenient).map((result) => [result.check, result.status, result.tier])).toEqual([
      ["content_type_conformance", "warning", "assumption"],
      ["response_schema_conformance", "warning", "assumption"],
    ]);
    expect(lenient.result).toBe("passed");
    const strict = reportOf(har.har(), { strict: true });
    expect(notPassed(strict).map((result) => [result.check, result.status])).toEqual([
      ["content_type_conformance", "failed"],
      ["response_schema_conformance", "failed"],
    ]);
    expect(strict.result).toBe("failed");
  });
});

describe("what a recording may leave out", () => {
  it("skips the schema check of an answer recorded bodiless, and answer checks of a request with none", async () => {
    const har = recorder();
    await har.send("GET", `${API}/template_base`);
    await har.send("GET", `${API}/agent_cards`);
    delete har.entries[0]!.response.content.text;
    Object.assign(har.entries[1]!.response, {
      status: 0,
      statusText: "",
      headers: [],
      content: { size: 0, mimeType: "" },
    });
    const report = reportOf(har.har());
    expect(
      notPassed(report).map((result) => `${result.step} ${result.check} ${result.status}: ${result.message}`),
    ).toEqual([
      "entry 1 response_schema_conformance skipped: the recording holds no body for this answer",
      "entry 2 not_a_server_error skipped: the recording holds no answer to this request (it failed or was " +
        "cancelled in the client)",
    ]);
    expect(report.summary.content_type_conformance!.passed).toBe(1);
    expect(report.result).toBe("passed");
  });

  it("reads base64 bodies, and leaves out HTTP/2 pseudo-headers", async () => {
    const har = recorder();
    await har.send("POST", `${API}/property`, {
      body: { street: "1 Main St", city: "Austin", state: "TX", zip: "78701" },
    });
    const entry = har.entries[0]!;
    entry.request.headers.unshift({ name: ":authority", value: "api.example.com" }, { name: ":method", value: "POST" });
    entry.response.headers.unshift({ name: ":status", value: "200" });
    entry.response.content = {
      ...entry.response.content,
      text: Buffer.from(entry.response.content.text!).toString("base64"),
      encoding: "base64",
    };
    const read = readRecording(JSON.stringify(har.har()));
    if (!read.ok) throw new Error(read.message);
    expect(Object.keys(read.exchanges[0]!.requestHeaders).sort()).toEqual(["api-key", "content-type", "token"]);
    expect(Object.keys(read.exchanges[0]!.response!.headers)).not.toContain(":status");
    expect(notPassed(reportOf(har.har()))).toEqual([]);
    entry.response.content.text = Buffer.from('{"nid": 5}').toString("base64");
    const [failure, ...rest] = notPassed(reportOf(har.har()));
    expect(rest).toEqual([]);
    expect(failure!.message!.split("\n")).toContain(
      "createProperty response.body/nid: must be string, got integer 5 [type]",
    );
  });
});

describe("which exchanges are the service's", () => {
  it("with a base URL, checks only the exchanges under it, with its path taken off", async () => {
    const har = recorder();
    await har.send("GET", `${API}/template_base`);
    const entry = har.entries[0]!;
    const behindGateway = {
      ...entry,
      request: { ...entry.request, url: `https://gateway.example/listing${API}/template_base` },
    };
    const elsewhere = {
      ...entry,
      request: { ...entry.request, url: `https://other.example/listing${API}/template_base` },
    };
    const document = {
      log: { version: "1.2", creator: { name: "t", version: "1" }, entries: [behindGateway, elsewhere] },
    };

    const report = reportOf(document, { baseUrl: "https://gateway.example/listing" });
    expect(report.recording).toMatchObject({
      baseUrl: "https://gateway.example/listing",
      entries: 2,
      checked: 1,
      otherTraffic: 1,
    });
    expect(notPassed(report)).toEqual([]);
    expect(report.coverage.retrieveTemplateCatalogue!.statuses).toEqual([200]);
  });

  it("without one, has nothing to check when the API sits under another path, and says what to do", async () => {
    const har = recorder();
    await har.send("GET", `${API}/template_base`);
    har.entries[0]!.request.url = `https://gateway.example/listing${API}/template_base`;
    har.add(otherTraffic("https://cdn.example/app.js"));
    const outcome = check(har.har());
    expect(outcome).toEqual({
      kind: "nothing-to-check",
      message:
        "traffic.har holds no exchange with the service with a path under /api/v1/object/; its 2 other " +
        "entries go elsewhere " +
        "(https://gateway.example/listing/api/v1/object/template_base, https://cdn.example/app.js). Give " +
        "--base-url if the service is served under another path.",
    });
  });
});

describe("a list of exchanges in the matcher's shape", () => {
  it("is checked like a HAR file", () => {
    const exchanges = [
      {
        request: { method: "get", path: `${API}/property/12`, headers: JSON_HEADERS },
        response: { status: 200, headers: { "content-type": "application/json" }, body: { nid: 12 } },
      },
      { request: { method: "GET", url: `http://localhost:4010${API}/template_base`, headers: JSON_HEADERS } },
    ];
    const report = reportOf(exchanges);
    expect(report.recording).toMatchObject({ entries: 2, checked: 2 });
    expect(notPassed(report).map((result) => `${result.step} ${result.check} ${result.status}`)).toEqual([
      "exchange 1 response_schema_conformance failed",
      "exchange 2 not_a_server_error skipped",
    ]);
  });
});

describe("readRecording", () => {
  it.each([
    ["{", /^not JSON: /],
    [
      '{"entries": []}',
      /^neither a HAR file \(an object with log\.entries\) nor a list of \{ request, response \} exchanges$/,
    ],
    ['{"log": {"entries": {}}}', /^log\.entries must be a list$/],
    [
      '{"log": {"entries": [{"request": {"method": "GET"}, "response": {"status": 200}}]}}',
      /^log\.entries\[0\]\.request\.url must be a non-empty string$/,
    ],
    [
      '{"log": {"entries": [{"request": {"method": "GET", "url": "/x"}, "response": {"status": "200"}}]}}',
      /^log\.entries\[0\]\.response\.status must be a whole number$/,
    ],
    [
      '{"log": {"entries": [{"request": {"method": "GET", "url": "/x", "headers": [{"name": "a"}]}, ' +
        '"response": {"status": 200}}]}}',
      /^log\.entries\[0\]\.request\.headers\[0\] must be \{ name, value \} with two strings$/,
    ],
    ['[{"request": {"method": "GET"}}]', /^\[0\]\.request\.path \(or url\) must be a non-empty string$/],
    [
      '[{"request": {"method": "GET", "path": "/x"}, "response": {"status": 42}}]',
      /^\[0\]\.response\.status must be an HTTP status \(100 to 599\)$/,
    ],
  ])("refuses %s with a message that says where", (text, message) => {
    const read = readRecording(text);
    expect(read.ok).toBe(false);
    expect(read.ok ? "" : read.message).toMatch(message);
  });

  it("keeps a __proto__ header as a header, not as a prototype", () => {
    const read = readRecording(
      '{"log": {"entries": [{"request": {"method": "GET", "url": "/x", "headers": [{"name": "__proto__", ' +
        '"value": "x"}]}, "response": {"status": 0}}]}}',
    );
    if (!read.ok) throw new Error(read.message);
    const headers = read.exchanges[0]!.requestHeaders;
    expect(Object.getPrototypeOf(headers)).toBe(Object.prototype);
    expect(Object.keys(headers)).toEqual(["__proto__"]);
  });
});
