/**
 * Steering as a user starts it: the CLI's --latency and --journal-size, then the curl examples of
 * docs/setting-up-a-test.md as fetch.
 */
import { afterEach, describe, expect, it } from "vitest";
import { parseMockArgs } from "../../src/cli/parse-mock-args.ts";
import { killAll, startProcess, waitForHealthy, type StartedProcess } from "../support/start-process.ts";

const started: StartedProcess[] = [];
afterEach(() => killAll(started));
/** The mock's program as its bin and `npm start` run it: the built file. */
const cli = (args: string[]) => {
  const mock = startProcess(process.execPath, ["dist/cli/mock.js", ...args]);
  started.push(mock);
  return mock;
};
const demo = { "API-KEY": "demo-key", TOKEN: "demo-token", "content-type": "application/json" };

describe("the mock's steering options", () => {
  it("delays each API answer by --latency, keeps --journal-size requests, takes Prefer and fault rules", async () => {
    const mock = cli(["--port", "0", "--quiet", "--latency", "40", "--journal-size", "2"]);
    const [, url] = await mock.waitForOutput(/listening on (http:\/\/127\.0\.0\.1:\d+)/);
    await waitForHealthy(`${url}/healthz`);
    expect(mock.output()).toMatch(/Steering\s+requests: http:\/\/127\.0\.0\.1:\d+\/__admin\/requests .* latency 40 ms/);

    const started = performance.now();
    const preferred = await fetch(`${url}/api/v1/object/agent_cards`, {
      headers: { ...demo, Prefer: "code=503, delay=20" },
    });
    expect(preferred.status).toBe(503);
    expect(performance.now() - started).toBeGreaterThanOrEqual(55); // 40 of latency and 20 asked for

    const rule = await fetch(`${url}/__admin/faults`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ method: "POST", path: "/api/v1/object/property", status: 503, times: 2 }),
    });
    expect(rule.status).toBe(201);
    const refused = await fetch(`${url}/api/v1/object/property`, {
      method: "POST",
      headers: demo,
      body: JSON.stringify({ street: "1 Main St" }),
    });
    expect(refused.status).toBe(503);
    await fetch(`${url}/api/v1/object/agent_cards`, { headers: demo });

    const journal = (await (await fetch(`${url}/__admin/requests`)).json()) as {
      requests: Array<{ method: string; status: number; fault: unknown }>;
    };
    expect(journal.requests.map((entry) => [entry.method, entry.status, entry.fault])).toEqual([
      ["POST", 503, { rule: { id: 1, status: 503 }, latency: 40 }],
      ["GET", 200, { latency: 40 }],
    ]);
    expect(await (await fetch(`${url}/__admin/faults`)).json()).toEqual({
      faults: [{ id: 1, method: "POST", path: "/api/v1/object/property", status: 503, times: 1 }],
    });
  });

  it("refuses a bad --latency with a usage message and exit code 2", async () => {
    const mock = cli(["--latency", "fast"]);
    expect(await mock.exited).toBe(2);
    expect(mock.output()).toContain(
      "--latency must be milliseconds (200) or a range (100-400), each from 0 to 60000, got fast",
    );
    expect(mock.output()).toContain("Usage: property-listing-mock [options]");
  });

  it.each([
    [["--latency", "400-100"], "--latency range must go from the smaller to the larger value, got 400-100"],
    [
      ["--latency", "0-60001"],
      "--latency must be milliseconds (200) or a range (100-400), each from 0 to 60000, got 0-60001",
    ],
    [["--journal-size", "many"], "--journal-size must be a whole number from 0 to 100000, got many"],
    [["--journal-size", "100001"], "--journal-size must be a whole number from 0 to 100000, got 100001"],
  ])("reads %j as the error %j", (args, message) => {
    expect(parseMockArgs(args, {})).toEqual({ kind: "error", message });
  });

  it("reads the defaults and a range", () => {
    const parsed = parseMockArgs(["--latency", "100-400"], {});
    expect(parsed.kind === "run" && [parsed.command.options.latency, parsed.command.options.journalSize]).toEqual([
      { min: 100, max: 400 },
      1000,
    ]);
    const plain = parseMockArgs([], {});
    expect(plain.kind === "run" && [plain.command.options.latency, plain.command.options.journalSize]).toEqual([
      undefined,
      1000,
    ]);
  });
});
