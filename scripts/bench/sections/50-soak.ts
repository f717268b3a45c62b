/**
 * 5. Soak: `--soak` requests (1,000,000 by default) that each leave something behind if nothing bounds it, to
 * the bin on the default fixtures: edits of a property (each answers a new auto-login token) alternating with
 * retrieves under a new API-KEY (each opens a new account until the mock holds `--max-accounts` of them, 10,000 by
 * default; later new keys answer 401). Goal 5.
 *
 * Resident memory is read every {@link SAMPLE_MS} ms while the requests run. A single reading lands anywhere on the
 * saw of V8's collections, with nothing held (docs/performance.md), so growth is taken from the mean and the
 * highest of the readings: what a leak raises is both, what the process holds on the whole and the peak a
 * container's limit meets. (Not the lowest: one reading just after V8 gave pages back sits far under its
 * neighbours.) They are compared between the soak's last two tenths and its second and third: the first tenth
 * warms the process and fills the accounts up to their bound, and two tenths hold enough of the saw's teeth for
 * their highest reading to be a peak and their mean to be steady.
 */
import { DEFAULT_FIXTURES_PATH } from "../../../src/hosts/node/state/load-fixtures.ts";
import { DEFAULT_MAX_ACCOUNTS } from "../../../src/mock/services/account-service.ts";
import { bytes, count, percent, perSecond, table } from "../format.ts";
import { API, type Scenario, type Step } from "../scenarios.ts";
import type { BenchSection } from "../section.ts";
import { mockBin } from "../servers.ts";

export interface SoakFigures {
  requests: number;
  /** Resident set size after each tenth of the soak, in bytes. */
  rssBytes: number[];
  /** The lowest, the mean and the highest resident set size read during each tenth, in bytes. */
  rssLowBytes: number[];
  rssMeanBytes: number[];
  rssHighBytes: number[];
  /** The larger of the mean's and the peak's growth, in percent: goal 5's figure. */
  growthPercent: number;
  meanGrowthPercent: number;
  peakGrowthPercent: number;
  requestsPerSecond: number;
  /** Accounts the mock holds at the end (the fixtures' and those the new keys opened). */
  accounts: number;
}

const TENTHS = 10;
/** The tenths compared: the base (after the first, which warms up) and the end. */
const BASE_TENTHS = [1, 2];
const END_TENTHS = [8, 9];
/** How often resident memory is read while the requests run. */
const SAMPLE_MS = 50;

/** How many accounts the mock holds, from the raw records' total count. */
async function heldAccounts(url: string): Promise<number> {
  const response = await fetch(`${url}/__db/accounts?_limit=1`);
  const total = Number(response.headers.get("x-total-count"));
  if (response.status !== 200 || !Number.isInteger(total))
    throw new Error(`GET /__db/accounts answered ${response.status} without X-Total-Count`);
  return total;
}
const NID = 1001; // a property of the demo account in fixtures/db.json

function mean(values: number[]): number {
  return values.reduce((sum, value) => sum + value, 0) / values.length;
}

function signed(value: number): string {
  return `${value >= 0 ? "+" : ""}${percent(value)}`;
}

