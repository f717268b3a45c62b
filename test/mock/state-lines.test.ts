/**
 * A state in JSON Lines (src/mock/store/state-lines.ts): a fixtures file or a `--db` snapshot read line by line is
 * the state the same file in one JSON text is, and the mock answers it byte for byte alike; a line at fault is
 * named; a `--db` snapshot is written so, and an earlier version's JSON snapshot is still read.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import request from "supertest";
import { afterAll, describe, expect, it } from "vitest";
import { generateFixtures } from "../../src/fixtures/generate-fixtures.ts";
import { createMockServer } from "../../src/hosts/node/create-mock-server.ts";
import { DEFAULT_FIXTURES_PATH, loadFixtures } from "../../src/hosts/node/state/load-fixtures.ts";
import type { Database } from "../../src/mock/store/records.ts";
import { stateLines } from "../../src/mock/store/state-lines.ts";
import { sharedContract } from "../support/mock-harness.ts";
import { tinyFixtures } from "../support/tiny-fixtures.ts";

const directory = mkdtempSync(join(tmpdir(), "plk-lines-"));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

let files = 0;
const file = (text: string) => {
  const path = join(directory, `state-${files++}.json`);
  writeFileSync(path, text);
  return path;
};
const asLines = (state: Database) => [...stateLines(state)].join("");

/** The text of an answer as sent. */
const text = (call: request.Test) =>
  call.buffer(true).parse((response, done) => {
    let body = "";
    response.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
    response.on("end", () => done(null, body));
  });

