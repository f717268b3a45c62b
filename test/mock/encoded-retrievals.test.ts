/**
 * The retrieve answers kept encoded (src/mock/services/encoded-retrievals.ts) are never stale: after every kind of
 * change (an edit through the API, a raw write or removal through /__db, a document created, edited, moved,
 * unmarked or deleted, a reset), the next GET of endpoint 1 or 2 answers byte for byte what is computed afresh
 * from the records as they are now: `JSON.stringify(projectProperty(record, documents))`, with the records read
 * both from the store and from /__db. Each scenario GETs first, so that the answer is kept, then changes, then
 * checks that the new answer differs from the kept one and equals the fresh one. Every scenario runs in process
 * and listening, on fixtures given as records and read from a file. On four hundred generated properties, changes
 * of every kind reach a hundred of them at once (listening), and GETs run beside edits (in process, as MSW
 * handlers answer). The bound on the bytes kept is checked on the service alone, without HTTP.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import type { RequestListener } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { getResponse } from "msw";
import request from "supertest";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { generateFixtures } from "../../src/fixtures/generate-fixtures.ts";
import { createMockServer, type MockServer } from "../../src/hosts/node/create-mock-server.ts";
import { createMockHandlers } from "../../src/msw.ts";
import { EncodedRetrievals } from "../../src/mock/services/encoded-retrievals.ts";
import { MockStore } from "../../src/mock/store/mock-store.ts";
import { SharedState } from "../../src/mock/store/shared-state.ts";
import { difference, freshAnswer as encode } from "../support/fresh-answer.ts";
import type { Database, DocumentRecord, PropertyRecord } from "../../src/mock/store/records.ts";
import { sharedContract } from "../support/mock-harness.ts";
import { DEMO, OTHER, tinyFixtures } from "../support/tiny-fixtures.ts";

type Credentials = Readonly<Record<string, string>>;

/**
 * The tiny fixtures, plus a second property of the demo account (1005, no external id) with a floorplan (1006),
 * and a plain document of 1001 (1007): two properties of one account to move floorplans between.
 */
function seed(): Database {
  const db = tinyFixtures();
  const model = db.properties[0]!;
  db.properties.push({
    ...model,
    id: 1005,
    street: "40 Birch Ln",
    title: "Birch ranch",
    subdomain: "40-birch-ln-1005",
    website_url: "https://40-birch-ln-1005.sites.property-listing.example",
    external_id: null,
    virtual_tours: [],
    property_videos: {},
  });
  const floorplan = db.documents[0]!;
  db.documents.push(
    {
      ...floorplan,
      id: 1006,
      title: "Main level",
      property_reference: 1005,
      file_url: "https://files.property-listing.example/1005-main.pdf",
    },
    {
      ...floorplan,
      id: 1007,
      title: "Disclosure",
      property_reference: 1001,
      file_url: "https://files.property-listing.example/1001-disclosure.pdf",
      category: "disclosure",
      is_floorplan: false,
    },
  );
  return db;
}

/** The request's answer with its body as the text sent, so answers are compared byte for byte. */
async function asText(pending: request.Test): Promise<{ status: number; text: string }> {
  const response = await pending.buffer(true).parse((stream, done) => {
    let text = "";
    stream.on("data", (chunk: Buffer) => (text += chunk.toString("utf8")));
    stream.on("end", () => done(null, text));
  });
  return { status: response.status, text: response.body as string };
}

function floorplanIds(answer: string): string[] {
  return Object.keys((JSON.parse(answer) as { floorplans: Record<string, unknown> }).floorplans);
}

/** A new floorplan's fields, without its property. */
const upper = {
  title: "Upper floor",
  file_url: "https://files.property-listing.example/upper.pdf",
  is_floorplan: true,
  category: "floorplan",
};

const MODES = [
  { mode: "in process", listening: false, fromFile: false },
  { mode: "listening", listening: true, fromFile: false },
  { mode: "in process, the fixtures read from a file", listening: false, fromFile: true },
  { mode: "listening, the fixtures read from a file", listening: true, fromFile: true },
] as const;

const seedDirectory = mkdtempSync(join(tmpdir(), "plk-retrievals-"));
const seedFile = join(seedDirectory, "fixtures.json");
writeFileSync(seedFile, JSON.stringify(seed()));
afterAll(() => rmSync(seedDirectory, { recursive: true, force: true }));

