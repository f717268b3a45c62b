/**
 * The request log of the bin is written in batches (src/cli/buffered-log.ts): no line of an answered request may
 * be lost when the process ends, however it ends. Each test sends requests, waits for every answer, then ends the
 * process at once (SIGTERM, SIGINT, a crash), and counts the lines. The crash comes right after an answer, before
 * the batch holding its line is due; test/cli/buffered-log.test.ts shows the writer's exit path alone.
 */
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { PACKAGE_ROOT, killAll, startProcess, waitForHealthy, type StartedProcess } from "../support/start-process.ts";

const started: StartedProcess[] = [];
afterEach(() => killAll(started));

const headers = { "API-KEY": "demo-key", TOKEN: "demo-token", "content-type": "application/json" };
const REQUESTS = 300;

/**
 * Starts the bin (with `preload` imported first), sends REQUESTS requests 20 at a time, and returns once all are
 * answered.
 */
async function answered(preload?: string, flags: string[] = []): Promise<StartedProcess> {
  const mock = startProcess("node", [
    ...(preload ? ["--import", preload] : []),
    "dist/cli/mock.js",
    "--port",
    "0",
    ...flags,
  ]);
  started.push(mock);
  const [, url] = await mock.waitForOutput(/listening on (http:\/\/127\.0\.0\.1:\d+)/);
  await waitForHealthy(`${url}/healthz`);
  // Answers of every kind: a property, a 404 problem, a 401 problem.
  const paths = ["/api/v1/object/property/1001", "/api/v1/object/property/999999", "/api/v1/object/agent_cards"];
  for (let sent = 0; sent < REQUESTS; sent += 20) {
    const batch = Array.from({ length: Math.min(20, REQUESTS - sent) }, (_, index) => {
      const path = paths[(sent + index) % paths.length]!;
      return fetch(url + path, { headers: path.endsWith("agent_cards") ? {} : headers }).then((answer) =>
        answer.arrayBuffer().then(() => answer.status),
      );
    });
    expect(new Set(await Promise.all(batch))).toEqual(new Set([200, 404, 401]));
  }
  return mock;
}

/** Lines of the request log for API requests (the health checks are logged too, and not counted). */
const apiLines = (output: string) =>
  output.split("\n").filter((line) => /^\S+Z (GET|POST) \/api\/v1\/object\/\S+ \d{3} \d+ms/.test(line));

describe("the request log of the bin loses no line of an answered request", () => {
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    it(`when ${signal} stops it`, async () => {
      const mock = await answered();
      mock.signal(signal);
      expect(await mock.exited).toBe(0);
      expect(apiLines(mock.output())).toHaveLength(REQUESTS);
      // In the order they were written: every request line before the stop's own line.
      expect(mock.output().lastIndexOf(" 401 ")).toBeLessThan(mock.output().indexOf(`${signal}: stopping`));
    });
  }

  it("when it crashes on an uncaught exception just after an answer", async () => {
    const mock = await answered(join(PACKAGE_ROOT, "test/support/crash-after-answer.mjs"));
    const url = mock.output().match(/listening on (http:\/\/127\.0\.0\.1:\d+)/)![1]!;
    const answer = await fetch(`${url}/crash-after-answer`);
    expect(answer.status).toBe(404);
    expect(await mock.exited).toBe(1);
    expect(mock.output()).toContain("crash after an answer, for the test");
    expect(apiLines(mock.output())).toHaveLength(REQUESTS);
    expect(mock.output()).toMatch(/^\S+Z GET \/crash-after-answer 404 \d+ms Not Found: /m);
  });
});

describe("--log-format json", () => {
  it("writes every line on stdout as one JSON object, the banner and the stop included, and loses none", async () => {
    const mock = await answered(undefined, ["--log-format", "json"]);
    mock.signal("SIGTERM");
    expect(await mock.exited).toBe(0);
    const lines = mock
      .output()
      .split("\n")
      .filter((line) => line !== "")
      .map(
        (line) =>
          JSON.parse(line) as { level: number; msg: string; req?: { url: string }; res?: { statusCode: number } },
      );
    expect(lines[0]!.msg).toMatch(/^Property Listing Service mock listening on http:\/\/127\.0\.0\.1:\d+/);
    expect(lines.at(-1)).toMatchObject({ level: 30, msg: "SIGTERM: stopping" });
    const api = lines.filter((line) => line.req?.url.startsWith("/api/"));
    expect(api).toHaveLength(REQUESTS);
    expect(new Set(api.map((line) => `${line.level} ${line.res!.statusCode}`))).toEqual(
      new Set(["30 200", "40 404", "40 401"]),
    );
  });
});
