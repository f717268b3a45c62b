/**
 * A state the mock cannot hold (src/mock/store/record-fault.ts) is refused where it enters, naming the record,
 * and changes nothing: a fixtures file as it is read (scanned, or parsed whole), fixtures given as an object,
 * and a fixtures file read again by `POST /__admin/reset` or a shipped state after it changed on disk (a 409
 * problem, where it was a 500). What the mock held before stays loadable: a record nested 64 levels deep, unknown
 * fields and members; and a card with fields of another type than the API writes is served and edited, not a 500. The
 * bin's exit code and line are test/cli/refused-state.test.ts's; raw writes (`/__db`) and `POST /__admin/state` with
 * records already refused such records (raw-records.test.ts, named-states.test.ts).
 */
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import request from "supertest";
import { afterEach, describe, expect, it } from "vitest";
import { createMockServer, type MockServer } from "../../src/hosts/node/create-mock-server.ts";
import { loadFixtures } from "../../src/hosts/node/state/load-fixtures.ts";
import { PROBLEM_BASE } from "../../src/mock/problems.ts";
import { sharedContract } from "../support/mock-harness.ts";
import { DEMO, tinyFixtures } from "../support/tiny-fixtures.ts";
import { propertyNesting, stateText } from "../support/unheld-records.ts";
import { scratchFolder } from "../support/scratch-folder.ts";

const mocks: MockServer[] = [];
afterEach(async () => {
  for (const mock of mocks.splice(0)) await mock.close();
});

const tempFile = (content: string) => {
  const file = join(scratchFolder("plk-unheld-"), "fixtures.json");
  writeFileSync(file, content);
  return file;
};

describe("a fixtures file, as it is read", () => {
  it("takes a record nested 64 deep, in JSON or JSON Lines, and refuses one nested 65, naming it (its line)", () => {
    const file = tempFile(stateText({ properties: [propertyNesting(64)] }));
    expect(loadFixtures(file).properties).toHaveLength(1);
    writeFileSync(file, stateText({ properties: [propertyNesting(65)] }));
    expect(() => loadFixtures(file)).toThrow(
      `The fixtures file ${file} holds a record the mock cannot hold, and is refused: properties[0] (id ` +
        `1001): nesting deeper than 64 levels.`,
    );
    // In JSON Lines, the record's line is named too.
    const lines = (depth: number) =>
      [`{"accounts":${JSON.stringify(tinyFixtures().accounts[0])}}`, `{"properties":${propertyNesting(depth)}}`].join(
        "\n",
      );
    writeFileSync(file, lines(64));
    expect(loadFixtures(file).properties).toHaveLength(1);
    writeFileSync(file, lines(65));
    expect(() => loadFixtures(file)).toThrow(
      `The fixtures file ${file} line 2 holds a record the mock cannot hold, and is refused: properties[0] ` +
        `(id 1001): nesting deeper than 64 levels.`,
    );
  });

  it("still takes unknown fields on records and members beside the collections", () => {
    const file = tempFile(
      `{"note":{"deep":${"[".repeat(200)}${"]".repeat(200)}},` +
        stateText({
          properties: [propertyNesting(3)],
          documents: ['{"id":1004,"uid":1,"anything":{"at":["all"]}}'],
        }).slice(1),
    );
    const state = loadFixtures(file) as unknown as Record<string, unknown>;
    expect(Object.keys(state)).toEqual(["note", "accounts", "properties", "agents", "documents"]);
  });
});

describe("fixtures given as an object", () => {
  it.each([
    [
      "a property that is an array",
      { ...tinyFixtures(), properties: [[1]] },
      "properties[0] is an array, not an object",
    ],
    [
      "an agent card whose owner is not an integer",
      { ...tinyFixtures(), agents: [{ ...tinyFixtures().agents[0]!, uid: "1" }] },
      `agents[0] (id ${tinyFixtures().agents[0]!.id}): "uid" is not an integer (a string)`,
    ],
    [
      "a document whose id is past 2^53-1",
      { ...tinyFixtures(), documents: [{ ...tinyFixtures().documents[0]!, id: 2 ** 60 }] },
      'documents[0]: "id" is beyond 2^53-1, where a number is no longer exact',
    ],
  ])("%s: createMockServer throws, naming the record", (_name, fixtures, fault) => {
    expect(() => createMockServer({ fixtures: fixtures as never, contract: sharedContract(), log: () => {} })).toThrow(
      `The fixtures given as an object holds a record the mock cannot hold, and is refused: ${fault}.`,
    );
  });
});