describe.each(MODES)("retrieve answers, $mode", ({ listening, fromFile }) => {
  let mock: MockServer;
  let target: RequestListener | string;

  beforeEach(async () => {
    mock = createMockServer({
      fixtures: fromFile ? seedFile : seed(),
      validateResponses: true,
      contract: sharedContract(),
      log: () => {},
    });
    target = listening ? (await mock.listen(0, "127.0.0.1")).url : mock.app;
  });

  afterEach(async () => {
    await mock.close();
    expect(mock.violations, "the mock answered something the contract does not allow").toEqual([]);
  });

  const api = (method: "get" | "post" | "put" | "delete", path: string, credentials: Credentials = DEMO) =>
    request(target)
      [method](`/api/v1/object${path}`)
      .set({ ...credentials, "content-type": "application/json" });
  const raw = () => request(target);

  async function retrieve(nid: number, credentials: Credentials = DEMO): Promise<{ status: number; text: string }> {
    return asText(api("get", `/property/${nid}`, credentials));
  }

  async function retrieveByExternalId(
    externalId: string,
    credentials: Credentials = DEMO,
  ): Promise<{ status: number; text: string }> {
    return asText(api("get", `/external-property/${encodeURIComponent(externalId)}`, credentials));
  }

  /** The fresh answer from the store's records, or undefined when there is no such property. */
  function fromStore(nid: number): string | undefined {
    const record = mock.store.record("properties", nid);
    return record && encode(record, mock.store.documentsOfProperty(nid));
  }

  /** The fresh answer from the records /__db serves: the property as stored and the documents that refer to it. */
  async function fromRawRecords(nid: number): Promise<string | undefined> {
    const property = await raw().get(`/__db/properties/${nid}`);
    if (property.status === 404) return undefined;
    expect(property.status).toBe(200);
    const documents = await raw().get(`/__db/properties/${nid}/documents`).expect(200);
    return encode(property.body as PropertyRecord, documents.body as DocumentRecord[]);
  }

  /** The fresh answer, the same from the store and from /__db. */
  async function fresh(nid: number): Promise<string> {
    const expected = await fromRawRecords(nid);
    expect(expected, `property ${nid} is in the state`).toBeDefined();
    expect(fromStore(nid), `the store and /__db agree on property ${nid}`).toBe(expected);
    return expected!;
  }

  /**
   * Asserts that the property's GET answers its fresh bytes, twice (the first answer after a change is encoded and
   * kept, the second is the kept one); returns them.
   */
  async function expectCurrent(nid: number, credentials: Credentials = DEMO): Promise<string> {
    const expected = await fresh(nid);
    for (let time = 0; time < 2; time += 1) {
      const answer = await retrieve(nid, credentials);
      expect(answer.status).toBe(200);
      expect(answer.text).toBe(expected);
    }
    return expected;
  }

  /** GETs a property so that its answer is kept (checking it is right to start with); returns it. */
  const kept = expectCurrent;

  async function expectGone(nid: number, credentials: Credentials = DEMO): Promise<void> {
    expect((await retrieve(nid, credentials)).status).toBe(404);
  }

  async function expectByExternalId(
    externalId: string,
    expected: string,
    credentials: Credentials = DEMO,
  ): Promise<void> {
    for (let time = 0; time < 2; time += 1) {
      const answer = await retrieveByExternalId(externalId, credentials);
      expect(answer.status).toBe(200);
      expect(answer.text).toBe(expected);
    }
  }

  describe("an edit through the API", () => {
    it("is in the next GET by nid and by external id", async () => {
      const before = await kept(1001);
      await expectByExternalId("crm-1001", before);
      const title = 'Bungalow "Oak" \u2014 new roof, caf\u00e9 \u2028 next door';
      await api("put", "/property/1001").send({ title, list_price: "499000", premise: "Unit B" }).expect(200);
      const after = await expectCurrent(1001);
      expect(after).not.toBe(before);
      expect(JSON.parse(after)).toMatchObject({ nid: "1001", title, list_price: "499000", premise: "Unit B" });
      await expectByExternalId("crm-1001", after);
      // An edit through the external id's answer first: kept by nid, changed, seen through both.
      await api("put", "/property/1001").send({ bedrooms: "5" }).expect(200);
      const again = await fresh(1001);
      expect(again).not.toBe(after);
      await expectByExternalId("crm-1001", again);
      await expectCurrent(1001);
    });

    it("follows the external id as it is set, changed and removed", async () => {
      const before = await kept(1005);
      expect((await retrieveByExternalId("crm-1005")).status).toBe(404);
      await api("put", "/property/1005").send({ external_id: "crm-1005" }).expect(200);
      const labelled = await fresh(1005);
      expect(labelled).not.toBe(before);
      expect(JSON.parse(labelled).external_id).toBe("crm-1005");
      await expectByExternalId("crm-1005", labelled); // kept through the external id
      await api("put", "/property/1005").send({ street: "41 Birch Ln", title: "Birch ranch, renovated" }).expect(200);
      const edited = await fresh(1005);
      expect(edited).not.toBe(labelled);
      await expectByExternalId("crm-1005", edited);
      expect(await expectCurrent(1005)).toBe(edited);
      await api("put", "/property/1005").send({ external_id: "crm-2005" }).expect(200);
      const relabelled = await fresh(1005);
      expect(JSON.parse(relabelled).external_id).toBe("crm-2005");
      expect((await retrieveByExternalId("crm-1005")).status).toBe(404);
      await expectByExternalId("crm-2005", relabelled);
      await expectCurrent(1005);
      await api("put", "/property/1005").send({ external_id: "" }).expect(200);
      expect((await retrieveByExternalId("crm-2005")).status).toBe(404);
      expect(JSON.parse(await expectCurrent(1005)).external_id).toBeNull();
    });

    it("of one property leaves the other's answer as it was, and another account's GET of it a 404", async () => {
      const other = await kept(1005);
      const foreign = await kept(1002, OTHER);
      await api("put", "/property/1001").send({ title: "Changed" }).expect(200);
      expect(await expectCurrent(1005)).toBe(other);
      expect(await expectCurrent(1002, OTHER)).toBe(foreign);
      await expectGone(1001, OTHER);
    });
  });

  describe("a raw write through /__db", () => {
    it("PATCH is in the next GET, by nid and by external id", async () => {
      const before = await kept(1001);
      await expectByExternalId("crm-1001", before);
      await raw()
        .patch("/__db/properties/1001")
        .send({ title: "Patched raw", bedrooms: "4", virtual_tours: [] })
        .expect(200);
      const after = await expectCurrent(1001);
      expect(after).not.toBe(before);
      expect(JSON.parse(after)).toMatchObject({ title: "Patched raw", bedrooms: "4", virtual_tours: [] });
      await expectByExternalId("crm-1001", after);
      // A raw PATCH of the external id: the old one finds nothing, the new one the current answer.
      await raw().patch("/__db/properties/1001").send({ external_id: "crm-raw" }).expect(200);
      expect((await retrieveByExternalId("crm-1001")).status).toBe(404);
      await expectByExternalId("crm-raw", await expectCurrent(1001));
    });

    it("PUT of the whole record is in the next GET, even one that only lays its fields out anew", async () => {
      const before = await kept(1001);
      const { body: record } = await raw().get("/__db/properties/1001").expect(200);
      await raw()
        .put("/__db/properties/1001")
        .send({ ...record, title: "Put raw", baths: "3" })
        .expect(200);
      const replaced = await expectCurrent(1001);
      expect(replaced).not.toBe(before);
      expect(JSON.parse(replaced)).toMatchObject({ title: "Put raw", baths: "3" });
      // The same values in reverse order: the answer lists the record's fields in its order, so its bytes change.
      const { body: current } = await raw().get("/__db/properties/1001").expect(200);
      const reversed = Object.fromEntries(Object.entries(current as Record<string, unknown>).reverse());
      await raw().put("/__db/properties/1001").send(reversed).expect(200);
      const reordered = await expectCurrent(1001);
      expect(reordered).not.toBe(replaced);
      expect(JSON.parse(reordered)).toEqual(JSON.parse(replaced));
      await expectByExternalId("crm-1001", reordered);
    });

    it("PUT moving the property to another account: a 404 for the old owner, the answer for the new one", async () => {
      await kept(1005);
      const { body: record } = await raw().get("/__db/properties/1005").expect(200);
      await raw()
        .put("/__db/properties/1005")
        .send({ ...record, uid: 2, api_author: "2" })
        .expect(200);
      await expectGone(1005);
      expect(JSON.parse(await expectCurrent(1005, OTHER)).uid).toBe("2");
      await raw().patch("/__db/properties/1005").send({ uid: 1, api_author: "1" }).expect(200);
      await expectGone(1005, OTHER);
      expect(JSON.parse(await expectCurrent(1005)).uid).toBe("1");
    });

    it("DELETE makes the next GET a 404, by nid and external id; a raw POST of the id answers anew", async () => {
      const before = await kept(1001);
      await expectByExternalId("crm-1001", before);
      const { body: record } = await raw().get("/__db/properties/1001").expect(200);
      await raw().delete("/__db/properties/1001").expect(200);
      expect(fromStore(1001)).toBeUndefined();
      await expectGone(1001);
      expect((await retrieveByExternalId("crm-1001")).status).toBe(404);
      await expectGone(1001); // and stays gone, not a kept answer
      await raw()
        .post("/__db/properties")
        .send({ ...record, title: "Rebuilt", external_id: "crm-rebuilt" })
        .expect(201);
      const rebuilt = await expectCurrent(1001);
      expect(rebuilt).not.toBe(before);
      expect(JSON.parse(rebuilt).title).toBe("Rebuilt");
      expect((await retrieveByExternalId("crm-1001")).status).toBe(404);
      await expectByExternalId("crm-rebuilt", rebuilt);
    });
  });

  describe("documents", () => {
    it("a floorplan created, retitled, moved to another property, unmarked, marked, deleted by the API", async () => {
      const first = await kept(1001);
      const second = await kept(1005);
      const { body: created } = await api("post", "/document/")
        .send({ ...upper, property_reference: 1001 })
        .expect(200);
      const key = String(created.nid);
      const withNew = await expectCurrent(1001);
      expect(withNew).not.toBe(first);
      expect(floorplanIds(withNew)).toEqual(["1004", key]);
      await expectByExternalId("crm-1001", withNew);

      await api("put", `/document/${key}`).send({ title: "Attic" }).expect(200);
      const retitled = await expectCurrent(1001);
      expect(JSON.parse(retitled).floorplans[key].title).toBe("Attic");
      await expectByExternalId("crm-1001", retitled);

      await api("put", `/document/${key}`)
        .send({ file_url: "https://files.property-listing.example/attic.pdf" })
        .expect(200);
      expect(JSON.parse(await expectCurrent(1001)).floorplans[key].floorplan_url).toBe(
        "https://files.property-listing.example/attic.pdf",
      );

      expect(await expectCurrent(1005)).toBe(second); // kept, untouched so far
      await api("put", `/document/${key}`).send({ property_reference: 1005 }).expect(200);
      expect(floorplanIds(await expectCurrent(1001))).toEqual(["1004"]);
      const moved = await expectCurrent(1005);
      expect(floorplanIds(moved)).toEqual(["1006", key]);

      // Back again, both answers kept before the move.
      await api("put", `/document/${key}`).send({ property_reference: 1001 }).expect(200);
      expect(floorplanIds(await expectCurrent(1005))).toEqual(["1006"]);
      expect(floorplanIds(await expectCurrent(1001))).toEqual(["1004", key]);
      await api("put", `/document/${key}`).send({ property_reference: 1005 }).expect(200);
      expect(floorplanIds(await expectCurrent(1001))).toEqual(["1004"]);
      expect(await expectCurrent(1005)).toBe(moved);

      await api("put", `/document/${key}`).send({ is_floorplan: false }).expect(200);
      expect(await expectCurrent(1005)).toBe(second);
      // Moved while not a floorplan, then marked again: it shows where it is now, not where it was listed.
      await api("put", `/document/${key}`).send({ property_reference: 1001 }).expect(200);
      expect(await expectCurrent(1005)).toBe(second);
      await api("put", `/document/${key}`).send({ is_floorplan: true }).expect(200);
      expect(floorplanIds(await expectCurrent(1001))).toEqual(["1004", key]);
      expect(await expectCurrent(1005)).toBe(second);

      await api("delete", `/document/${key}`).expect(200, [true]);
      expect(floorplanIds(await expectCurrent(1001))).toEqual(["1004"]);
      await api("delete", "/document/1006").expect(200, [true]);
      expect(floorplanIds(await expectCurrent(1005))).toEqual([]);
    });

    it("a plain document made a floorplan, and a seeded floorplan unmarked, through the API", async () => {
      const before = await kept(1001);
      await api("put", "/document/1007").send({ is_floorplan: true }).expect(200);
      expect(floorplanIds(await expectCurrent(1001))).toEqual(["1004", "1007"]);
      await api("put", "/document/1004").send({ is_floorplan: false }).expect(200);
      expect(floorplanIds(await expectCurrent(1001))).toEqual(["1007"]);
      await api("put", "/document/1007").send({ is_floorplan: false }).expect(200);
      await api("put", "/document/1004").send({ is_floorplan: true }).expect(200);
      expect(await expectCurrent(1001)).toBe(before);
    });

    it("a raw POST, PATCH, PUT and DELETE of a document through /__db", async () => {
      const first = await kept(1001);
      const second = await kept(1005);
      const { body: model } = await raw().get("/__db/documents/1004").expect(200);
      const { id: _id, ...fields } = model as DocumentRecord;
      const { body: created } = await raw()
        .post("/__db/documents")
        .send({ ...fields, title: "Raw plan", file_url: "https://files.property-listing.example/raw.pdf" })
        .expect(201);
      const key = String(created.id);
      const withNew = await expectCurrent(1001);
      expect(floorplanIds(withNew)).toEqual(["1004", key]);
      expect(JSON.parse(withNew).floorplans[key].title).toBe("Raw plan");

      await raw().patch(`/__db/documents/${key}`).send({ title: "Raw plan, patched" }).expect(200);
      expect(JSON.parse(await expectCurrent(1001)).floorplans[key].title).toBe("Raw plan, patched");

      await raw().patch(`/__db/documents/${key}`).send({ property_reference: 1005 }).expect(200);
      expect(await expectCurrent(1001)).toBe(first);
      expect(floorplanIds(await expectCurrent(1005))).toEqual(["1006", key]);

      const { body: current } = await raw().get(`/__db/documents/${key}`).expect(200);
      await raw()
        .put(`/__db/documents/${key}`)
        .send({ ...current, is_floorplan: false })
        .expect(200);
      expect(await expectCurrent(1005)).toBe(second);
      await raw()
        .put(`/__db/documents/${key}`)
        .send({ ...current, property_reference: 1001, title: "Raw plan, put" })
        .expect(200);
      expect(JSON.parse(await expectCurrent(1001)).floorplans[key].title).toBe("Raw plan, put");
      expect(await expectCurrent(1005)).toBe(second);

      await raw().delete(`/__db/documents/${key}`).expect(200);
      expect(await expectCurrent(1001)).toBe(first);
      await raw().delete("/__db/documents/1006").expect(200);
      expect(floorplanIds(await expectCurrent(1005))).toEqual([]);
      await raw().patch("/__db/documents/1007").send({ is_floorplan: true }).expect(200);
      expect(floorplanIds(await expectCurrent(1001))).toEqual(["1004", "1007"]);
    });

    it("a raw DELETE of a property takes its floorplans with it: recreated, it lists none", async () => {
      await kept(1001);
      await raw().delete("/__db/properties/1001").expect(200);
      await expectGone(1001);
      const { body: record } = await raw().get("/__db/properties/1005").expect(200);
      await raw()
        .post("/__db/properties")
        .send({ ...record, id: 1001, title: "Recreated", external_id: "crm-1001" })
        .expect(201);
      const recreated = await expectCurrent(1001);
      expect(JSON.parse(recreated).title).toBe("Recreated");
      expect(floorplanIds(recreated)).toEqual([]); // 1004 went with the property removed
      await expectByExternalId("crm-1001", recreated);
    });
  });

  describe("a reset", () => {
    it("POST /__admin/reset brings back the seeded answers after changes of every kind", async () => {
      const seeded = new Map<number, string>();
      for (const nid of [1001, 1005]) seeded.set(nid, await kept(nid));
      const foreign = await kept(1002, OTHER);
      await expectByExternalId("crm-1001", seeded.get(1001)!);

      await api("put", "/property/1001").send({ title: "Before the reset" }).expect(200);
      await raw().patch("/__db/properties/1005").send({ external_id: "crm-1005", bedrooms: "7" }).expect(200);
      await api("post", "/document/")
        .send({ ...upper, property_reference: 1005 })
        .expect(200);
      await raw().delete("/__db/documents/1004").expect(200);
      await raw().delete("/__db/properties/1002").expect(200);
      expect(await expectCurrent(1001)).not.toBe(seeded.get(1001));
      expect(await expectCurrent(1005)).not.toBe(seeded.get(1005));
      await expectByExternalId("crm-1005", await fresh(1005));
      await expectGone(1002, OTHER);

      await raw().post("/__admin/reset").expect(200);
      for (const [nid, answer] of seeded) expect(await expectCurrent(nid)).toBe(answer);
      expect(await expectCurrent(1002, OTHER)).toBe(foreign);
      await expectByExternalId("crm-1001", seeded.get(1001)!);
      expect((await retrieveByExternalId("crm-1005")).status).toBe(404);
    });

    it("mock.reset() does too, and a nid handed out again after it answers its new property", async () => {
      const before = await kept(1001);
      const { body: made } = await api("post", "/property")
        .send({ street: "1 Main St", city: "Austin", state: "TX", zip: "78701" })
        .expect(200);
      const nid = Number(made.nid);
      const old = await kept(nid);
      expect(JSON.parse(old).street).toBe("1 Main St");
      await api("put", "/property/1001").send({ title: "Before the reset" }).expect(200);
      await expectCurrent(1001);

      mock.reset();
      expect(await expectCurrent(1001)).toBe(before);
      await expectGone(nid);
      const { body: again } = await api("post", "/property")
        .send({ street: "2 Side St", city: "Dallas", state: "TX", zip: "75201" })
        .expect(200);
      expect(Number(again.nid)).toBe(nid); // the sequence starts again after a reset
      const renewed = await expectCurrent(nid);
      expect(renewed).not.toBe(old);
      expect(JSON.parse(renewed)).toMatchObject({ street: "2 Side St", city: "Dallas" });
    });
  });
});

