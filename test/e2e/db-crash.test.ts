/**
 * `--db` as an integration suite uses it: the mock started as a process, writes streamed to it from several
 * connections, the process killed with SIGKILL at random moments (some while a compaction runs), restarted.
 * Every acknowledged write must be there, none twice, and no temporary file left behind; raw writes under /__db
 * (served by json-server's router) as much as the API's.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync, watch, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { DEFAULT_SEED, generateFixtures } from "../../src/fixtures/generate-fixtures.ts";
import { startProcess, waitForHealthy, type StartedProcess } from "../support/start-process.ts";

const TRIALS = 5;
/**
 * Trials go on past TRIALS, up to this many, until a kill has landed inside a compaction: on a loaded machine (the
 * suite runs files side by side) the journal fills slower and a kill aimed at a compaction can miss it.
 */
const MAX_TRIALS = 15;
const WORKERS = 4;
/** A journal this long is compacted: small, so that compactions run all the time during the stream. */
const COMPACT_AFTER = "40000";
const headers = { "API-KEY": "crash-key", TOKEN: "crash-token", "content-type": "application/json" };

const dir = mkdtempSync(join(tmpdir(), "plk-crash-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const dbFile = join(dir, "state", "db.json");
const fixturesFile = join(dir, "fixtures.json");
// Enough properties that writing a snapshot takes several turns of the event loop, so a kill can land inside one.
writeFileSync(fixturesFile, JSON.stringify(generateFixtures({ seed: DEFAULT_SEED, properties: 1000 })));

const running: StartedProcess[] = [];
afterAll(async () => {
  for (const process of running.splice(0)) {
    process.signal("SIGKILL");
    await process.exited;
  }
});

async function startMock(db = dbFile): Promise<{ process: StartedProcess; url: string }> {
  const process = startProcess("node", [
    "dist/cli/mock.js",
    "--port",
    "0",
    "--quiet",
    "--db",
    db,
    "--fixtures",
    fixturesFile,
    "--db-compact-after",
    COMPACT_AFTER,
  ]);
  running.push(process);
  const [, url] = await process.waitForOutput(/listening on (http:\/\/127\.0\.0\.1:\d+)/);
  await waitForHealthy(`${url!}/healthz`);
  return { process, url: url! };
}

/** The workers tell it each time they note an answered write; a waiter resolves once its condition holds. */
class Answers {
  #waiting: Array<{ holds: () => boolean; resolve: () => void }> = [];

  told(): void {
    this.#waiting = this.#waiting.filter((waiter) => {
      if (!waiter.holds()) return true;
      waiter.resolve();
      return false;
    });
  }

  until(holds: () => boolean): Promise<void> {
    return holds() ? Promise.resolve() : new Promise((resolve) => this.#waiting.push({ holds, resolve }));
  }
}

/**
 * Resolves once a compaction is under way (its journal set aside as `.compacting`), or after `deadlineMs` without one.
 */
function compactionUnderWay(deadlineMs: number): Promise<void> {
  return new Promise((resolve) => {
    const watcher = watch(join(dir, "state"));
    const timer = setTimeout(done, deadlineMs);
    function done() {
      clearTimeout(timer);
      watcher.close();
      resolve();
    }
    watcher.on("change", () => existsSync(`${dbFile}.journal.compacting`) && done());
    if (existsSync(`${dbFile}.journal.compacting`)) done();
  });
}

/** What the clients were told: the properties they created (nid → street), and each worker's last edit answered. */
const acknowledged = new Map<number, string>();
const answered = new Answers();
const lastEdit = new Map<number, { nid: number; version: number }>();

/** One client connection: creates properties, and every third request edits its first one with a higher version. */
async function worker(url: string, trial: number, index: number, stop: () => boolean): Promise<void> {
  let own = lastEdit.get(index)?.nid;
  let version = lastEdit.get(index)?.version ?? 0;
  for (let step = 0; !stop(); step += 1) {
    try {
      if (own !== undefined && step % 3 === 2) {
        const next = version + 1;
        const response = await fetch(`${url}/api/v1/object/property/${own}`, {
          method: "PUT",
          headers,
          body: JSON.stringify({ title: `w${index}-v${next}` }),
        });
        if (response.status === 200) {
          version = next;
          lastEdit.set(index, { nid: own, version });
        }
      } else {
        const street = `t${trial}-w${index}-${step}`;
        const response = await fetch(`${url}/api/v1/object/property`, {
          method: "POST",
          headers,
          body: JSON.stringify({ street, city: "Austin", state: "TX", zip: "78701" }),
        });
        if (response.status === 200) {
          const nid = Number(((await response.json()) as { nid: string }).nid);
          acknowledged.set(nid, street);
          answered.told();
          own ??= nid;
          if (!lastEdit.has(index)) lastEdit.set(index, { nid, version: 0 });
        }
      }
    } catch {
      return; // the process was killed under this request: it was never acknowledged
    }
  }
}

/** Checks the restarted mock against everything acknowledged so far. */
async function verify(url: string): Promise<void> {
  if (acknowledged.size === 0) return;
  const [first] = acknowledged.keys();
  const { uid } = (await (await fetch(`${url}/__db/properties/${first}`)).json()) as { uid: number };
  const records = (await (await fetch(`${url}/__db/properties?uid=${uid}`)).json()) as Array<{
    id: number;
    street: string;
    title: string;
  }>;
  const byId = new Map(records.map((record) => [record.id, record]));
  expect(byId.size, "a property is in the state twice").toBe(records.length);
  const streets = records.map((record) => record.street);
  expect(new Set(streets).size, "a create was applied twice").toBe(streets.length);
  const missing = [...acknowledged].filter(([nid, street]) => byId.get(nid)?.street !== street);
  expect(missing, "acknowledged creates lost").toEqual([]);
  for (const [worker, { nid, version }] of lastEdit) {
    if (version === 0) continue;
    const seen = Number(/^w[0-9]+-v([0-9]+)$/.exec(byId.get(nid)?.title ?? "")?.[1] ?? -1);
    // The last acknowledged edit, or the one after it if it reached the disk before the kill without an answer.
    expect([version, version + 1], `worker ${worker}'s edits`).toContain(seen);
  }
}

const leftovers = () =>
  readdirSync(join(dir, "state")).filter((name) => name !== "db.json" && name !== "db.json.journal");

describe("--db under SIGKILL", () => {
  it("keeps each acknowledged write, applies none twice, leaves no temporary file, when the process dies", async () => {
    let killedDuringCompaction = 0;
    let { process, url } = await startMock();
    for (let trial = 0; trial < TRIALS || (killedDuringCompaction === 0 && trial < MAX_TRIALS); trial += 1) {
      let stopped = false;
      // Some writes answered in every trial, however loaded the machine, before the kill can come.
      const before = acknowledged.size;
      const tenMore = answered.until(() => acknowledged.size >= before + 10);
      const workers = Array.from({ length: WORKERS }, (_, index) => worker(url, trial, index, () => stopped));
      await tenMore;
      if (trial % 2 === 0) {
        // Not a wait for a verdict: the kill comes at a random moment on purpose, whatever the process is doing then.
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 400));
      } else {
        // Wait for a compaction to be under way (the workers' writes bring one, later on a busy machine), then kill
        // it at a random point of it.
        await compactionUnderWay(60_000);
        // Not a wait for a verdict: a random point inside the compaction, on purpose (the loop counts the hits).
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 15));
      }
      process.signal("SIGKILL");
      await process.exited;
      stopped = true;
      await Promise.all(workers);
      if (existsSync(`${dbFile}.journal.compacting`) || existsSync(`${dbFile}.tmp`)) killedDuringCompaction += 1;

      ({ process, url } = await startMock());
      expect(leftovers()).toEqual([]);
      await verify(url);
    }
    expect(killedDuringCompaction, "no kill landed inside a compaction").toBeGreaterThan(0);

    process.signal("SIGTERM");
    expect(await process.exited).toBe(0);
    expect(leftovers()).toEqual([]);
  }, 600_000);
});

