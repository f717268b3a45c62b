/** `--db file.json`: the state survives a restart; the file is written whole, off the request path. */
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import request from "supertest";
import { describe, expect, it } from "vitest";
import { createMockServer } from "../../src/mock/create-mock-server.ts";
import { createFilePersistence } from "../../src/mock/store/file-persistence.ts";
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
  it("gathers many changes into few writes and never overlaps them", async () => {
    const file = join(tempDir(), "state.json");
    let state = { accounts: [], properties: [], agents: [], documents: [], n: 0 } as unknown as Database & { n: number };
    let snapshots = 0;
    const persistence = createFilePersistence(file, () => {
      snapshots += 1;
      return state;
    }, 20);
    for (let index = 1; index <= 50; index += 1) {
      state = { ...state, n: index };
      persistence.schedule();
    }
    await persistence.flush();
    expect(JSON.parse(readFileSync(file, "utf8")).n).toBe(50);
    expect(snapshots).toBe(1);
  });
});
