/** The HTTP scenarios: which requests a job sends, chosen from the fixtures with a seeded generator. */
import { FIXTURE_ACCOUNTS } from "../../src/fixtures/generate-fixtures.ts";
import type { Database } from "../../src/mock/store/records.ts";
import { count } from "./format.ts";
import type { BenchSettings } from "./settings.ts";
import { createPrng, pick } from "./stats.ts";

/** One HTTP request of a job; `{nid}` in the path is the `nid` answered by the job's previous request. */
export interface Step {
  method: "GET" | "POST" | "PUT" | "DELETE";
  path: string;
  /** The JSON body, already serialised. */
  body?: string;
  /** Headers of this step instead of the scenario's credentials (a new account, for instance). */
  headers?: Record<string, string>;
  /** The status the step must answer, or the statuses it may answer. */
  expect: number | readonly number[];
}

/** What the load client runs: `jobs` (the first `warmup` of them unmeasured), each a sequence of steps. */
export interface Scenario {
  name: string;
  unit: "request" | "pair";
  /** Every connection sends the demo account's credentials, its own account's (opened on first use), or none. */
  credentials: "demo" | "per-connection" | "none";
  warmup: number;
  jobs: Step[][];
  storeProperties: number;
  validateResponses: boolean;
  /** Connections for this scenario, when it differs from the run's setting. */
  concurrency?: number;
  note?: string;
}

export const API = "/api/v1/object";

/** Builds the scenarios' requests from the fixtures, with a seeded generator choosing ids. */
export class ScenarioPlan {
  readonly #fixtures: Database;
  readonly #settings: BenchSettings;

  constructor(fixtures: Database, settings: BenchSettings) {
    this.#fixtures = fixtures;
    this.#settings = settings;
  }

  /** Mixed reads to warm up both processes before the first figure; not reported. */
  warmUp(): Scenario {
    const nids = this.#ownProperties().map((property) => property.id);
    const measured = Math.min(2_000, this.#settings.requests);
    return this.#scenario("warm-up", measured, (index, random) => [
      index % 2 === 0
        ? { method: "GET", path: `${API}/property/${pick(nids, random)}`, expect: 200 }
        : { method: "GET", path: `${API}/template_base`, expect: 200 },
    ]);
  }

  retrieveByNid(measured = this.#settings.requests): Scenario {
    const nids = this.#ownProperties().map((property) => property.id);
    return this.#scenario("retrieve by nid", measured, (_, random) => [
      { method: "GET", path: `${API}/property/${pick(nids, random)}`, expect: 200 },
    ]);
  }

  retrieveByExternalId(): Scenario {
    const ids = this.#ownProperties().flatMap((property) =>
      property.external_id === null ? [] : [property.external_id],
    );
    return this.#scenario("retrieve by external id", this.#settings.requests, (_, random) => [
      { method: "GET", path: `${API}/external-property/${encodeURIComponent(pick(ids, random))}`, expect: 200 },
    ]);
  }

  /**
   * Account 1's whole list (80 % of the properties) on every request: O(n) by nature, so fewer requests, on two
   * connections, so the latency is the cost of one answer rather than of a queue of them.
   */
  listByUser(items: number): Scenario {
    const jobs = Math.max(5, Math.ceil(this.#settings.requests / 500));
    const scenario = this.#scenario("list by user (account 1)", jobs, () => [
      { method: "GET", path: `${API}/properties/1`, expect: 200 },
    ]);
    return { ...scenario, concurrency: 2, note: `${count(items)} items per response` };
  }

  templateCatalogue(): Scenario {
    return this.#scenario("template catalogue", this.#settings.requests, () => [
      { method: "GET", path: `${API}/template_base`, expect: 200 },
    ]);
  }

  createProperty(): Scenario {
    return this.#scenario("create property", this.#settings.requests, (index) => [
      { method: "POST", path: `${API}/property`, body: JSON.stringify(createPropertyBody(index)), expect: 200 },
    ]);
  }

  /**
   * Creates an agent and deletes it. Each connection uses an account of its own, opened on first use, so the ten
   * agent seats of an account are never exhausted by concurrent pairs.
   */
  createDeleteAgentPair(): Scenario {
    const pairs = Math.max(1, Math.floor(this.#settings.requests / 2));
    const scenario = this.#scenario("create+delete agent pair", pairs, (index) => [
      {
        method: "POST",
        path: `${API}/agent_card/`,
        body: JSON.stringify({
          agent_first_name: "Bench",
          agent_last_name: `Agent ${index}`,
          email: `bench.agent.${index}@bench.example`,
          phone: "(512) 555-0100",
        }),
        expect: 200,
      },
      { method: "DELETE", path: `${API}/agent_card/{nid}`, expect: 200 },
    ]);
    return { ...scenario, unit: "pair", credentials: "per-connection", note: "one account per connection" };
  }

  #ownProperties() {
    const own = this.#fixtures.properties.filter((property) => property.uid === FIXTURE_ACCOUNTS[0]!.id);
    if (own.length === 0) throw new Error("The fixtures give account 1 no property to retrieve.");
    return own;
  }

  /** `measured` jobs plus a tenth as many (at most 1,000) warm-up jobs before them. */
  #scenario(name: string, measured: number, job: (index: number, random: () => number) => Step[]): Scenario {
    const random = createPrng(this.#settings.seed);
    const warmup = Math.min(1_000, Math.ceil(measured / 10));
    return {
      name,
      unit: "request",
      credentials: "demo",
      warmup,
      jobs: Array.from({ length: warmup + measured }, (_, index) => job(index, random)),
      storeProperties: this.#fixtures.properties.length,
      validateResponses: false,
    };
  }
}

/** A valid create body (endpoint 3), different for each index. */
export function createPropertyBody(index: number): Record<string, unknown> {
  return {
    street: `${100 + index} Benchmark Avenue`,
    city: "Austin",
    state: "TX",
    zip: "78701",
    "square feet": 1_850,
    bedrooms: 3,
    baths: 2,
    list_price: 450_000 + index,
    garage: "Attached",
    stories: 2,
    property_type: "Single Family",
    year_built: 1998,
    template: "rubik_v2",
    description: "A bright family home close to the park, with a renovated kitchen and a large garden.",
  };
}

/** `jobs` identical requests (a tenth as many warm-up jobs before them, at most 1,000). */
export function repeatedRequest(name: string, step: Step, jobs: number, options: Partial<Scenario> = {}): Scenario {
  const warmup = Math.min(1_000, Math.ceil(jobs / 10));
  return {
    name,
    unit: "request",
    credentials: "demo",
    warmup,
    jobs: Array.from({ length: warmup + jobs }, () => [step]),
    storeProperties: 0,
    validateResponses: false,
    ...options,
  };
}
