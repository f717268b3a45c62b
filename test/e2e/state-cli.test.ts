/**
 * A state to start from, as a user starts the mock (issue 29): `--state <name>` and `MOCK_STATE=<file>`, with the
 * banner saying which, and a state file that is not right stopping the start with what is wrong (exit 2); and the
 * banner and --help naming /docs and the manual.
 */
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { PACKAGE_ROOT, killAll, startMockBin, startProcess, type StartedProcess } from "../support/start-process.ts";
import { scratchFolder } from "../support/scratch-folder.ts";

const started: StartedProcess[] = [];
afterEach(() => killAll(started));

async function startMock(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ url: string; banner: string }> {
  const { process: mock, url } = await startMockBin(started, args, env, /Steering\s+requests/);
  return { url, banner: mock.output() };
}

const headers = { "API-KEY": "demo-key", TOKEN: "demo-token", "content-type": "application/json" };
const tempFile = (name: string, content: string) => {
  const file = join(scratchFolder("plk-state-cli-"), name);
  writeFileSync(file, content);
  return file;
};

describe("where to read on (issue 29: /docs named in the banner and --help)", () => {
  it("--help names /docs and the manual's pages, each of which ships", async () => {
    const help = startProcess(process.execPath, ["dist/cli/mock.js", "--help"]);
    started.push(help);
    expect(await help.exited).toBe(0);
    expect(help.output()).toMatch(/\/docs\s+\(http:\/\/127\.0\.0\.1:4010\/docs\)/);
    for (const page of help.output().match(/docs\/[a-z-]+\.md/g) ?? [])
      expect(existsSync(join(PACKAGE_ROOT, page)), page).toBe(true);
    expect(help.output()).toContain("docs/setting-up-a-test.md");
  });
});

describe("--state and MOCK_STATE", () => {
  it("--state seats-full: the banner names it, the next agent card answers 402, a reset comes back to it", async () => {
    const { url, banner } = await startMock(["--state", "seats-full"]);
    expect(banner).toMatch(
      new RegExp(
        /Seeded\s+30 properties, 13 agents, 32 documents, 2 accounts \(state /.source +
          /seats-full; POST http:\/\/127\.0\.0\.1:\d+\/__admin\/state changes it\)/.source,
      ),
    );
    expect(banner).toMatch(/Docs\s+http:\/\/127\.0\.0\.1:\d+\/docs/);
    const card = JSON.stringify({
      agent_first_name: "Luis",
      agent_last_name: "Ortega",
      email: "luis@harbor.example",
    });
    expect((await fetch(`${url}/api/v1/object/agent_card/`, { method: "POST", headers, body: card })).status).toBe(402);
    expect((await fetch(`${url}/__admin/reset`, { method: "POST" })).status).toBe(200);
    expect((await fetch(`${url}/api/v1/object/agent_card/`, { method: "POST", headers, body: card })).status).toBe(402);
  });

  it("MOCK_STATE=<file>: starts from the file's records", async () => {
    const records = {
      accounts: [{ id: 7, apiKey: "team-key", token: "team-token", agentSeats: 2, name: "Team" }],
      properties: [],
      agents: [],
      documents: [],
    };
    const file = tempFile("state.json", JSON.stringify(records));
    const { url, banner } = await startMock([], { MOCK_STATE: file });
    expect(banner).toContain(`(state ${file};`);
    expect(await (await fetch(`${url}/__db/db`)).json()).toEqual(records);
    const list = await fetch(`${url}/api/v1/object/properties/7`, {
      headers: { ...headers, "API-KEY": "team-key", TOKEN: "team-token" },
    });
    expect(await list.json()).toEqual([]);
  });

  it.each([
    [
      "a name that is not shipped and no file",
      ["--state", "seats-ful"],
      new RegExp(
        /--state seats-ful is neither a shipped state \(fixtures, /.source +
          /empty-account, seats-full, many-properties\) nor a file/.source,
      ),
    ],
    ["a file that is not JSON", ["--state", "BAD_JSON"], /is not valid JSON/],
    [
      "records of the wrong shape",
      ["--state", "BAD_RECORDS"],
      /The state .* is refused, nothing was changed:[\s\S]*\/accounts\/0/,
    ],
  ])("%s stops the start with exit 2, saying what is wrong", async (_name, args, message) => {
    const files: Record<string, string> = {
      BAD_JSON: tempFile("bad.json", "{"),
      BAD_RECORDS: tempFile("bad-records.json", JSON.stringify({ accounts: [{ id: "one" }] })),
    };
    const mock = startProcess(process.execPath, [
      "dist/cli/mock.js",
      "--port",
      "0",
      ...args.map((arg) => files[arg] ?? arg),
    ]);
    started.push(mock);
    expect(await mock.exited).toBe(2);
    expect(mock.output()).toMatch(message);
  });
});
