/**
 * A state file scanned rather than parsed (src/mock/store/scan-state-text.ts, load-fixtures.ts): what the scan
 * finds is what `JSON.parse` of the whole text gives, whatever the size of the pieces the text is read in; what it
 * does not expect it gives up on, and such a file is read, or refused, exactly as `JSON.parse` reads it.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { generateFixtures } from "../../src/fixtures/generate-fixtures.ts";
import { DEFAULT_FIXTURES_PATH, loadFixtures } from "../../src/mock/load-fixtures.ts";
import { readScannedState, scannedDatabase } from "../../src/mock/store/read-scanned-state.ts";
import { propertySourceOf } from "../../src/mock/store/lazy-properties.ts";
import type { PropertyRecord } from "../../src/mock/store/records.ts";
import { scanStateText } from "../../src/mock/store/scan-state-text.ts";
import { tinyFixtures } from "../support/tiny-fixtures.ts";

const directory = mkdtempSync(join(tmpdir(), "plk-scan-"));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

const encoder = new TextEncoder();

/** The largest nid of a record's tours (an object) and videos (an object or an array), as mock-store.ts counts them. */
function nestedId(record: PropertyRecord): number {
  let max = 0;
  const count = (value: unknown) => {
    if (value === null || typeof value !== "object") return;
    for (const key of Object.keys(value)) {
      const nid = (value as Record<string, { nid?: unknown } | null>)[key]?.nid;
      if (Number.isSafeInteger(nid) && (nid as number) > max && (nid as number) < 2 ** 52) max = nid as number;
    }
  };
  if (!Array.isArray(record.virtual_tours)) count(record.virtual_tours);
  count(record.property_videos);
  return max;
}

/** Scans a text in pieces of `pieceBytes` and checks everything found against `JSON.parse` of it. */
function expectSameAsParse(text: string, pieceBytes: number): void {
  const scanned = scanStateText(encoder.encode(text), pieceBytes);
  expect(scanned, "the scan takes the text").toBeDefined();
  const parsed = JSON.parse(text) as { properties: PropertyRecord[] };
  const { properties } = scanned!;
  expect(properties.count).toBe(parsed.properties.length);
  parsed.properties.forEach((record, index) => {
    expect(properties.id[index]).toBe(record.id);
    expect(properties.uid[index]).toBe(record.uid);
    expect(properties.externalId[index]).toBe(record.external_id ?? undefined);
    expect(properties.nestedId[index], `nested nids of ${record.id}`).toBe(nestedId(record));
  });
  const database = scannedDatabase(scanned!);
  expect(propertySourceOf(database!), "the properties are held as text").toBeDefined();
  // Every member, in its order, the properties built from their texts.
  expect(JSON.stringify(database)).toBe(JSON.stringify(parsed));
}