describe("a state in JSON Lines", () => {
  const generated = generateFixtures({ seed: 7, properties: 600 });

  it("is the state the same file in JSON is, read across many chunks, blank lines and CRLF line ends taken", () => {
    expect(JSON.stringify(loadFixtures(file(asLines(generated))))).toBe(JSON.stringify(generated));
    const crlf = asLines(tinyFixtures()).replaceAll("\n", "\r\n\n");
    expect(JSON.stringify(loadFixtures(file(crlf)))).toBe(JSON.stringify(tinyFixtures()));
    // Larger than one chunk read (1 MiB), a line split across two.
    const large = generateFixtures({ seed: 3, properties: 2_000 });
    const largeText = asLines(large);
    expect(largeText.length).toBeGreaterThan(2 * 1024 * 1024);
    expect(JSON.stringify(loadFixtures(file(largeText)))).toBe(JSON.stringify(large));
    // Text beyond Latin-1 (each line is decoded on its own), in a line past the first chunk too.
    const wide = generateFixtures({ seed: 3, properties: 2_000 });
    for (const property of [wide.properties[0]!, wide.properties.at(-1)!]) property.title = "Maison € 漢字 😀 \u00e9";
    expect(JSON.stringify(loadFixtures(file(asLines(wide))))).toBe(JSON.stringify(wide));
  });

  it("is answered byte for byte as the same state in JSON", async () => {
    const mocks = [asLines(generated), JSON.stringify(generated)].map((content) =>
      createMockServer({ fixtures: file(content), contract: sharedContract() }),
    );
    const account = generated.accounts[0]!;
    const headers = { "API-KEY": account.apiKey, TOKEN: account.token, "content-type": "application/json" };
    const paths = [
      `/api/v1/object/properties/${account.id}`,
      ...generated.properties
        .filter((property) => property.uid === account.id)
        .slice(0, 40)
        .map((property) => `/api/v1/object/property/${property.id}`),
    ];
    for (const path of paths) {
      const [lines, json] = (await Promise.all(
        mocks.map((mock) => text(request(mock.app).get(path).set(headers))),
      )) as [request.Response, request.Response];
      expect(lines.status).toBe(200);
      expect(lines.body).toBe(json.body);
    }
    // A nid handed out after it is the same too (the nested nids of tours and videos feed the sequence).
    const create = { street: "1 Main St", city: "Austin", state: "TX", zip: "78701" };
    const [fromLines, fromJson] = (await Promise.all(
      mocks.map((mock) => request(mock.app).post("/api/v1/object/property").set(headers).send(create)),
    )) as [request.Response, request.Response];
    expect(fromLines.body.nid).toBe(fromJson.body.nid);
    for (const mock of mocks) await mock.close();
  });

  it("is answered as from JSON by every way to read or change a property, order and odd members kept", async () => {
    // One property whose members do not start with id and uid, one with a member named __proto__: both read whole.
    const state = structuredClone(generated);
    const [first, second, third] = state.properties as Array<Record<string, unknown>>;
    const { id, uid, ...rest } = first!;
    state.properties[0] = { ...rest, id, uid } as (typeof state.properties)[number];
    Object.defineProperty(second, "__proto__", {
      value: { polluted: true },
      enumerable: true,
      configurable: true,
      writable: true,
    });
    // two properties share an external id
    third!.external_id = (state.properties[3] as Record<string, unknown>).external_id;
    const mocks = [asLines(state), JSON.stringify(state)].map((content) =>
      createMockServer({ fixtures: file(content), contract: sharedContract() }),
    );
    const account = state.accounts[0]!;
    const headers = { "API-KEY": account.apiKey, TOKEN: account.token, "content-type": "application/json" };
    const both = async (send: (mock: (typeof mocks)[number]) => request.Test) => {
      const [lines, json] = (await Promise.all(mocks.map((mock) => text(send(mock))))) as [
        request.Response,
        request.Response,
      ];
      expect(`${lines.status} ${lines.body}`).toBe(`${json.status} ${json.body}`);
      return lines;
    };
    const owned = state.properties.filter((property) => property.uid === account.id);
    for (const property of owned.slice(0, 12)) {
      if (property.external_id)
        await both((mock) =>
          request(mock.app)
            .get(`/api/v1/object/external-property/${encodeURIComponent(property.external_id!)}`)
            .set(headers),
        );
    }
    // The property sharing its external id moves to another: the one left holding it is found by it.
    const edited = third as unknown as (typeof owned)[number];
    expect(owned).toContain(edited);
    const shared = edited.external_id!;
    // Its answer holds each mock's own address and sign-in token: the status and the nid are compared.
    const puts = await Promise.all(
      mocks.map((mock) =>
        request(mock.app)
          .put(`/api/v1/object/property/${edited.id}`)
          .set(headers)
          .send({ title: "Edited", external_id: "crm-moved" }),
      ),
    );
    expect(puts.map((put) => `${put.status} ${put.body.nid}`)).toEqual([`200 ${edited.id}`, `200 ${edited.id}`]);
    for (const externalId of ["crm-moved", shared])
      await both((mock) => request(mock.app).get(`/api/v1/object/external-property/${externalId}`).set(headers));
    await both((mock) => request(mock.app).get(`/api/v1/object/properties/${account.id}`).set(headers));
    // A raw read serves every record, read or not, as it is in the file (member order included).
    await both((mock) => request(mock.app).get(`/__db/properties/${owned[30]!.id}`));
    await both((mock) => request(mock.app).get("/__db/db"));
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    for (const mock of mocks) await mock.close();
  });

  it("names the line that is not JSON, or not a line of a state", () => {
    const account = JSON.stringify(tinyFixtures().accounts[0]);
    const broken = file(`{"accounts":${account}}\n{"properties":{"id":1001,"uid":1,"title":tru}}\n`);
    expect(() => loadFixtures(broken)).toThrow(`The fixtures file ${broken} line 2 is not valid JSON (`);
    const foreign = file(`{"accounts":${account}}\n{"listings":{"id":1}}\n`);
    expect(() => loadFixtures(foreign)).toThrow(`${foreign} line 2 is not a line of a mock state`);
    const twoMembers = file(`{"accounts":${account}}\n{"accounts":{"id":2},"agents":{"id":3}}\n`);
    expect(() => loadFixtures(twoMembers)).toThrow(`${twoMembers} line 2 is not a line of a mock state`);
  });

  it("reads a file in one JSON text a record at a time, as JSON.parse would, or refuses it naming its line", () => {
    expect(loadFixtures(file(readFileSync(DEFAULT_FIXTURES_PATH, "utf8")))).toEqual(
      JSON.parse(readFileSync(DEFAULT_FIXTURES_PATH, "utf8")),
    );
    expect(JSON.stringify(loadFixtures(file(JSON.stringify(generated))))).toBe(JSON.stringify(generated));
    // Laid out by hand: not the layout the line reader knows, so the streaming parser reads it.
    const odd =
      `{ "accounts": [ ${JSON.stringify(generated.accounts[0])} ` +
      `,\n${JSON.stringify(generated.accounts[1])}],\n"properties"\n:${JSON.stringify(generated.properties)}, ` +
      `"agents": ${JSON.stringify(generated.agents)},\n\t"documents": ` +
      `${JSON.stringify(generated.documents, null, 3)} }\n`;
    expect(JSON.stringify(loadFixtures(file(odd)))).toBe(JSON.stringify(generated));
    const cases: Array<[string, number, string]> = [
      [
        '{"accounts":[],"properties":[{"id":1001,"uid":1,"title":tru}],"agents":[],"documents":[]}',
        1,
        "is not valid JSON",
      ],
      [
        '{\n  "accounts": [],\n  "properties": [\n    {"id":1001,"uid":1,"title":tru}\n  ]\n}\n',
        4,
        "is not valid JSON",
      ],
      ['{"accounts":[]', 1, "the JSON document ends before it is closed"],
      ["", 1, "the JSON document ends before it is closed"],
      ['{"accounts":[],"properties":[],"agents":[],"documents":[]}\n\n{}', 3, "is not valid JSON"],
    ];
    for (const [content, line, problem] of cases) {
      const broken = file(content);
      expect(() => loadFixtures(broken), content).toThrow(
        new RegExp(`^The fixtures file ${broken} line ${line}:? ${problem}`),
      );
    }
    for (const content of ["\ufeff{}", "[1, 2]"])
      expect(() => loadFixtures(file(content)), content).toThrow("does not hold a mock state");
    // A record the store cannot hold, in either layout the line reader knows, is named with its line.
    const bad = {
      ...generated,
      properties: [
        generated.properties[0]!,
        { ...generated.properties[1]!, id: "x" },
        ...generated.properties.slice(2),
      ],
    };
    const indented = JSON.stringify(bad, null, 2);
    // the line after the record's `{`
    const opening = indented.split("\n").findIndex((line) => line.includes('"id": "x"'));
    expect(() => loadFixtures(file(indented))).toThrow(
      `line ${opening} holds a record the mock cannot hold, and is refused: properties[1]: "id" is not an ` +
        `integer (a string).`,
    );
    const aRecordALine = [
      "{",
      ...(["accounts", "properties", "agents", "documents"] as const).map(
        (name, at) =>
          `  "${name}": [\n${bad[name].map((record) => `    ${JSON.stringify(record)}`).join(",\n")}\n  ` +
          `]${at === 3 ? "" : ","}`,
      ),
      "}",
      "",
    ].join("\n");
    expect(
      JSON.stringify(loadFixtures(file(aRecordALine.replace('"id":"x"', `"id":${generated.properties[1]!.id}`)))),
    ).toBe(JSON.stringify(generated));
    expect(() => loadFixtures(file(aRecordALine))).toThrow(
      `line ${6 + generated.accounts.length} holds a record the mock cannot hold`,
    );
  });
});

