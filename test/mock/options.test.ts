/**
 * The library's options are the command line's flags camel-cased (docs/mock.md: "In your own tests"), the former
 * names still work, and a name the mock does not know is refused instead of leaving it on its defaults.
 */
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import request from "supertest";
import { afterEach, describe, expect, it } from "vitest";
import { createMockServer, type MockServer, type MockServerOptions } from "../../src/hosts/node/create-mock-server.ts";
import type { Database } from "../../src/mock/store/records.ts";
import { MOCK_USAGE } from "../../src/cli/parse-mock-args.ts";
import { sharedContract } from "../support/mock-harness.ts";
import { DEMO, tinyFixtures } from "../support/tiny-fixtures.ts";
import { scratchFolder } from "../support/scratch-folder.ts";

const headers = { ...DEMO, "content-type": "application/json" };
const address = { street: "1 Main St", city: "Austin", state: "TX", zip: "78701" };
const tempDir = () => scratchFolder("plk-options-");
const opened: MockServer[] = [];
const mockWith = (options: MockServerOptions) => {
  const mock = createMockServer({ contract: sharedContract(), ...options });
  opened.push(mock);
  return mock;
};
afterEach(async () => {
  for (const mock of opened.splice(0)) await mock.close();
});

/** Creates a property through the API, closes the mock, and reads the state back from its file (and journal). */
async function createAndRead(mock: MockServer, file: string): Promise<{ nid: string; saved: Database }> {
  const { body } = await request(mock.app).post("/api/v1/object/property").set(headers).send(address).expect(200);
  await mock.close();
  return {
    nid: body.nid as string,
    saved: structuredClone(mockWith({ db: file, fixtures: tinyFixtures() }).store.state),
  };
}

describe("createMockServer's options, named as the flags", () => {
  it("db (--db) keeps the state in the file", async () => {
    const file = join(tempDir(), "db.json");
    const { nid, saved } = await createAndRead(mockWith({ fixtures: tinyFixtures(), db: file }), file);
    expect(saved.properties.map((property) => String(property.id))).toContain(nid);
  });

  it("fixtures (--fixtures) takes a file, as the flag does, or the state itself", async () => {
    const file = join(tempDir(), "seed.json");
    writeFileSync(file, JSON.stringify(tinyFixtures()));
    expect(mockWith({ fixtures: file }).store.counts()).toEqual({
      accounts: 2,
      properties: 2,
      agents: 1,
      documents: 1,
    });
    expect(mockWith({ fixtures: tinyFixtures() }).store.counts().properties).toBe(2);
  });

  it("accounts (--accounts) takes a file, as the flag does, or the list itself", async () => {
    const file = join(tempDir(), "accounts.json");
    writeFileSync(file, JSON.stringify([{ apiKey: "ci-key", token: "ci-token", uid: 1 }]));
    for (const accounts of [file, [{ apiKey: "ci-key", token: "ci-token", uid: 1 }]]) {
      const mock = mockWith({ fixtures: tinyFixtures(), accounts });
      await request(mock.app)
        .get("/api/v1/object/properties/1")
        .set({ "API-KEY": "ci-key", TOKEN: "ci-token", "content-type": "application/json" })
        .expect(200);
      await request(mock.app).get("/api/v1/object/properties/1").set(headers).expect(401);
    }
    writeFileSync(file, '[{"apiKey": "k"}]');
    expect(() => mockWith({ accounts: file })).toThrow(`${file}[0]: "token" must be a non-empty string`);
  });

  it("quiet (--quiet) keeps the request log silent even when a log is given", async () => {
    const lines: string[] = [];
    const loud = mockWith({ fixtures: tinyFixtures(), log: (line) => lines.push(line) });
    await request(loud.app).get("/healthz").expect(200);
    expect(lines).toHaveLength(1);
    const quiet = mockWith({ fixtures: tinyFixtures(), quiet: true, log: (line) => lines.push(line) });
    await request(quiet.app).get("/healthz").expect(200);
    expect(lines).toHaveLength(1);
  });

  it("port and host (--port, --host) are where listen() listens when it is given neither", async () => {
    const mock = mockWith({ fixtures: tinyFixtures(), port: 0, host: "127.0.0.1" });
    const { url, port } = await mock.listen();
    expect(port).not.toBe(4010);
    expect(url).toBe(`http://127.0.0.1:${port}`);
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
  });
});

describe("the former names", () => {
  it("dbFile and fixturesFile still work", async () => {
    const dir = tempDir();
    const seed = join(dir, "seed.json");
    writeFileSync(seed, JSON.stringify(tinyFixtures()));
    const file = join(dir, "db.json");
    const { nid, saved } = await createAndRead(mockWith({ fixturesFile: seed, dbFile: file }), file);
    expect(saved.properties).toHaveLength(3);
    expect(saved.properties.map((property) => String(property.id))).toContain(nid);
  });

  it("are refused beside their new names when the two disagree", () => {
    expect(() => mockWith({ db: "a.json", dbFile: "b.json" })).toThrow(
      '"dbFile" is the former name of "db"; give one of them, not both.',
    );
  });
});

describe("an option the mock does not know", () => {
  it("is refused with its name, a suggestion, and the list of options, before anything is written", () => {
    const dir = tempDir();
    const misspelt = { fixtures: tinyFixtures(), dbfile: join(dir, "db.json") } as unknown as MockServerOptions;
    expect(() => mockWith(misspelt)).toThrow(TypeError);
    expect(() => mockWith(misspelt)).toThrow(
      'createMockServer: unknown option "dbfile" (did you mean "dbFile"?). The options are port, host, ' +
        "baseUrl, db, fixtures,",
    );
    expect(() => mockWith({ "validate-responses": true } as unknown as MockServerOptions)).toThrow(
      'unknown option "validate-responses" (did you mean "validateResponses"?)',
    );
    expect(() => mockWith({ seed: 42 } as unknown as MockServerOptions)).toThrow('unknown option "seed".');
    expect(existsSync(join(dir, "db.json"))).toBe(false);
  });

  it("is refused when a value has the wrong type, instead of running in memory", () => {
    expect(() => mockWith({ db: 42 } as unknown as MockServerOptions)).toThrow(
      'createMockServer: "db" must be a non-empty string, got 42.',
    );
    expect(() => mockWith({ fixtures: "" })).toThrow('"fixtures" must be a file path or a state object');
  });
});

describe("every flag of the command line", () => {
  it("has an option of the same name, camel-cased (docs/mock.md: In your own tests)", () => {
    const flags = [...MOCK_USAGE.matchAll(/^ {2}--([a-z][a-z-]*)/gm)]
      .map((match) => match[1]!)
      .filter((flag) => flag !== "help" && flag !== "version");
    expect(flags).toEqual(
      expect.arrayContaining(["port", "db", "fixtures", "accounts", "validate-responses", "quiet"]),
    );
    // The two flags of a consumer's usage are one option: usage: { file, consumer }.
    const grouped: Record<string, string> = { "record-usage": "usage", consumer: "usage" };
    const missing = flags
      .map((flag) => grouped[flag] ?? flag.replace(/-([a-z])/g, (_dash, letter: string) => letter.toUpperCase()))
      .filter((name) => {
        try {
          mockWith({ fixtures: tinyFixtures(), [name]: undefined });
          return false;
        } catch (error) {
          return (error as Error).message.includes("unknown option");
        }
      });
    expect(missing).toEqual([]);
  });
});