/** What raw writes were told: agents created (id → email), agents removed, and each worker's last property edit. */
const rawCreated = new Map<number, string>();
const rawRemoved = new Set<number>();
const rawEdits = new Map<number, { id: number; version: number }>();
const rawAnswered = new Answers();

/** One client of /__db: adds agents, removes one of its own every third step, edits a property every fifth. */
async function rawWorker(
  url: string,
  trial: number,
  index: number,
  model: Record<string, unknown>,
  property: number,
  stop: () => boolean,
): Promise<void> {
  const json = { "content-type": "application/json" };
  const own: number[] = [];
  let version = rawEdits.get(index)?.version ?? 0;
  for (let step = 0; !stop(); step += 1) {
    try {
      if (step % 5 === 4) {
        const next = version + 1;
        const response = await fetch(`${url}/__db/properties/${property}`, {
          method: "PATCH",
          headers: json,
          body: JSON.stringify({ title: `r${index}-v${next}` }),
        });
        if (response.status === 200) rawEdits.set(index, { id: property, version: (version = next) });
      } else if (step % 3 === 2 && own.length > 0) {
        const id = own.shift()!;
        rawCreated.delete(id); // from here on it may or may not be there, until the removal is answered
        const response = await fetch(`${url}/__db/agents/${id}`, { method: "DELETE" });
        if (response.status === 200) {
          rawRemoved.add(id);
          rawAnswered.told();
        }
      } else {
        const email = `raw-t${trial}-w${index}-${step}@crash.example`;
        const response = await fetch(`${url}/__db/agents`, {
          method: "POST",
          headers: json,
          body: JSON.stringify({ ...model, email }),
        });
        if (response.status === 201) {
          const { id } = (await response.json()) as { id: number };
          rawCreated.set(id, email);
          rawAnswered.told();
          own.push(id);
        }
      }
    } catch {
      return; // killed under this request: never acknowledged
    }
  }
}