describe("the scan of a state's text", () => {
  const generated = JSON.stringify(generateFixtures({ seed: 7, properties: 600 }));

  it.each([1 << 25, 65_536, 4_096, 997, 50])("finds what JSON.parse does, read in pieces of %i bytes", (pieceBytes) => {
    expectSameAsParse(generated, pieceBytes);
  });

  it("reads the shipped fixtures, written over many lines, and a state with other members around the collections", () => {
    expectSameAsParse(readFileSync(DEFAULT_FIXTURES_PATH, "utf8"), 1_000);
    const { accounts, properties, agents, documents } = tinyFixtures();
    expectSameAsParse(JSON.stringify({ note: "first", documents, properties, agents, accounts, $meta: { seq: 3 } }, null, 2), 333);
  });

  it("finds nested nids as JSON.parse reads them: the last of each object, numbers in any form, only positive integers", () => {
    const record = (tours: string, videos: string) =>
      `{"accounts":[],"agents":[],"documents":[],"properties":[{"id":1001,"uid":1,"title":"x","virtual_tours":${tours},"property_videos":${videos},"published":"1"}]}`;
    for (const [tours, videos] of [
      ['{"a":{"nid":2001},"b":{"nid":2005,"nid":"2009"}}', '{"v":{"nid":1.5e3}}'],
      ['[{"nid":9999}]', '[{"nid":3001},{"nid":-4},{"nid":2e20},null,7]'],
      ['{"a":null,"b":[],"c":{"nid":0}}', '"none"'],
      ["{}", '{"x":{"y":{"nid":8000}},"z":{"nid":12345678901234567}}'],
    ]) {
      expectSameAsParse(record(tours!, videos!), 40);
    }
  });

  it.each([
    ["a text that is not an object", "[]"],
    ["no properties", '{"accounts":[],"agents":[],"documents":[]}'],
    ["properties that are not an array", '{"accounts":[],"properties":{},"agents":[],"documents":[]}'],
    ["a property that is not an object", '{"accounts":[],"properties":[1],"agents":[],"documents":[]}'],
    ["a property whose first members are not its id and uid", '{"accounts":[],"properties":[{"uid":1,"id":1001}],"agents":[],"documents":[]}'],
    ["an id that is not a plain integer", '{"accounts":[],"properties":[{"id":1001.0,"uid":1}],"agents":[],"documents":[]}'],
    ["an id written twice", '{"accounts":[],"properties":[{"id":1001,"uid":1,"id":1002}],"agents":[],"documents":[]}'],
    ["an external id that is not a string", '{"accounts":[],"properties":[{"id":1001,"uid":1,"external_id":5}],"agents":[],"documents":[]}'],
    ["a member named __proto__", '{"__proto__":[],"accounts":[],"properties":[],"agents":[],"documents":[]}'],
    ["invalid JSON inside a property", '{"accounts":[],"properties":[{"id":1001,"uid":1,"title":tru}],"agents":[],"documents":[]}'],
    ["a raw line break in a string", '{"accounts":[],"properties":[{"id":1001,"uid":1,"title":"a\nb"}],"agents":[],"documents":[]}'],
    ["an unknown escape", '{"accounts":[],"properties":[{"id":1001,"uid":1,"title":"\\x41"}],"agents":[],"documents":[]}'],
    ["a number with a leading zero", '{"accounts":[],"properties":[{"id":1001,"uid":1,"lot":01}],"agents":[],"documents":[]}'],
    ["a byte order mark", '\ufeff{"accounts":[],"properties":[],"agents":[],"documents":[]}'],
    ["text after the state", '{"accounts":[],"properties":[],"agents":[],"documents":[]} x'],
    ["a state cut short", '{"accounts":[],"properties":[{"id":1001,"uid":1,"title":"x"}'],
  ])("gives up on %s", (_, text) => {
    for (const pieceBytes of [1 << 20, 7]) expect(scanStateText(encoder.encode(text), pieceBytes)).toBeUndefined();
  });

  it("leaves a file it gives up on to JSON.parse: read as before, or refused with JSON.parse's own message", () => {
    const odd = join(directory, "odd.json");
    const oddState = { ...tinyFixtures(), properties: tinyFixtures().properties.map(({ id, uid, ...rest }) => ({ uid, id, ...rest })) };
    writeFileSync(odd, JSON.stringify(oddState));
    expect(readScannedState(odd)).toBeUndefined();
    expect(JSON.stringify(loadFixtures(odd))).toBe(JSON.stringify(oddState));

    for (const text of ['{"accounts":[],"properties":[{"id":1001,"uid":1,"title":tru}],"agents":[],"documents":[]}', '{"accounts":[]', "\ufeff{}", ""]) {
      const broken = join(directory, "broken.json");
      writeFileSync(broken, text);
      let expected = "";
      try {
        JSON.parse(text);
      } catch (error) {
        expected = (error as Error).message;
      }
      expect(() => loadFixtures(broken)).toThrow(`Cannot read fixtures from ${broken}: ${expected}`);
    }
  });

  it("reads a file in pieces: every property of a large state, its other members parsed", () => {
    const file = join(directory, "large.json");
    writeFileSync(file, generated);
    const database = readScannedState(file);
    expect(JSON.stringify(database)).toBe(generated);
  });
});
