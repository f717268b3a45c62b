/**
 * A consumer's usage recorded by the mock as a process, as a team's suite drives it: `--record-usage <file>
 * --consumer <name>` (and the environment's names), tests begun over HTTP, the file written as each test ends
 * and on SIGTERM, valid under the published schema, holding no credential's value.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { killAll, startMockBin, startProcess, type StartedProcess } from "../support/start-process.ts";
import { HANG_MS } from "../support/deadlines.ts";
import { expectValidUsage, SECRET } from "../usage/usage-check.ts";
import { scratchFolder } from "../support/scratch-folder.ts";

const started: StartedProcess[] = [];
afterEach(() => killAll(started));

async function startMock(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ url: string; mock: StartedProcess }> {
  const { process: mock, url } = await startMockBin(started, args, env);
  return { url, mock };
}

const headers = { ...SECRET, "content-type": "application/json" };
const beginTest = (url: string, name: string) =>
  fetch(`${url}/__admin/usage/tests`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ name }),
  });

/** Polls until the file exists and holds a document with this many tests (written as each test ends). */
async function fileWithTests(file: string, count: number): Promise<string> {
  const deadline = Date.now() + HANG_MS;
  for (;;) {
    if (existsSync(file)) {
      const text = readFileSync(file, "utf8");
      if ((JSON.parse(text) as { tests: unknown[] }).tests.length >= count) return text;
    }
    if (Date.now() > deadline) throw new Error(`${file} never held ${count} tests`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe("--record-usage", () => {
  it("writes the usage as each test ends and on SIGTERM, valid, without credentials", async () => {
    const file = join(scratchFolder("plk-usage-"), "usage.json");
    const { url, mock } = await startMock(["--record-usage", file, "--consumer", "web-app"]);
    expect((await beginTest(url, "properties > create")).status).toBe(200);
    const created = (await (
      await fetch(`${url}/api/v1/object/property`, {
        method: "POST",
        headers,
        body: JSON.stringify({ street: "1 Main St", city: "Austin", state: "TX", zip: "78701" }),
      })
    ).json()) as { nid: string };
    await fetch(`${url}/api/v1/object/property/${created.nid}`, { headers });
    expect((await beginTest(url, "agents > list")).status).toBe(200);
    // The first test ended when the second began: the file holds it already.
    const early = JSON.parse(await fileWithTests(file, 1));
    expect(early.tests[0].interactions).toHaveLength(2);
    await fetch(`${url}/api/v1/object/agent_cards`, { headers });

    mock.signal("SIGTERM");
    expect(await mock.exited).toBe(0);
    const text = readFileSync(file, "utf8");
    const usage = JSON.parse(text);
    expectValidUsage(usage);
    expect(usage.consumer).toBe("web-app");
    expect(usage.tests.map((test: { name: string }) => test.name)).toEqual(["properties > create", "agents > list"]);
    expect(usage.tests[1].interactions[0].operation).toBe("listAgentCards");
    expect(usage.tests[0].interactions[1].bindings).toEqual([
      { at: "/params/nid", from: "answer", interaction: 0, pointer: "/nid" },
    ]);
    for (const value of Object.values(SECRET)) expect(text).not.toContain(value);
    expect(readFileSync(file, "utf8")).not.toMatch(/autologin\/[0-9a-f]{16}/);
  });

  it("reads MOCK_RECORD_USAGE and MOCK_CONSUMER", async () => {
    const file = join(scratchFolder("plk-usage-"), "usage.json");
    const { url, mock } = await startMock([], { MOCK_RECORD_USAGE: file, MOCK_CONSUMER: "mobile" });
    await beginTest(url, "one");
    await fetch(`${url}/api/v1/object/template_base`, { headers });
    mock.signal("SIGTERM");
    expect(await mock.exited).toBe(0);
    const usage = JSON.parse(readFileSync(file, "utf8"));
    expect(usage.consumer).toBe("mobile");
    expect(usage.tests[0].interactions[0].operation).toBe("retrieveTemplateCatalogue");
  });

  it("refuses --record-usage without --consumer (exit 2)", async () => {
    const mock = startProcess(process.execPath, ["dist/cli/mock.js", "--record-usage", "x.json"]);
    started.push(mock);
    expect(await mock.exited).toBe(2);
    expect(mock.output()).toContain("--record-usage needs --consumer");
  });
});
