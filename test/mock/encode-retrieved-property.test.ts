/**
 * A retrieved property is encoded without building its projection (src/mock/services/encode-retrieved-property.ts):
 * the answer must be byte for byte what the projection gives (`nid` and `uid` as strings first, then the record's
 * other fields in their order without `id`, `uid` and `published`, then `floorplans`), for every seeded property
 * over HTTP, and for records laid out in any order, with any text, where the shortcut does not apply.
 */
import fc from "fast-check";
import request from "supertest";
import { describe, expect, it } from "vitest";
import { createMockServer } from "../../src/hosts/node/create-mock-server.ts";
import { generateFixtures } from "../../src/fixtures/generate-fixtures.ts";
import { encodeRetrievedProperty } from "../../src/mock/services/encode-retrieved-property.ts";
import type { DocumentRecord, PropertyRecord } from "../../src/mock/store/records.ts";
import { sharedContract } from "../support/mock-harness.ts";

/**
 * The answer as the documents describe it, built here from the record alone: `nid` and `uid` as strings, the
 * record's other fields in its order (a field of its own named `nid` keeps the first place with its own value, as
 * an object literal's later member would), then `floorplans` from the property's floorplan documents.
 */
function expected(record: Record<string, unknown>, documents: readonly DocumentRecord[]): string {
  const answer: Record<string, unknown> = {};
  answer.nid = String(record.id);
  answer.uid = String(record.uid);
  for (const key of Object.keys(record))
    if (key !== "id" && key !== "uid" && key !== "published") answer[key] = record[key];
  const floorplans: Record<string, unknown> = {};
  for (const document of documents)
    if (document.is_floorplan)
      floorplans[String(document.id)] = {
        nid: String(document.id),
        title: document.title,
        floorplan_url: document.file_url,
      };
  answer.floorplans = floorplans;
  return JSON.stringify(answer);
}

describe("a retrieved property's bytes", () => {
  it("are the projection's for every seeded property, over HTTP", async () => {
    const db = generateFixtures({ seed: 7, properties: 120 });
    const mock = createMockServer({ fixtures: db, contract: sharedContract() });
    const account = db.accounts[0]!;
    const owned = db.properties.filter((property) => property.uid === account.id);
    expect(owned.length).toBeGreaterThan(20);
    let withFloorplans = 0;
    for (const property of owned) {
      const documents = db.documents.filter((document) => document.property_reference === property.id);
      if (documents.some((document) => document.is_floorplan)) withFloorplans += 1;
      const answer = await request(mock.app)
        .get(`/api/v1/object/property/${property.id}`)
        .set({ "API-KEY": account.apiKey, TOKEN: account.token, "content-type": "application/json" })
        .buffer(true)
        .parse((response, done) => {
          let text = "";
          response.on("data", (chunk: Buffer) => (text += chunk.toString("utf8")));
          response.on("end", () => done(null, text));
        });
      expect(answer.status).toBe(200);
      expect(answer.body).toBe(expected(property as unknown as Record<string, unknown>, documents));
    }
    expect(withFloorplans).toBeGreaterThan(0);
  });

  it("are the projection's for records of any layout and text", () => {
    const text = fc.oneof(
      fc.string(),
      fc.constantFrom(',"published":"1"}', '{"id":1,"uid":2,', "\u2028", "\ud800", '"', "\\"),
    );
    const value = fc.oneof(text, fc.integer(), fc.constant(null), fc.dictionary(fc.string(), text, { maxKeys: 3 }));
    const record = fc
      .record({
        id: fc.integer({ min: 1, max: 2 ** 40 }),
        uid: fc.integer({ min: 1, max: 1000 }),
        published: fc.oneof(fc.constantFrom("0", "1"), text),
        fields: fc.dictionary(
          fc.oneof(fc.string(), fc.constantFrom("nid", "floorplans", "title", "published2")),
          value,
          { maxKeys: 8 },
        ),
        order: fc.constantFrom("canonical", "published first", "id last", "shuffled"),
      })
      .map(({ id, uid, published, fields, order }) => {
        const entries: Array<[string, unknown]> = Object.entries(fields).filter(
          ([key]) => !["id", "uid", "published", "__proto__"].includes(key),
        );
        const layouts: Record<string, Array<[string, unknown]>> = {
          canonical: [["id", id], ["uid", uid], ...entries, ["published", published]],
          "published first": [["published", published], ["id", id], ["uid", uid], ...entries],
          "id last": [["uid", uid], ...entries, ["published", published], ["id", id]],
          shuffled: [["uid", uid], ["published", published], ...entries, ["id", id]],
        };
        return Object.fromEntries(layouts[order]!) as unknown as PropertyRecord;
      });
    const documents = fc.array(
      fc.record({ id: fc.integer({ min: 1, max: 10_000 }), is_floorplan: fc.boolean(), title: text, file_url: text }),
      { maxLength: 4 },
    );
    fc.assert(
      fc.property(record, documents, (property, docs) => {
        const typed = docs as unknown as DocumentRecord[];
        expect(encodeRetrievedProperty(property, typed)).toBe(
          expected(property as unknown as Record<string, unknown>, typed),
        );
      }),
      { numRuns: 500 },
    );
  });
});
