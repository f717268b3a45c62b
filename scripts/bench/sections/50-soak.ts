/**
 * 5. Soak: `--soak` requests (1,000,000 by default) that each leave something behind if nothing bounds it, to
 * the bin on the default fixtures: edits of a property (each answers a new auto-login token) alternating with
 * retrieves under a new API-KEY (each opens a new account until the mock holds `--max-accounts` of them, 10,000 by
 * default; later new keys answer 401). Resident memory is read after each tenth; growth is the last reading over
 * the first (taken after the first tenth, once the process is warm). Goal 5.
 */
import { DEFAULT_FIXTURES_PATH } from "../../../src/hosts/node/state/load-fixtures.ts";
import { DEFAULT_MAX_ACCOUNTS } from "../../../src/mock/services/account-service.ts";
import { bytes, count, percent, perSecond, table } from "../format.ts";
import { startServer } from "../processes.ts";
import { API, type Scenario, type Step } from "../scenarios.ts";
import type { BenchSection } from "../section.ts";
import { mockBin } from "../servers.ts";

export interface SoakFigures {
  requests: number;
  /** Resident set size after each tenth of the soak, in bytes. */
  rssBytes: number[];
  growthPercent: number;
  requestsPerSecond: number;
  /** Accounts the mock holds at the end (the fixtures' and those the new keys opened). */
  accounts: number;
}

const TENTHS = 10;

/** How many accounts the mock holds, from the raw records' total count. */
async function heldAccounts(url: string): Promise<number> {
  const response = await fetch(`${url}/__db/accounts?_limit=1`);
  const total = Number(response.headers.get("x-total-count"));
  if (response.status !== 200 || !Number.isInteger(total)) throw new Error(`GET /__db/accounts answered ${response.status} without X-Total-Count`);
  return total;
}
const NID = 1001; // a property of the demo account in fixtures/db.json

export const section: BenchSection<SoakFigures> = {
  key: "soak",
  async run({ settings, progress, load }) {
    const failures: string[] = [];
    const server = await startServer(mockBin({ fixtures: DEFAULT_FIXTURES_PATH }));
    try {
      const perTenth = Math.max(2, Math.ceil(settings.soakRequests / TENTHS));
      const rssBytes: number[] = [];
      let wallMs = 0;
      let sent = 0;
      for (let tenth = 0; tenth < TENTHS; tenth++) {
        progress(`soak: ${count(sent)} of ${count(perTenth * TENTHS)} requests…`);
        const jobs: Step[][] = Array.from({ length: perTenth }, (_, index) => {
          const n = tenth * perTenth + index;
          return [
            n % 2 === 0
              ? { method: "PUT", path: `${API}/property/${NID}`, body: JSON.stringify({ title: `Soak ${n}` }), expect: 200 }
              : // 200 while accounts can be opened, 401 once the bound is reached; the bound is checked below.
                { method: "GET", path: `${API}/agent_cards`, headers: { "API-KEY": `soak-key-${n}`, TOKEN: "soak-token", "content-type": "application/json" }, expect: [200, 401] },
          ];
        });
        const scenario: Scenario = { name: "soak", unit: "request", credentials: "demo", warmup: 0, jobs, storeProperties: 0, validateResponses: false };
        const run = await load.run(server.url, scenario);
        failures.push(...run.failureSamples);
        wallMs += run.wallMs;
        sent += perTenth;
        rssBytes.push(server.rssBytes());
      }
      const growthPercent = (rssBytes.at(-1)! / rssBytes[0]! - 1) * 100;
      const accounts = await heldAccounts(server.url);
      const newKeys = Math.floor(sent / 2);
      if (accounts > DEFAULT_MAX_ACCOUNTS) failures.push(`soak: the mock holds ${accounts} accounts, more than its bound of ${DEFAULT_MAX_ACCOUNTS}`);
      if (accounts < Math.min(DEFAULT_MAX_ACCOUNTS, newKeys)) failures.push(`soak: ${newKeys} new keys opened only ${accounts} accounts`);
      const figures: SoakFigures = { requests: sent, rssBytes, growthPercent, requestsPerSecond: sent / (wallMs / 1000), accounts };
      const lines = [
        `5. Soak: ${count(sent)} requests to the bin (default fixtures), half edits of one property (each a new auto-login token),`,
        `half retrieves under a new API-KEY each (each a new account up to the bound of ${count(DEFAULT_MAX_ACCOUNTS)}, then 401), at ${perSecond(figures.requestsPerSecond)} req/s;`,
        `${count(accounts)} accounts held at the end, for ${count(newKeys)} new keys`,
        "",
        ...table(["after", "resident memory"], rssBytes.map((value, index) => [`${count((index + 1) * perTenth)} requests`, bytes(value)]), "lr"),
        "",
        `Resident memory grew ${percent(growthPercent)} from the first tenth to the end.`,
      ];
      return {
        figures,
        lines,
        goals: [{ id: "5", name: `resident memory over a soak of ${count(sent)} requests (new tokens, new accounts)`, measured: `${growthPercent >= 0 ? "+" : ""}${percent(growthPercent)}`, target: "≤ +10.0 %", pass: growthPercent <= 10 }],
        failures,
      };
    } finally {
      await server.stop();
    }
  },
};
