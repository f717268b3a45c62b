/** The mock as a user starts it: `npm start`, then HTTP, then Ctrl-C. */
import { readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { scratchFolder } from "../support/scratch-folder.ts";
import { freePort, killAll, startProcess, waitForHealthy, type StartedProcess } from "../support/start-process.ts";

const started: StartedProcess[] = [];
afterEach(() => killAll(started));
const npmStart = (args: string[], env: NodeJS.ProcessEnv = {}) => {
  const process = startProcess("npm", ["start", "--", ...args], env);
  started.push(process);
  return process;
};
/** The command `npm start` runs, without npm in between, to see its own exit code. */
const cli = (args: string[]) => {
  const process = startProcess("node", ["dist/cli/mock.js", ...args]);
  started.push(process);
  return process;
};

describe("npm start", () => {
  it("serves the seeded demo account, prints where it listens, and stops cleanly on SIGINT", async () => {
    const dbFile = join(scratchFolder("plk-"), "db.json");
    const mock = npmStart(["--port", "0", "--base-url", "http://mock.internal:4010", "--db", dbFile]);
    const [, url] = await mock.waitForOutput(/listening on (http:\/\/127\.0\.0\.1:\d+)/);
    await waitForHealthy(`${url}/healthz`);
    expect(mock.output()).toMatch(/API-KEY: demo-key\s+TOKEN: demo-token/);
    expect(mock.output()).toMatch(/Seeded\s+\d+ properties, \d+ agents, \d+ documents, 2 accounts/);

    const headers = { "API-KEY": "demo-key", TOKEN: "demo-token", "content-type": "application/json" };
    const list = await fetch(`${url}/api/v1/object/properties/1`, { headers });
    expect(list.status).toBe(200);
    expect(((await list.json()) as unknown[]).length).toBeGreaterThan(0);
    const created = await fetch(`${url}/api/v1/object/property`, {
      method: "POST",
      headers,
      body: JSON.stringify({ street: "1 Main St", city: "Austin", state: "TX", zip: "78701" }),
    });
    expect(created.status).toBe(200);
    const { nid, uri } = (await created.json()) as { nid: string; uri: string };
    expect(uri).toMatch(/^http:\/\/mock\.internal:4010\/autologin\/[0-9]+-[0-9]+-[0-9a-f]{32}$/);
    await mock.waitForOutput(/POST \/api\/v1\/object\/property 200/);

    expect(mock.output()).toContain(
      `State        kept in ${dbFile} and ${dbFile}.journal; a 2xx to a write means it is on disk`,
    );
    // Answered, so already in the journal, before any stop.
    expect(readFileSync(`${dbFile}.journal`, "utf8")).toContain(`"put":"properties","r":{"id":${nid},`);

    mock.signal("SIGINT");
    await mock.exited; // npm re-raises the signal once its child has stopped, so its own status is the signal
    expect(mock.output()).toContain("SIGINT: stopping");
  });

  it("takes PORT and HOST from the environment", async () => {
    const port = await freePort();
    const mock = npmStart(["--quiet"], { PORT: String(port), HOST: "127.0.0.1" });
    await mock.waitForOutput(new RegExp(`listening on http://127\\.0\\.0\\.1:${port}`));
    await waitForHealthy(`http://127.0.0.1:${port}/healthz`);
    mock.signal("SIGTERM");
    await mock.exited;
    expect(mock.output()).toContain("SIGTERM: stopping");
  });

  it("takes the allowed hosts and the account limit from the command line", async () => {
    const mock = cli(["--port", "0", "--quiet", "--allowed-hosts", "mock.test", "--max-accounts", "3"]);
    const [, url] = await mock.waitForOutput(/listening on (http:\/\/127\.0\.0\.1:\d+)/);
    await waitForHealthy(`${url}/healthz`);
    const { request } = await import("node:http");
    const get = (path: string, headers: Record<string, string>) =>
      new Promise<number>((resolve, reject) => {
        request(`${url}${path}`, { headers }, (response) => {
          response.resume();
          resolve(response.statusCode ?? 0);
        })
          .on("error", reject)
          .end();
      });
    expect(await get("/__db/accounts", { Host: "mock.test" })).toBe(200);
    expect(await get("/__db/accounts", { Host: "other.test" })).toBe(403);
    const api = { "content-type": "application/json", TOKEN: "t" };
    // 2 seeded + 1 = 3
    expect(await get("/api/v1/object/template_base", { ...api, "API-KEY": "first-new-key" })).toBe(200);
    expect(await get("/api/v1/object/template_base", { ...api, "API-KEY": "one-too-many" })).toBe(401);
  });

  it("requires the admin token given in ADMIN_TOKEN", async () => {
    const mock = startProcess(process.execPath, ["dist/cli/mock.js", "--port", "0", "--quiet"], {
      ADMIN_TOKEN: "s3cret-token",
    });
    started.push(mock);
    const [, url] = await mock.waitForOutput(/listening on (http:\/\/127\.0\.0\.1:\d+)/);
    await waitForHealthy(`${url}/healthz`);
    expect((await fetch(`${url}/__db/accounts`)).status).toBe(401);
    expect((await fetch(`${url}/__db/accounts`, { headers: { Authorization: "Bearer s3cret-token" } })).status).toBe(
      200,
    );
  });

  it("stops the server when SIGTERM reaches the npm process alone, as a process supervisor sends it", async () => {
    const port = await freePort();
    const mock = npmStart(["--quiet", "--port", String(port)]);
    await waitForHealthy(`http://127.0.0.1:${port}/healthz`);
    mock.child.kill("SIGTERM"); // npm only, not its process group: npm must pass it on to the server
    await mock.exited; // the pipes close only once the server, which holds them too, has ended
    expect(mock.output()).toContain("SIGTERM: stopping");
    await expect(fetch(`http://127.0.0.1:${port}/healthz`)).rejects.toThrow();
  });

  it("refuses bad options with a usage message and exit code 2", async () => {
    const mock = cli(["--port", "eighty"]);
    expect(await mock.exited).toBe(2);
    expect(mock.output()).toContain("--port must be a whole number from 0 to 65535, got eighty");
    expect(mock.output()).toContain("Usage: property-listing-mock [options]");
  });

  it("refuses an accounts file that is not a list of accounts, with exit code 2", async () => {
    const file = join(scratchFolder("plk-"), "accounts.json");
    writeFileSync(file, '[{"apiKey": "k"}]');
    const mock = cli(["--accounts", file]);
    expect(await mock.exited).toBe(2);
    expect(mock.output()).toContain(`${file}[0]: "token" must be a non-empty string`);
  });

  it("says so when the port is taken, with exit code 1", async () => {
    const blocker = createServer().listen(0, "127.0.0.1");
    await new Promise((resolve) => blocker.once("listening", resolve));
    const port = (blocker.address() as { port: number }).port;
    try {
      const mock = cli(["--port", String(port)]);
      expect(await mock.exited).toBe(1);
      expect(mock.output()).toContain(`Port ${port} on 127.0.0.1 is already in use; choose another with --port.`);
    } finally {
      blocker.close();
    }
  });
});