describe("answers kept per property and dropped on change, on four hundred generated properties", () => {
  const PROPERTIES = 400;
  const db = generateFixtures({ seed: 23, properties: PROPERTIES });
  const demoIds = db.properties.filter((property) => property.uid === 1).map((property) => property.id);
  const headers = { ...DEMO, "content-type": "application/json" };
  const started: MockServer[] = [];

  afterEach(async () => {
    await Promise.all(started.splice(0).map((mock) => mock.close()));
  });

  /** A mock on the generated fixtures, and what sends it one request. */
  interface Running {
    store: MockStore;
    violations: ReadonlyArray<unknown>;
    send(method: string, path: string, body?: unknown): Promise<{ status: number; text: string }>;
  }

  /**
   * The mock in process, as MSW handlers answer a fetch `Request` without a port: the same core and the same
   * answers as the Node server's, for a scenario that goes through the API alone (the raw records of /__db are
   * the Node server's own).
   */
  function inProcess(): Running {
    const origin = "http://retrievals.mock.test";
    const mock = createMockHandlers({ fixtures: db, baseUrl: origin, log: () => {} });
    const send = async (method: string, path: string, body?: unknown) => {
      const response = await getResponse(
        mock.handlers,
        new Request(`${origin}${path}`, {
          method,
          headers,
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        }),
      );
      if (!response) throw new Error(`no handler answered ${method} ${path}`);
      return { status: response.status, text: await response.text() };
    };
    return { store: mock.store, violations: mock.violations, send };
  }

  /** Starts the Node server on the generated fixtures, listening (the raw writes of /__db are its own). */
  async function start(validateResponses: boolean): Promise<Running> {
    const mock = createMockServer({ fixtures: db, contract: sharedContract(), validateResponses, log: () => {} });
    started.push(mock);
    const { url } = await mock.listen(0, "127.0.0.1");
    const send = async (method: string, path: string, body?: unknown) => {
      const response = await fetch(`${url}${path}`, {
        method,
        headers,
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return { status: response.status, text: await response.text() };
    };
    return { store: mock.store, violations: mock.violations, send };
  }

  /** The seeded answers, from the fixtures alone. */
  function seededAnswers(): Map<number, string> {
    const documents = new Map<number, DocumentRecord[]>();
    for (const document of db.documents) {
      const list = documents.get(document.property_reference) ?? [];
      list.push(document);
      documents.set(document.property_reference, list);
    }
    return new Map(db.properties.map((property) => [property.id, encode(property, documents.get(property.id) ?? [])]));
  }
  const seeded = seededAnswers();

  async function expectStatus(
    pending: Promise<{ status: number; text: string }>,
    status: number,
    what: string,
  ): Promise<void> {
    const { status: got, text } = await pending;
    expect(got, `${what}: ${text}`).toBe(status);
  }

  /** Runs the tasks, at most `width` at a time. */
  async function inParallel<T>(items: readonly T[], width: number, task: (item: T) => Promise<void>): Promise<void> {
    let next = 0;
    await Promise.all(
      Array.from({ length: width }, async () => {
        while (next < items.length) await task(items[next++]!);
      }),
    );
  }

  /** A round of changes takes every STRIDE-th demo property: those whose index is `changes` modulo STRIDE. */
  const STRIDE = 4;
  /**
   * The rounds: the first two change the same class and remove from another; after the reset, the third changes a
   * third class and removes from the fourth. A floorplan moved goes to the next property, of the next class, so the
   * third round reaches classes 3, 0 and 1 and never the first round's removals (class 2), which answer their
   * seeded bytes again after the reset.
   */
  const ROUNDS = {
    one: { changes: 0, removals: 2 },
    two: { changes: 0, removals: 2 },
    three: { changes: 3, removals: 1 },
  } as const;

  /**
   * Changes of every kind, all sent at once: to a class of the demo properties (ROUNDS) and the last 25, an API
   * edit, a raw PATCH, a new floorplan, a floorplan moved to the next demo property, a floorplan unmarked or
   * removed raw, or the record laid out in reverse order; and a raw removal of a few properties. Returns the
   * properties changed and the ones removed.
   */
  async function changeMany(
    mock: Running,
    round: keyof typeof ROUNDS,
  ): Promise<{ changed: Set<number>; removed: Set<number> }> {
    const { changes, removals } = ROUNDS[round];
    const chosen = [...new Set([...demoIds.filter((_, index) => index % STRIDE === changes), ...demoIds.slice(-25)])];
    const changed = new Set<number>();
    const removed = new Set<number>();
    const floorplansOf = (id: number) => mock.store.documentsOfProperty(id).filter((document) => document.is_floorplan);
    const work: Array<Promise<void>> = [];
    chosen.forEach((id, index) => {
      const kind = index % 6;
      const plans = floorplansOf(id);
      const next = demoIds[demoIds.indexOf(id) + 1];
      const to = next !== undefined && mock.store.record("properties", next) !== undefined ? next : undefined;
      changed.add(id);
      if (kind === 0)
        work.push(
          expectStatus(
            mock.send("PUT", `/api/v1/object/property/${id}`, {
              title: `Edited ${round} ${id} \u00e9 "q"`,
              bedrooms: "7",
            }),
            200,
            `edit ${id}`,
          ),
        );
      else if (kind === 1)
        work.push(
          expectStatus(
            mock.send("PATCH", `/__db/properties/${id}`, { title: `Raw ${round} ${id}`, display_price: null }),
            200,
            `raw patch ${id}`,
          ),
        );
      else if (kind === 2) {
        const body = {
          title: `Plan ${round} ${id}`,
          property_reference: id,
          file_url: `https://files.property-listing.example/${round}-${id}.pdf`,
          is_floorplan: true,
        };
        work.push(expectStatus(mock.send("POST", "/api/v1/object/document/", body), 200, `floorplan of ${id}`));
      } else if (kind === 3 && plans.length > 0 && to !== undefined) {
        changed.add(to);
        work.push(
          expectStatus(
            mock.send("PUT", `/api/v1/object/document/${plans[0]!.id}`, {
              property_reference: to,
              title: `Moved ${round}`,
            }),
            200,
            `move from ${id}`,
          ),
        );
      } else if (kind === 4 && plans.length > 0) {
        if (plans.length > 1)
          work.push(
            expectStatus(mock.send("DELETE", `/__db/documents/${plans[1]!.id}`), 200, `raw delete of a plan of ${id}`),
          );
        work.push(
          expectStatus(
            mock.send("PATCH", `/__db/documents/${plans[0]!.id}`, { is_floorplan: false }),
            200,
            `unmark a plan of ${id}`,
          ),
        );
      } else {
        const reversed = Object.fromEntries(Object.entries(mock.store.record("properties", id)!).reverse());
        work.push(expectStatus(mock.send("PUT", `/__db/properties/${id}`, reversed), 200, `raw put of ${id}`));
      }
    });
    for (const id of demoIds.filter((_, index) => index % STRIDE === removals).slice(0, 8)) {
      if (mock.store.record("properties", id) === undefined) continue;
      removed.add(id);
      work.push(expectStatus(mock.send("DELETE", `/__db/properties/${id}`), 200, `raw delete of ${id}`));
    }
    await Promise.all(work);
    for (const id of removed) changed.delete(id);
    return { changed, removed };
  }

  /** GETs each property (by nid, and by external id where it has one) and compares the bytes with the fresh answer. */
  async function expectAllCurrent(mock: Running, ids: readonly number[]): Promise<Map<number, string>> {
    const answers = new Map<number, string>();
    const mismatches: string[] = [];
    await inParallel(ids, 16, async (id) => {
      const record = mock.store.record("properties", id);
      const answer = await mock.send("GET", `/api/v1/object/property/${id}`);
      if (!record) {
        if (answer.status !== 404) mismatches.push(`${id}: ${answer.status} for a removed property`);
        return;
      }
      const expected = encode(record, mock.store.documentsOfProperty(id));
      answers.set(id, answer.text);
      if (answer.status !== 200 || answer.text !== expected)
        mismatches.push(`${id}: ${answer.status} ${difference(answer.text, expected)}`);
      const externalId = record.external_id;
      if (externalId) {
        const byExternalId = await mock.send(
          "GET",
          `/api/v1/object/external-property/${encodeURIComponent(externalId)}`,
        );
        if (byExternalId.text !== expected)
          mismatches.push(
            `${id} by external id ${externalId}: ${byExternalId.status} ${difference(byExternalId.text, expected)}`,
          );
      }
    });
    expect(mismatches.slice(0, 5), `${mismatches.length} stale or wrong answers`).toEqual([]);
    return answers;
  }

  async function scenario(options: {
    validateResponses: boolean;
    checked: (ids: number[]) => number[];
  }): Promise<void> {
    const mock = await start(options.validateResponses);
    // Right away, before any answer is kept.
    const first = await changeMany(mock, "one");
    expect(first.changed.size).toBeGreaterThan(80);
    const checked = new Set([...options.checked(demoIds), ...first.changed, ...first.removed]);
    const answers = await expectAllCurrent(mock, [...checked]);
    // Every changed property answers other bytes than its seeded ones: a stale answer could not pass.
    expect([...first.changed].filter((id) => answers.get(id) === seeded.get(id))).toEqual([]);
    for (const id of first.removed) expect(answers.has(id)).toBe(false);

    // Now every answer checked is kept: change the same properties again.
    const second = await changeMany(mock, "two");
    const again = await expectAllCurrent(mock, [...checked]);
    expect([...second.changed].filter((id) => again.get(id) === answers.get(id))).toEqual([]);

    // A reset drops every kept answer; other properties are changed right after it.
    await expectStatus(mock.send("POST", "/__admin/reset"), 200, "reset");
    const third = await changeMany(mock, "three");
    for (const id of [...third.changed, ...third.removed]) checked.add(id);
    const afterReset = await expectAllCurrent(mock, [...checked]);
    expect([...third.changed].filter((id) => afterReset.get(id) === seeded.get(id))).toEqual([]);
    // The rest answer their seeded bytes again, those changed or removed before the reset too.
    const untouched = [...checked].filter((id) => !third.changed.has(id) && !third.removed.has(id));
    expect(untouched.filter((id) => first.changed.has(id)).length).toBeGreaterThan(40);
    expect([...first.removed].filter((id) => untouched.includes(id))).toHaveLength(first.removed.size);
    expect(untouched.filter((id) => afterReset.get(id) !== seeded.get(id))).toEqual([]);
    expect(mock.violations).toEqual([]);
  }

  it("each demo property answers fresh bytes after changes before an answer is kept, once kept, reset", async () => {
    expect(demoIds.length).toBeGreaterThan(300);
    await scenario({ validateResponses: false, checked: (ids) => ids });
  });

  it("with validateResponses, on a sample of 100 properties and every changed one", async () => {
    await scenario({
      validateResponses: true,
      checked: (ids) => ids.filter((_, index) => index % Math.floor(ids.length / 100) === 3).slice(0, 100),
    });
  });

  // Every answer kept first; then three in four of the demo properties among the first 240 edited, each dropping
  // its kept answer while GETs of all of them are under way; then the rest edited too.
  // Checked through the demo account's GETs (the second account's properties only answer it a 404): every one of
  // its answers, edited or neither, is its fresh bytes, and an answer kept beside the dropped ones stays as it was.
  // Through the API alone, so in process; the scenarios above, which write raw records too, listen.
  it("answers kept beside many dropped ones are still byte for byte, and while GETs run", async () => {
    const mock = inProcess();
    await expectAllCurrent(mock, demoIds);
    const front = new Set(db.properties.slice(0, 240).map((property) => property.id));
    const edited = demoIds.filter((id, index) => front.has(id) && index % 4 !== 0);
    const rest = demoIds.filter((id) => !edited.includes(id));
    expect(edited.length).toBeGreaterThan(120);
    const edit = (round: string) => async (id: number) =>
      expectStatus(
        mock.send("PUT", `/api/v1/object/property/${id}`, { title: `Moved ${round} ${id} \u00b0` }),
        200,
        `edit ${id}`,
      );
    // The edits, with GETs of every demo property running beside them: each of those answers either the seeded
    // bytes or the edited ones (each property is edited once), checked once the edits are done.
    const during = new Map<number, string>();
    await Promise.all([
      inParallel(edited, 8, edit("one")),
      inParallel(
        demoIds,
        8,
        async (id) => void during.set(id, (await mock.send("GET", `/api/v1/object/property/${id}`)).text),
      ),
    ]);
    const afterEdits = await expectAllCurrent(mock, demoIds);
    expect(demoIds.filter((id) => during.get(id) !== seeded.get(id) && during.get(id) !== afterEdits.get(id))).toEqual(
      [],
    );
    expect(edited.filter((id) => afterEdits.get(id) === seeded.get(id))).toEqual([]);
    expect(rest.filter((id) => afterEdits.get(id) !== seeded.get(id))).toEqual([]);
    await inParallel(rest, 8, edit("two"));
    const afterAll = await expectAllCurrent(mock, demoIds);
    expect(demoIds.filter((id) => afterAll.get(id) === seeded.get(id))).toEqual([]);
    expect(edited.filter((id) => afterAll.get(id) !== afterEdits.get(id))).toEqual([]);
  });
});

// --validate-responses remembers the kept answers that passed its check by identity (checked-answers.ts): a kept
// answer GET again is the same answer and is not checked again; an edited property's new answer is checked once.
describe("kept answers under --validate-responses", () => {
  it("are checked once each, not on every GET, and again once after a change", async () => {
    const contract = sharedContract();
    const checkedOperations: string[] = [];
    const counting = {
      ...contract,
      validateResponse: (response: Parameters<typeof contract.validateResponse>[0]) => {
        checkedOperations.push(`${response.method} ${response.path} ${response.status}`);
        return contract.validateResponse(response);
      },
    };
    const mock = createMockServer({ fixtures: seed(), validateResponses: true, contract: counting, log: () => {} });
    try {
      const { url } = await mock.listen(0, "127.0.0.1");
      const get = async (nid: number) => {
        const response = await fetch(`${url}/api/v1/object/property/${nid}`, {
          headers: { ...DEMO, "content-type": "application/json" },
        });
        const text = await response.text();
        expect(response.status, text).toBe(200);
        return text;
      };
      const checksOf = (nid: number) =>
        checkedOperations.filter((line) => line === `GET /api/v1/object/property/${nid} 200`).length;
      const first = await get(1001);
      for (let index = 0; index < 5; index++) expect(await get(1001)).toBe(first);
      expect(checksOf(1001)).toBe(1);
      await get(1005);
      await get(1005);
      expect(checksOf(1005)).toBe(1);
      const edit = await fetch(`${url}/api/v1/object/property/1001`, {
        method: "PUT",
        headers: { ...DEMO, "content-type": "application/json" },
        body: JSON.stringify({ title: "Checked again" }),
      });
      expect(edit.status).toBe(200);
      const edited = await get(1001);
      expect(edited).not.toBe(first);
      expect(await get(1001)).toBe(edited);
      expect(checksOf(1001)).toBe(2);
      expect(mock.violations).toEqual([]);
    } finally {
      await mock.close();
    }
  });
});

// The service alone, without HTTP: the answers kept stay under their bound in bytes, an answer past it is encoded
// each time, the same bytes, and a change makes room again.
describe("the answers kept, bounded in bytes", () => {
  it("never hold more than the bound, and answer the same bytes whether kept or encoded again", () => {
    const db = generateFixtures({ seed: 5, properties: 300 });
    const store = new MockStore(new SharedState(db), () => generateFixtures({ seed: 5, properties: 300 }));
    const limit = 20 * 1024;
    const retrievals = new EncodedRetrievals(store, "", limit);
    const ids = db.properties.map((property) => property.id);
    const first = new Map(ids.map((id) => [id, retrievals.answerFor(id)!.text()]));
    expect(retrievals.keptBytes).toBeGreaterThan(limit / 2);
    expect(retrievals.keptBytes).toBeLessThanOrEqual(limit);
    for (const id of ids)
      expect(retrievals.answerFor(id)!.text()).toBe(
        encode(store.record("properties", id)!, store.documentsOfProperty(id)),
      );
    for (const id of ids) expect(retrievals.answerFor(id)!.text()).toBe(first.get(id));
    expect(retrievals.keptBytes).toBeLessThanOrEqual(limit);
    // An answer past the bound is not kept, so that a kept one is never let go for it.
    const kept = retrievals.keptBytes;
    for (const id of ids) retrievals.answerFor(id);
    expect(retrievals.keptBytes).toBe(kept);
    // A change drops the answer it made stale; a reset drops them all.
    const id = ids.at(-1)!;
    store.update("properties", store.record("properties", id)!, { title: "Bounded" });
    expect(retrievals.answerFor(id)!.text()).toContain('"title":"Bounded"');
    store.reset();
    expect(retrievals.keptBytes).toBe(0);
    expect(retrievals.answerFor(id)!.text()).toBe(first.get(id));
  });
});
