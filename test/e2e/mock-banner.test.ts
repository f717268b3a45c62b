/**
 * What the mock prints when it starts tells the truth about the state it serves: after a restart with `--db`
 * the state read from the file, with `--accounts` the accounts it admits (and no secret of theirs).
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { killAll, startMockBin, type StartedProcess } from "../support/start-process.ts";
import { scratchFolder } from "../support/scratch-folder.ts";

const started: StartedProcess[] = [];
afterEach(() => killAll(started));

/** The mock's program as its bin and `npm start` run it (the built file), until its banner is out and it answers. */
async function startMock(args: string[]): Promise<{ mock: StartedProcess; url: string; banner: string }> {
  const { process: mock, url } = await startMockBin(started, args, {}, /Spec\s+http/);
  return { mock, url, banner: mock.output() };
}

const headers = { "API-KEY": "demo-key", TOKEN: "demo-token", "content-type": "application/json" };

// Each test starts the mock as a process, some twice: on a loaded machine that takes more than the default.
describe("the start-up banner", () => {
  it("after a restart with --db, counts the state read from the file, not the fixtures", async () => {
    const dbFile = join(scratchFolder("plk-banner-"), "db.json");
    const first = await startMock(["--db", dbFile]);
    expect(first.banner).toMatch(/Seeded\s+30 properties, 9 agents, 32 documents, 2 accounts \(fixtures\/db\.json\)/);
    expect(first.banner).not.toMatch(/^\s+Usage\s/m);
    const created = await fetch(`${first.url}/api/v1/object/property`, {
      method: "POST",
      headers,
      body: JSON.stringify({ street: "1 Main St", city: "Austin", state: "TX", zip: "78701" }),
    });
    expect(created.status).toBe(200);
    await fetch(`${first.url}/api/v1/object/agent_cards`, { headers: { "API-KEY": "new-key", TOKEN: "t" } });
    first.mock.signal("SIGTERM");
    await first.mock.exited;

    const second = await startMock(["--db", dbFile]);
    expect(second.banner).toContain(
      `Restored     31 properties, 9 agents, 32 documents, 3 accounts, read from ${dbFile}`,
    );
    expect(second.banner).not.toContain("Seeded");
    expect(second.banner).toMatch(/API-KEY: demo-key\s+TOKEN: demo-token\s+\(uid 1;/);
  });

  it("with --accounts, names the admitted keys and their uids, not the demo credentials nor a token", async () => {
    const file = join(scratchFolder("plk-banner-"), "accounts.json");
    writeFileSync(
      file,
      JSON.stringify([
        { apiKey: "ci-key", token: "ci-secret", uid: 1 },
        { apiKey: "qa-key", token: "qa-secret" },
      ]),
    );
    const { banner } = await startMock(["--accounts", file]);
    expect(banner).toContain(`Accounts     ci-key (uid 1), qa-key (uid 3), from ${file}; no other key is admitted`);
    expect(banner).not.toContain("demo");
    expect(banner).not.toContain("secret");
    expect(banner).toMatch(/Seeded\s+30 properties, 9 agents, 32 documents, 2 accounts/);
  });

  it("tells how a new key finds its uid, and the way it names answers with it", async () => {
    const { url, banner } = await startMock([]);
    const [, lookup] = banner.match(/Your uid .*GET (\S+)<key>/)!;
    const fresh = { "API-KEY": "banner-key", TOKEN: "banner-token", "content-type": "application/json" };
    await fetch(`${url}/api/v1/object/agent_cards`, { headers: fresh });
    const [account] = (await (await fetch(`${lookup}banner-key`)).json()) as Array<{ id: number }>;
    expect(account!.id).toBe(3);
    expect((await fetch(`${url}/api/v1/object/properties/${account!.id}`, { headers: fresh })).status).toBe(200);
  });

  it("with --record-usage, names the consumer, the file, and how a test begins", async () => {
    const file = join(scratchFolder("plk-banner-"), "usage.json");
    const { banner, url } = await startMock(["--record-usage", file, "--consumer", "web-app"]);
    expect(banner).toContain(
      `Usage        recording web-app's usage in ${file}; a test begins with POST ${url}/__admin/usage/tests`,
    );
  });
});
