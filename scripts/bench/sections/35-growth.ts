/**
 * How the mock's memory grows with its store (issue 32, item 5): the bin started on seeded fixtures of each size
 * of `--growth-sizes` (30, 10,000, 100,000 and 300,000 properties by default), as a process, one at a time. For
 * each: resident memory once quiet after start, and once quiet again after a GET of every one of account 1's
 * properties (so what it keeps of answers asked for counts); then the bytes each property adds over the smallest
 * store, beside the JSON size of one property (its record, and its share of the fixtures file with its documents).
 */
import { createWriteStream } from "node:fs";
import { join } from "node:path";
import { once } from "node:events";
import { FIXTURE_ACCOUNTS, generateFixtures } from "../../../src/fixtures/generate-fixtures.ts";
import type { Database } from "../../../src/mock/store/records.ts";
import { stateLines } from "../../../src/mock/store/state-lines.ts";
import { bytes, count, ms, table } from "../format.ts";
import { settled } from "../processes.ts";
import { API, type Scenario } from "../scenarios.ts";
import type { BenchSection } from "../section.ts";
import { mockBin, mockIdleWorkAfterMs } from "../servers.ts";
import { statSync } from "node:fs";

export interface GrowthPoint {
  properties: number;
  fixturesFileBytes: number;
  /** Mean UTF-8 size of one property record's JSON. */
  propertyJsonBytes: number;
  startupMs: number;
  rssSettledBytes: number;
  /** Once quiet after a GET of every property of account 1 (80 % of the store). */
  rssAfterGetsBytes: number;
  /** The larger of the two, less the smallest store's, per property more than it has; null for the smallest. */
  bytesPerProperty: number | null;
}

export interface GrowthFigures {
  points: GrowthPoint[];
}

export const section: BenchSection<GrowthFigures> = {
  key: "growth",
  async run(context) {
    const { settings, progress, load } = context;
    const failures: string[] = [];
    const sizes = [...new Set(settings.growthSizes)].sort((a, b) => a - b);
    const points: GrowthPoint[] = [];
    for (const size of sizes) {
      progress(`growth: ${count(size)} properties: fixtures, then the bin…`);
      const shared = size === settings.properties;
      const fixtures = shared ? context.largeFixtures() : generateFixtures({ seed: settings.seed, properties: size });
      const file = shared
        ? context.largeFixturesFile()
        : await writeFixtures(join(context.scratch, `growth-${size}.jsonl`), fixtures);
      const propertyJsonBytes =
        fixtures.properties.reduce((sum, property) => sum + Buffer.byteLength(JSON.stringify(property)), 0) / size;
      const ids = fixtures.properties
        .filter((property) => property.uid === FIXTURE_ACCOUNTS[0]!.id)
        .map((property) => property.id);
      const server = await context.servers.start(mockBin({ fixtures: file }), 300_000);
      try {
        await settled(server, 300_000, mockIdleWorkAfterMs(settings, size));
        const rssSettledBytes = server.rssBytes();
        progress(`growth: ${count(size)} properties: a GET of each of account 1's ${count(ids.length)}…`);
        const run = await load.run(server.url, everyProperty(ids, size));
        failures.push(...run.failureSamples);
        await settled(server, 300_000, mockIdleWorkAfterMs(settings, size));
        points.push({
          properties: size,
          fixturesFileBytes: statSync(file).size,
          propertyJsonBytes,
          startupMs: server.startupMs,
          rssSettledBytes,
          rssAfterGetsBytes: server.rssBytes(),
          bytesPerProperty: null,
        });
      } finally {
        await server.stop();
      }
    }
    const base = points[0];
    for (const point of points.slice(1)) {
      const most = Math.max(point.rssSettledBytes, point.rssAfterGetsBytes);
      point.bytesPerProperty =
        (most - Math.max(base!.rssSettledBytes, base!.rssAfterGetsBytes)) / (point.properties - base!.properties);
    }
    const lines = [
      "2b. Memory growth with the store: the bin on seeded fixtures of each size, one at a time; bytes per " +
        "property over the smallest store",
      "",
      ...table(
        [
          "properties",
          "fixtures file",
          "file / property",
          "one property's JSON",
          "start-up",
          "RSS quiet after start",
          "RSS after a GET of each",
          "bytes / property",
          "× its JSON",
        ],
        points.map((point) => [
          count(point.properties),
          bytes(point.fixturesFileBytes),
          bytes(point.fixturesFileBytes / point.properties),
          bytes(point.propertyJsonBytes),
          ms(point.startupMs),
          bytes(point.rssSettledBytes),
          bytes(point.rssAfterGetsBytes),
          point.bytesPerProperty === null ? "" : `${count(point.bytesPerProperty)} B`,
          point.bytesPerProperty === null ? "" : `${(point.bytesPerProperty / point.propertyJsonBytes).toFixed(2)}×`,
        ]),
        "rrrrrrrrr",
      ),
    ];
    return { figures: { points }, lines, failures };
  },
};

/** One GET of each given property, in a seeded order that is not the store's (as clients ask). */
function everyProperty(ids: readonly number[], storeProperties: number): Scenario {
  const order = ids.map((_, index) => ids[(index * 7919) % ids.length]!);
  return {
    name: "a GET of each property",
    unit: "request",
    credentials: "demo",
    warmup: 0,
    jobs: order.map((id) => [{ method: "GET", path: `${API}/property/${id}`, expect: 200 }]),
    storeProperties,
    validateResponses: false,
  };
}

/** The fixtures in JSON Lines (the mock reads a large state so), written a few hundred records at a time. */
async function writeFixtures(path: string, fixtures: Database): Promise<string> {
  const out = createWriteStream(path);
  let chunk = "";
  let lines = 0;
  for (const line of stateLines(fixtures)) {
    chunk += line;
    if (++lines % 500 === 0) {
      if (!out.write(chunk)) await once(out, "drain");
      chunk = "";
    }
  }
  out.end(chunk);
  await once(out, "finish");
  return path;
}