describe("--db under SIGKILL, raw writes", () => {
  it("keeps every acknowledged raw create, removal and edit made through json-server's router", async () => {
    const rawDb = join(dir, "raw-state", "db.json");
    let { process, url } = await startMock(rawDb);
    const { id: _id, ...model } = (
      (await (await fetch(`${url}/__db/agents?_limit=1`)).json()) as Array<Record<string, unknown>>
    )[0]!;
    const properties = (await (await fetch(`${url}/__db/properties?_limit=${WORKERS}`)).json()) as Array<{
      id: number;
    }>;
    for (let trial = 0; trial < 3; trial += 1) {
      let stopped = false;
      const before = rawCreated.size + rawRemoved.size;
      const tenMore = rawAnswered.until(() => rawCreated.size + rawRemoved.size >= before + 10);
      const workers = Array.from({ length: WORKERS }, (_, index) =>
        rawWorker(url, trial, index, model, properties[index]!.id, () => stopped),
      );
      await tenMore;
      // Not a wait for a verdict: the kill comes at a random moment on purpose, whatever the process is doing then.
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 300));
      process.signal("SIGKILL");
      await process.exited;
      stopped = true;
      await Promise.all(workers);

      ({ process, url } = await startMock(rawDb));
      const agents = (await (await fetch(`${url}/__db/agents`)).json()) as Array<{ id: number; email: string }>;
      const byId = new Map(agents.map((agent) => [agent.id, agent.email]));
      expect(byId.size, "an agent is in the state twice").toBe(agents.length);
      expect(
        [...rawCreated].filter(([id, email]) => byId.get(id) !== email),
        "acknowledged raw creates lost",
      ).toEqual([]);
      expect(
        [...rawRemoved].filter((id) => byId.has(id)),
        "acknowledged raw removals undone",
      ).toEqual([]);
      for (const [worker, { id, version }] of rawEdits) {
        const { title } = (await (await fetch(`${url}/__db/properties/${id}`)).json()) as { title: string };
        expect([version, version + 1], `raw worker ${worker}'s edits`).toContain(
          Number(/-v([0-9]+)$/.exec(title)?.[1] ?? -1),
        );
      }
    }
    expect(rawCreated.size + rawRemoved.size).toBeGreaterThan(30);
    process.signal("SIGTERM");
    expect(await process.exited).toBe(0);
  });
});