export const section: BenchSection<SoakFigures> = {
  key: "soak",
  async run({ settings, progress, load, servers }) {
    const failures: string[] = [];
    const server = await servers.start(mockBin({ fixtures: DEFAULT_FIXTURES_PATH }));
    try {
      const perTenth = Math.max(2, Math.ceil(settings.soakRequests / TENTHS));
      // Each tenth's readings, its last taken at the tenth's end.
      const readingsByTenth: number[][] = [];
      let wallMs = 0;
      let sent = 0;
      for (let tenth = 0; tenth < TENTHS; tenth++) {
        progress(`soak: ${count(sent)} of ${count(perTenth * TENTHS)} requests…`);
        const jobs: Step[][] = Array.from({ length: perTenth }, (_, index) => {
          const n = tenth * perTenth + index;
          return [
            n % 2 === 0
              ? {
                  method: "PUT",
                  path: `${API}/property/${NID}`,
                  body: JSON.stringify({ title: `Soak ${n}` }),
                  expect: 200,
                }
              : // 200 while accounts can be opened, 401 once the bound is reached; the bound is checked below.
                {
                  method: "GET",
                  path: `${API}/agent_cards`,
                  headers: { "API-KEY": `soak-key-${n}`, TOKEN: "soak-token", "content-type": "application/json" },
                  expect: [200, 401],
                },
          ];
        });
        const scenario: Scenario = {
          name: "soak",
          unit: "request",
          credentials: "demo",
          warmup: 0,
          jobs,
          storeProperties: 0,
          validateResponses: false,
        };
        // The load client is a process of its own, so this one is free to read while the requests run.
        const readings: number[] = [];
        const sampler = setInterval(() => readings.push(server.rssBytes()), SAMPLE_MS);
        let run;
        try {
          run = await load.run(server.url, scenario);
        } finally {
          clearInterval(sampler);
        }
        readings.push(server.rssBytes());
        failures.push(...run.failureSamples);
        wallMs += run.wallMs;
        sent += perTenth;
        readingsByTenth.push(readings);
      }
      const rssBytes = readingsByTenth.map((readings) => readings.at(-1)!);
      const rssLowBytes = readingsByTenth.map((readings) => Math.min(...readings));
      const rssMeanBytes = readingsByTenth.map(mean);
      const rssHighBytes = readingsByTenth.map((readings) => Math.max(...readings));
      const growth = (of: (readings: number[]) => number) => {
        const window = (tenths: number[]) => of(tenths.flatMap((tenth) => readingsByTenth[tenth] ?? []));
        return (window(END_TENTHS) / window(BASE_TENTHS) - 1) * 100;
      };
      const meanGrowthPercent = growth(mean);
      const peakGrowthPercent = growth((readings) => Math.max(...readings));
      const growthPercent = Math.max(meanGrowthPercent, peakGrowthPercent);
      const accounts = await heldAccounts(server.url);
      const newKeys = Math.floor(sent / 2);
      if (accounts > DEFAULT_MAX_ACCOUNTS)
        failures.push(`soak: the mock holds ${accounts} accounts, more than its bound of ${DEFAULT_MAX_ACCOUNTS}`);
      if (accounts < Math.min(DEFAULT_MAX_ACCOUNTS, newKeys))
        failures.push(`soak: ${newKeys} new keys opened only ${accounts} accounts`);
      const figures: SoakFigures = {
        requests: sent,
        rssBytes,
        rssLowBytes,
        rssMeanBytes,
        rssHighBytes,
        growthPercent,
        meanGrowthPercent,
        peakGrowthPercent,
        requestsPerSecond: sent / (wallMs / 1000),
        accounts,
      };
      const lines = [
        `5. Soak: ${count(sent)} requests to the bin (default fixtures), half edits of one property (each a ` +
          `new auto-login token),`,
        `half retrieves under a new API-KEY each (each a new account up to the bound of ` +
          `${count(DEFAULT_MAX_ACCOUNTS)}, then 401), at ${perSecond(figures.requestsPerSecond)} req/s;`,
        `${count(accounts)} accounts held at the end, for ${count(newKeys)} new keys`,
        "",
        `resident memory read every ${SAMPLE_MS} ms while the requests ran: each tenth's lowest, mean and ` +
          `highest, and the reading at its end`,
        "",
        ...table(
          ["tenth", "lowest", "mean", "highest", "at its end"],
          rssBytes.map((value, index) => [
            `to ${count((index + 1) * perTenth)} requests`,
            bytes(rssLowBytes[index]!),
            bytes(rssMeanBytes[index]!),
            bytes(rssHighBytes[index]!),
            bytes(value),
          ]),
          "lrrrr",
        ),
        "",
        `From the second and third tenths to the last two, the mean reading grew ${signed(meanGrowthPercent)}` +
          ` and the highest ${signed(peakGrowthPercent)}`,
        "(the first tenth warms the process and opens accounts up to their bound).",
      ];
      return {
        figures,
        lines,
        goals: [
          {
            id: "5",
            name: `resident memory over a soak of ${count(sent)} requests (new tokens, new accounts), mean and peak`,
            measured: signed(growthPercent),
            target: "≤ +10.0 %",
            pass: growthPercent <= 10,
          },
        ],
        failures,
      };
    } finally {
      await server.stop();
    }
  },
};