describe("a --db snapshot", () => {
  const account = tinyFixtures().accounts[0]!;
  const headers = { "API-KEY": account.apiKey, TOKEN: account.token, "content-type": "application/json" };

  it("is written in the form its name says, read back as the same state; an older JSON Lines one too", async () => {
    const folder = mkdtempSync(join(directory, "db-"));
    const db = join(folder, "db.json");
    const first = createMockServer({ fixtures: tinyFixtures(), db, contract: sharedContract() });
    const before = JSON.stringify(first.store.state);
    await first.close();
    // One JSON document in json-server's shape, a record a line, the meta last.
    const text = readFileSync(db, "utf8");
    const { $meta: meta, ...records } = JSON.parse(text);
    expect(JSON.stringify(records)).toBe(before);
    expect(meta).toMatchObject({ seq: 0, autologin: { issued: 0 } });
    expect(text.split("\n").slice(0, 3)).toEqual([
      "{",
      '  "accounts": [',
      `    ${JSON.stringify(tinyFixtures().accounts[0])},`,
    ]);
    const second = createMockServer({ fixtures: tinyFixtures(), db, contract: sharedContract() });
    expect(JSON.stringify(second.store.state)).toBe(before);
    await second.close();
    expect(readFileSync(db, "utf8")).toBe(text);

    // In JSON Lines, for a name that says so: a record a line, and the trailer last.
    const lines = join(folder, "db.jsonl");
    const third = createMockServer({ fixtures: tinyFixtures(), db: lines, contract: sharedContract() });
    await third.close();
    const written = readFileSync(lines, "utf8").trimEnd().split("\n");
    expect(written.slice(0, -1).map((line) => Object.keys(JSON.parse(line))[0])).toEqual(
      (["accounts", "properties", "agents", "documents"] as const).flatMap((name) =>
        tinyFixtures()[name].map(() => name),
      ),
    );
    const trailer = JSON.parse(written.at(-1)!).$meta;
    expect(trailer).toMatchObject({
      seq: 0,
      records: { accounts: 2, properties: tinyFixtures().properties.length },
      crc32: expect.any(Number),
    });

    // The same state as an earlier version wrote it: JSON Lines, the meta last without counts.
    const { records: _counts, crc32: _checksum, ...earlierMeta } = trailer;
    writeFileSync(db, `${asLines(JSON.parse(before))}{"$meta":${JSON.stringify(earlierMeta)}}\n`);
    const fourth = createMockServer({ fixtures: tinyFixtures(), db, contract: sharedContract() });
    expect(JSON.stringify(fourth.store.state)).toBe(before);
    await request(fourth.app).get(`/api/v1/object/properties/${account.id}`).set(headers).expect(200);
    await fourth.close();
  });

  it("names the line of a $meta that is not right, and of a record the store cannot hold", () => {
    const db = join(mkdtempSync(join(directory, "db-")), "db.json");
    writeFileSync(db, `${asLines(tinyFixtures())}{"$meta":{"seq":-1}}\n`);
    const metaLine = asLines(tinyFixtures()).split("\n").length;
    expect(() => createMockServer({ fixtures: tinyFixtures(), db, contract: sharedContract() })).toThrow(
      `${db} line ${metaLine}: "$meta" is not the meta of a mock state.`,
    );
    writeFileSync(db, `{"accounts":${JSON.stringify(account)}}\n{"documents":{"id":"x"}}\n`);
    expect(() => createMockServer({ fixtures: tinyFixtures(), db, contract: sharedContract() })).toThrow(
      `${db} line 2 holds a record the mock cannot hold, and is refused: documents[0]: "id" is not an ` +
        `integer (a string).`,
    );
  });
});
