/**
 * A fixtures file is scanned and its properties held once, as their encoded answers (src/mock/store/property-table.ts):
 * the record is read back from the answer's bytes when something needs it. Changed only through the API (/__db
 * builds every property as an object), every answer, list and record read back stays byte for byte right, and at
 * the end /__db, which builds them all, serves the very records the answers were made from.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { generateFixtures } from "../../src/fixtures/generate-fixtures.ts";
import { createMockServer, type MockServer } from "../../src/hosts/node/create-mock-server.ts";
import { encodeRetrievedParts } from "../../src/mock/store/encode-retrieved-property.ts";
import { difference, freshAnswer as encode } from "../support/fresh-answer.ts";
import type { PropertyRecord } from "../../src/mock/store/records.ts";
import { withMembers } from "../../src/mock/with-members.ts";
import { sharedContract } from "../support/mock-harness.ts";
import { DEMO } from "../support/tiny-fixtures.ts";
import { until } from "../support/until.ts";


describe("properties held as their answers (fixtures from a file)", () => {
  const PROPERTIES = 3000;
  const db = generateFixtures({ seed: 41, properties: PROPERTIES });
  const directory = mkdtempSync(join(tmpdir(), "plk-held-"));
  const file = join(directory, "fixtures.json");
  writeFileSync(file, JSON.stringify(db));
  const demoIds = db.properties.filter((property) => property.uid === 1).map((property) => property.id);
  const headers = { ...DEMO, "content-type": "application/json" };
  const started: MockServer[] = [];

  afterEach(async () => {
    await Promise.all(started.splice(0).map((mock) => mock.close()));
  });
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  async function send(url: string, method: string, path: string, body?: unknown): Promise<{ status: number; text: string }> {
    const response = await fetch(`${url}${path}`, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    return { status: response.status, text: await response.text() };
  }

  /** Whether the store still holds its properties as text and answers (nothing read them as an array). */
  const heldAsText = (mock: MockServer) => Object.getOwnPropertyDescriptor(mock.store.state, "properties")?.get !== undefined;

  /** Every property's GET, by nid and by external id, against the record read back from the store, without keeping it. */
  async function expectAnswersOfRecords(mock: MockServer, url: string, ids: readonly number[]): Promise<void> {
    const mismatches: string[] = [];
    for (const id of ids) {
      const answer = await send(url, "GET", `/api/v1/object/property/${id}`);
      const record = mock.store.peekProperty(id);
      if (!record) {
        if (answer.status !== 404) mismatches.push(`${id}: ${answer.status} for a property that is not there`);
        continue;
      }
      const expected = encode(record, mock.store.documentsOfProperty(id));
      if (answer.text !== expected) mismatches.push(`${id}: ${answer.status} ${difference(answer.text, expected)}`);
      if (record.external_id) {
        const byExternalId = await send(url, "GET", `/api/v1/object/external-property/${encodeURIComponent(record.external_id)}`);
        if (byExternalId.text !== expected) mismatches.push(`${id} by external id: ${difference(byExternalId.text, expected)}`);
      }
    }
    expect(mismatches.slice(0, 5), `${mismatches.length} wrong answers`).toEqual([]);
  }

  it("answers, lists and records stay right through edits, documents, creates and a reset, and /__db serves the same records", async () => {
    const mock = createMockServer({ fixtures: file, contract: sharedContract(), validateResponses: true, log: () => {} });
    started.push(mock);
    const { url } = await mock.listen(0, "127.0.0.1");
    // Right away, while the answers are encoded ahead of time: edits, external ids, floorplans, a create.
    const edited = demoIds.filter((_, index) => index % 7 === 0);
    await Promise.all(
      edited.map(async (id, index) => {
        const body = index % 3 === 0 ? { title: `Caf\u00e9 "${id}" \u2028 \ud83c\udfe1`, bedrooms: "9" } : index % 3 === 1 ? { external_id: `moved-${id}` } : { external_id: "" };
        expect((await send(url, "PUT", `/api/v1/object/property/${id}`, body)).status).toBe(200);
      }),
    );
    const planned = demoIds.filter((_, index) => index % 11 === 3);
    for (const id of planned) {
      const created = await send(url, "POST", "/api/v1/object/document/", { title: `Plan of ${id}`, property_reference: id, file_url: `https://files.property-listing.example/${id}.pdf`, is_floorplan: true });
      expect(created.status, created.text).toBe(200);
    }
    const plans = planned.flatMap((id) => mock.store.documentsOfProperty(id).filter((document) => document.is_floorplan));
    for (const [index, plan] of plans.slice(0, 20).entries()) {
      const change = index % 2 === 0 ? { is_floorplan: false } : { property_reference: demoIds[demoIds.length - 1 - index], title: "Moved plan" };
      expect((await send(url, "PUT", `/api/v1/object/document/${plan.id}`, change)).status).toBe(200);
    }
    const created = await send(url, "POST", "/api/v1/object/property", { street: "1 New St", city: "Austin", state: "TX", zip: "78701", external_id: "brand-new" });
    expect(created.status, created.text).toBe(200);
    const newId = Number((JSON.parse(created.text) as { nid: string }).nid);

    await expectAnswersOfRecords(mock, url, [...demoIds, newId]);
    // The list of the demo account, item by item from the records read back.
    const list = await send(url, "GET", "/api/v1/object/properties/1");
    const items = (JSON.parse(list.text) as Array<{ nid: string; title: string; external_id: string | null }>).map((item) => [Number(item.nid), item.title, item.external_id]);
    expect(items).toEqual([...demoIds, newId].map((id) => [id, mock.store.peekProperty(id)!.title, mock.store.peekProperty(id)!.external_id]));
    // No property was built as an object to keep: the state still holds them as text.
    expect(heldAsText(mock)).toBe(true);

    // /__db builds them all as objects: the records it serves are the ones the answers were made from.
    const raw = await fetch(`${url}/__db/properties`);
    const records = (await raw.json()) as PropertyRecord[];
    expect(heldAsText(mock)).toBe(false);
    const seededById = new Map(db.properties.map((record) => [record.id, record]));
    const changed = new Set([...edited, newId]);
    for (const record of records) {
      if (!changed.has(record.id)) expect(JSON.stringify(record), `${record.id} as seeded`).toBe(JSON.stringify(seededById.get(record.id)));
    }
    expect(records.map((record) => record.id)).toEqual([...db.properties.map((record) => record.id), newId]);
    await expectAnswersOfRecords(mock, url, demoIds.slice(0, 300));

    // A reset reads the file again: the seeded answers, the properties held as text again.
    expect((await send(url, "POST", "/__admin/reset")).status).toBe(200);
    expect(heldAsText(mock)).toBe(true);
    for (const id of [...edited.slice(0, 50), ...planned.slice(0, 20)]) {
      const record = seededById.get(id)!;
      const answer = await send(url, "GET", `/api/v1/object/property/${id}`);
      expect(answer.text).toBe(encode(record, db.documents.filter((document) => document.property_reference === id)));
    }
    expect((await send(url, "GET", `/api/v1/object/property/${newId}`)).status).toBe(404);
    expect(mock.violations).toEqual([]);
  });

  it("a service profile's extra members are on every answer, and records read back never take them", async () => {
    const mock = createMockServer({ fixtures: file, contract: sharedContract(), log: () => {} });
    started.push(mock);
    // The extra members as the store's encoder splices them in (a profile's propertyExtra, encoded-retrievals.ts).
    mock.store.encodeAnswersWith((record, documents) => {
      const parts = encodeRetrievedParts(record, documents);
      return { ...parts, text: withMembers(parts.text, '"title":"extra","zzz":[1]') };
    });
    const { url } = await mock.listen(0, "127.0.0.1");
    const id = demoIds[5]!;
    const answer = JSON.parse((await send(url, "GET", `/api/v1/object/property/${id}`)).text) as Record<string, unknown>;
    expect(answer.zzz).toEqual([1]);
    const record = mock.store.peekProperty(id)!;
    expect(JSON.stringify(record)).toBe(JSON.stringify(db.properties.find((property) => property.id === id)));
  });

  it("a --db snapshot written from the texts and answers holds the same state, and a restart reads it back", async () => {
    const dbFile = join(directory, "state", "db.json");
    // Compacted after every change: the snapshots are written from the properties' answers and texts.
    let compactions = 0;
    const compacted: Array<{ count: number; resolve: () => void }> = [];
    const log = (line: string) => {
      if (!line.startsWith("Compacted")) return;
      compactions += 1;
      for (const waiter of compacted.filter((waiter) => compactions >= waiter.count)) waiter.resolve();
    };
    /** Resolves once `count` compactions in all have ended. */
    const compactionsEnded = (count: number) => (compactions >= count ? Promise.resolve() : new Promise<void>((resolve) => compacted.push({ count, resolve })));
    const first = createMockServer({ fixtures: file, db: dbFile, dbCompactAfter: 1, contract: sharedContract(), log });
    started.push(first);
    const { url } = await first.listen(0, "127.0.0.1");
    // Listening encodes every answer ahead of its first GET: the snapshots read them back.
    await until(() => db.properties.every((property) => first.store.hasPropertyAnswer(property.id)), "every property's answer encoded");
    for (const id of demoIds.slice(0, 30)) {
      const before = compactions;
      expect((await send(url, "PUT", `/api/v1/object/property/${id}`, { title: `Saved ${id}` })).status).toBe(200);
      await compactionsEnded(before + 1); // each change is followed by a compaction (it outgrows one byte)
    }
    expect(Object.getOwnPropertyDescriptor(first.store.state, "properties")?.get, "still held as text").toBeDefined();
    await first.close();
    // A compaction wrote a snapshot holding the edits (read back from answers) beside the seeded texts.
    expect(readFileSync(dbFile, "utf8")).toContain(`Saved ${demoIds[0]}`);
    const before = JSON.stringify(first.store.state);
    started.splice(0);
    const second = createMockServer({ fixtures: file, db: dbFile, contract: sharedContract(), log: () => {} });
    started.push(second);
    expect(JSON.stringify(second.store.state)).toBe(before);
  });
});
