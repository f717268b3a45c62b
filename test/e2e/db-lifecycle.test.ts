/**
 * `--db` through the mock's process: a place that cannot be written refuses to start; writes that start
 * failing later turn /healthz 503 and the writes' answers 503, while the API keeps answering, and a SIGTERM
 * still ends the process promptly, saying what was not saved.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { killAll, startProcess, waitForHealthy, type StartedProcess } from "../support/start-process.ts";
import { scratchFolder } from "../support/scratch-folder.ts";

const started: StartedProcess[] = [];
afterEach(() => killAll(started));
const mockArgs = (args: string[]) => ["dist/cli/mock.js", "--port", "0", "--quiet", ...args];
const cli = (args: string[]) => {
  const process = startProcess("node", mockArgs(args));
  started.push(process);
  return process;
};
const headers = { "API-KEY": "demo-key", TOKEN: "demo-token", "content-type": "application/json" };
const tempDir = () => scratchFolder("plk-life-");

describe("--db lifecycle", () => {
  it("refuses to start, exit code 1, with a line naming the path and the OS error, where it cannot write", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "file"), "");
    const dbFile = join(dir, "file", "db.json");
    const mock = cli(["--db", dbFile]);
    expect(await mock.exited).toBe(1);
    expect(mock.output().trim()).toBe(
      `Cannot use --db ${dbFile}: EEXIST: file already exists, mkdir '${join(dir, "file")}'`,
    );
  });

  it("refuses a journal with a bad line, with exit code 1, naming the file and the line", async () => {
    const dbFile = join(tempDir(), "db.json");
    writeFileSync(`${dbFile}.journal`, 'garbage\n{"s":1}\n');
    const mock = cli(["--db", dbFile]);
    expect(await mock.exited).toBe(1);
    expect(mock.output()).toContain(`${dbFile}.journal line 1: not valid JSON`);
  });

  it("keeps answering when writes fail, says so once and on /healthz, and stops within 5 s on SIGTERM", async () => {
    const dir = tempDir();
    const dbFile = join(dir, "db.json");
    const fixtures = join(dir, "fixtures.json");
    writeFileSync(
      fixtures,
      JSON.stringify({
        accounts: [{ id: 1, apiKey: "demo-key", token: "demo-token", agentSeats: 3, name: "Demo" }],
        properties: [],
        agents: [],
        documents: [],
      }),
    );
    // A file size limit (in KiB) makes the journal's writes fail with EFBIG once it reaches 24 KiB.
    const mock = startProcess("bash", [
      "-c",
      `ulimit -f 24 && exec node ${mockArgs(["--db", dbFile, "--fixtures", fixtures]).join(" ")}`,
    ]);
    started.push(mock);
    const [, url] = await mock.waitForOutput(/listening on (http:\/\/127\.0\.0\.1:\d+)/);
    await waitForHealthy(`${url!}/healthz`);

    const statuses: number[] = [];
    const saved: string[] = [];
    for (let index = 0; statuses.filter((status) => status === 503).length < 3; index += 1) {
      expect(index, "writes never failed").toBeLessThan(200);
      const street = `${index} Main St ${"x".repeat(400)}`;
      const response = await fetch(`${url}/api/v1/object/property`, {
        method: "POST",
        headers,
        body: JSON.stringify({ street, city: "Austin", state: "TX", zip: "78701" }),
      });
      statuses.push(response.status);
      if (response.status === 200) saved.push(((await response.json()) as { nid: string }).nid);
      else
        expect(((await response.json()) as { type: string }).type).toBe(
          "https://property-listing.example/problems/state-not-saved",
        );
    }
    expect(saved.length).toBeGreaterThan(5);
    const health = await fetch(`${url}/healthz`);
    expect(health.status).toBe(503);
    expect(((await health.json()) as { detail: string }).detail).toContain(`${dbFile}.journal: EFBIG`);
    expect((await fetch(`${url}/api/v1/object/property/${saved[0]}`, { headers })).status).toBe(200);
    expect(mock.output().match(/Cannot save changes/g)).toHaveLength(1);

    mock.signal("SIGTERM");
    expect(await mock.exited).toBe(1);
    expect(mock.output()).toMatch(
      /Stopped with changes not saved: [0-9]+ changes were not saved to .*db\.json\.journal: EFBIG/,
    );

    // Everything answered 200 is there after a restart without the limit.
    const again = cli(["--db", dbFile, "--fixtures", fixtures]);
    const [, againUrl] = await again.waitForOutput(/listening on (http:\/\/127\.0\.0\.1:\d+)/);
    for (const nid of saved)
      expect((await fetch(`${againUrl}/api/v1/object/property/${nid}`, { headers })).status).toBe(200);
  });
});
