/** `--db file.json`: the state survives a restart; the file is written whole, off the request path. */
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import request from "supertest";
import { describe, expect, it } from "vitest";
import { createMockServer } from "../../src/mock/create-mock-server.ts";
import { createFilePersistence, writeStateFile } from "../../src/mock/store/file-persistence.ts";
import type { Database } from "../../src/mock/store/records.ts";
import { sharedContract } from "../support/mock-harness.ts";
import { DEMO, tinyFixtures } from "../support/tiny-fixtures.ts";

const headers = { ...DEMO, "content-type": "application/json" };
const address = { street: "1 Main St", city: "Austin", state: "TX", zip: "78701" };
const tempDir = () => mkdtempSync(join(tmpdir(), "plk-db-"));

describe("a state file", () => {
  it("is seeded when missing, keeps what the API wrote across a restart, and leaves no temporary file", async () => {
    const dir = tempDir();
    const file = join(dir, "db.json");
    const first = createMockServer({ fixtures: tinyFixtures(), dbFile: file, contract: sharedContract() });
    const { body } = await request(first.app).post("/api/v1/object/property").set(headers).send(address).expect(200);
    await request(first.app).post("/api/v1/object/agent_card/").set(headers).send({ agent_first_name: "A", agent_last_name: "B", email: "a@b.example" }).expect(200);
    await first.close();

    const saved = JSON.parse(readFileSync(file, "utf8")) as Database;
    expect(saved.properties.map((property) => property.id)).toContain(Number(body.nid));
    expect(readdirSync(dir)).toEqual(["db.json"]);

    const second = createMockServer({ fixtures: tinyFixtures(), dbFile: file, contract: sharedContract() });
    await request(second.app).get(`/api/v1/object/property/${body.nid}`).set(headers).expect(200);
    await request(second.app).post("/api/v1/object/agent_card/").set(headers).send({ agent_first_name: "A", agent_last_name: "B", email: "A@B.example" }).expect(409);
    const { body: next } = await request(second.app).post("/api/v1/object/property").set(headers).send(address).expect(200);
    expect(Number(next.nid)).toBeGreaterThan(Number(body.nid));
    await second.close();
  });

  it("is rewritten on reset with the seed, not the previous state", async () => {
    const file = join(tempDir(), "db.json");
    const mock = createMockServer({ fixtures: tinyFixtures(), dbFile: file, contract: sharedContract() });
    await request(mock.app).post("/api/v1/object/property").set(headers).send(address).expect(200);
    await request(mock.app).post("/__admin/reset").expect(200);
    await mock.close();
    expect(JSON.parse(readFileSync(file, "utf8"))).toEqual(tinyFixtures());
  });

  it("refuses to start from a file that is not a mock state, naming it", () => {
    const file = join(tempDir(), "db.json");
    writeFileSync(file, '{"properties": {}}');
    expect(() => createMockServer({ fixtures: tinyFixtures(), dbFile: file, contract: sharedContract() })).toThrow(`${file} does not hold a mock state`);
    writeFileSync(file, "{nope");
    expect(() => createMockServer({ fixtures: tinyFixtures(), dbFile: file, contract: sharedContract() })).toThrow(`${file} is not valid JSON`);
  });
});

describe("the writer", () => {
  const emptyState = (n: number) => ({ accounts: [], properties: [], agents: [], documents: [], n }) as unknown as Database & { n: number };

  it("gathers many changes into one write", async () => {
    const file = join(tempDir(), "state.json");
    let state = emptyState(0);
    let snapshots = 0;
    const persistence = createFilePersistence(file, () => {
      snapshots += 1;
      return state;
    }, { delayMs: 20 });
    for (let index = 1; index <= 50; index += 1) {
      state = emptyState(index);
      persistence.schedule();
    }
    await persistence.flush();
    expect(snapshots).toBe(1);
    expect(readFileSync(file, "utf8")).toContain('"accounts": []');
  });

  it("never runs two writes at once, and flush ends with the latest state written", async () => {
    let state = emptyState(0);
    let running = 0;
    let mostAtOnce = 0;
    const written: number[] = [];
    const slowWrite = async (_path: string, snapshot: Database) => {
      running += 1;
      mostAtOnce = Math.max(mostAtOnce, running);
      await new Promise((resolve) => setTimeout(resolve, 30));
      written.push((snapshot as Database & { n: number }).n);
      running -= 1;
    };
    const persistence = createFilePersistence("unused", () => state, { delayMs: 5, write: slowWrite });
    persistence.schedule();
    await new Promise((resolve) => setTimeout(resolve, 10)); // the first write is under way
    for (let index = 1; index <= 5; index += 1) {
      state = emptyState(index);
      persistence.schedule();
      await new Promise((resolve) => setTimeout(resolve, 8));
    }
    await persistence.flush();
    expect(mostAtOnce).toBe(1);
    expect(written.at(-1)).toBe(5);
    const settled = written.length;
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(written).toHaveLength(settled); // nothing writes after flush
  });

  it("reports a failed write and writes again on flush", async () => {
    const errors: string[] = [];
    let attempts = 0;
    const flaky = async () => {
      attempts += 1;
      if (attempts === 1) throw new Error("disk full");
    };
    const persistence = createFilePersistence("unused", () => emptyState(1), { delayMs: 1, write: flaky, onError: (error) => errors.push(error.message) });
    persistence.schedule();
    await new Promise((resolve) => setTimeout(resolve, 20));
    await persistence.flush();
    expect(errors).toEqual(["disk full"]);
    expect(attempts).toBe(2);
  });

  it("writes one record per line, and the file reads back as the same state", async () => {
    const file = join(tempDir(), "state.json");
    const state = tinyFixtures();
    await writeStateFile(file, state);
    const text = readFileSync(file, "utf8");
    expect(JSON.parse(text)).toEqual(state);
    expect(text.split("\n").filter((line) => line.startsWith('    {"id":1001,'))).toHaveLength(1);
    await writeStateFile(file, { accounts: [], properties: [], agents: [], documents: [] });
    expect(JSON.parse(readFileSync(file, "utf8"))).toEqual({ accounts: [], properties: [], agents: [], documents: [] });
  });
});