describe("a record the mock holds although the API would not write it", () => {
  it("an agent card whose email is no text, or links no list: retrieved and edited (it was a 500)", async () => {
    for (const odd of [{ email: null }, { social_media_links: 5 }, { social_media_links: [null, { weight: "1" }] }]) {
      const fixtures = { ...tinyFixtures(), agents: [{ ...tinyFixtures().agents[0]!, ...odd }] };
      const mock = createMockServer({ fixtures: fixtures as never, contract: sharedContract(), log: () => {} });
      mocks.push(mock);
      const headers = { ...DEMO, "content-type": "application/json" };
      await request(mock.app).post("/api/v1/object/agent_card/1003").set(headers).expect(200);
      await request(mock.app)
        .put("/api/v1/object/agent_card/1003")
        .set(headers)
        .send({ email: "new@harbor.example" })
        .expect(200);
      expect((await request(mock.app).post("/api/v1/object/agent_card/1003").set(headers).expect(200)).body.email).toBe(
        "new@harbor.example",
      );
    }
  });
});

describe("a fixtures file read again after it changed on disk", () => {
  /**
   * A mock on a good fixtures file, with a property created since, and the file then replaced by one it cannot hold.
   */
  async function changedUnderfoot(): Promise<{ mock: MockServer; file: string; created: string }> {
    const file = tempFile(JSON.stringify(tinyFixtures()));
    const mock = createMockServer({ fixtures: file, contract: sharedContract(), log: () => {} });
    mocks.push(mock);
    const headers = { ...DEMO, "content-type": "application/json" };
    const { body } = await request(mock.app)
      .post("/api/v1/object/property")
      .set(headers)
      .send({ street: "1 Main St", city: "Austin", state: "TX", zip: "78701" })
      .expect(200);
    writeFileSync(file, stateText({ properties: [propertyNesting(65)] }));
    return { mock, file, created: body.nid as string };
  }

  const expectUnchanged = async (mock: MockServer, created: string) => {
    await request(mock.app).get(`/api/v1/object/property/${created}`).set(DEMO).expect(200);
    expect((await request(mock.app).get("/healthz").expect(200)).body.counts).toEqual({
      accounts: 2,
      properties: 3,
      agents: 1,
      documents: 1,
    });
    expect((await request(mock.app).get("/__admin/state").expect(200)).body.current).toBe("fixtures");
  };

  it("POST /__admin/reset: 409 Seed Refused naming the file and the record, and the state as it was", async () => {
    const { mock, file, created } = await changedUnderfoot();
    const answer = await request(mock.app).post("/__admin/reset").expect(409);
    expect(answer.headers["content-type"]).toMatch(/^application\/problem\+json/);
    expect(answer.body).toMatchObject({ type: `${PROBLEM_BASE}seed-refused`, title: "Seed Refused", status: 409 });
    expect(answer.body.detail).toContain(
      `The fixtures file ${file} holds a record the mock cannot hold, and is refused: properties[0] (id ` +
        `1001): nesting deeper than 64 levels.`,
    );
    await expectUnchanged(mock, created);
  });

  it.each([
    ["deleted", (file: string) => rmSync(file), "Cannot read fixtures from"],
    ["no longer JSON", (file: string) => writeFileSync(file, "{ not json"), "line 1 is not valid JSON"],
    ["JSON that is not a state", (file: string) => writeFileSync(file, "[]"), "does not hold a mock state"],
  ] as const)(
    "POST /__admin/reset on a fixtures file since %s: 409 Seed Refused naming the file, and the state as it was",
    async (_label, spoil, said) => {
      const file = tempFile(JSON.stringify(tinyFixtures()));
      const mock = createMockServer({ fixtures: file, contract: sharedContract(), log: () => {} });
      mocks.push(mock);
      const { body } = await request(mock.app)
        .post("/api/v1/object/property")
        .set({ ...DEMO, "content-type": "application/json" })
        .send({ street: "1 Main St", city: "Austin", state: "TX", zip: "78701" })
        .expect(200);
      spoil(file);
      const answer = await request(mock.app).post("/__admin/reset").expect(409);
      expect(answer.body).toMatchObject({ type: `${PROBLEM_BASE}seed-refused`, title: "Seed Refused", status: 409 });
      expect(answer.body.detail).toContain(file);
      expect(answer.body.detail).toContain(said);
      expect(answer.body.detail).toContain("Nothing was changed");
      await expectUnchanged(mock, body.nid as string);
    },
  );

  it("POST /__admin/state with a shipped state made from the fixtures: the same 409, the state as it was", async () => {
    const { mock, created } = await changedUnderfoot();
    const answer = await request(mock.app).post("/__admin/state").send({ state: "many-properties" }).expect(409);
    expect(answer.body).toMatchObject({ type: `${PROBLEM_BASE}seed-refused`, status: 409 });
    await expectUnchanged(mock, created);
  });
});
