/**
 * The states the mock ships for common set-ups of a test, each built from the seed the mock starts
 * with (its fixtures, with any configured accounts): plain data in, plain data out, no file and no host, so that
 * every host the mock runs in (a Node server, a container, MSW in a browser) can apply them. The first account
 * of the seed is "the demo account" (`demo-key` / `demo-token` with the shipped fixtures); the other accounts
 * keep their records, so a test of isolation between accounts still has a neighbour.
 */
import type { AgentRecord, Database, PropertyRecord } from "./records.ts";

/** A shipped state: what it is for, and how it is made from the seed. */
export interface NamedState {
  description: string;
  build: (seed: Database) => Database;
}

/** How many properties the demo account holds in `many-properties`. */
export const MANY_PROPERTIES = 1_000;

/**
 * The shipped states, by name, in the order `GET /__admin/state` lists them. A state is a choice of records, not
 * a rule: adding one is adding an entry here.
 */
export const NAMED_STATES: Readonly<Record<string, NamedState>> = {
  fixtures: {
    description:
      "The seed as the mock starts without --state: the fixtures (30 properties, 9 agent cards, 32 " +
      "documents, 2 accounts).",
    build: (seed) => seed,
  },
  "empty-account": {
    description:
      "The demo account holds nothing: no property, no agent card, no document (its seats all free). Other " +
      "accounts keep theirs.",
    build: (seed) => {
      const demo = demoUid(seed);
      return {
        ...seed,
        properties: seed.properties.filter((record) => record.uid !== demo),
        agents: seed.agents.filter((record) => record.uid !== demo),
        documents: seed.documents.filter((record) => record.uid !== demo),
      };
    },
  },
  "seats-full": {
    description:
      "Every agent seat of the demo account is taken: creating an agent card answers 402 Not Enough Agent Seats.",
    build: (seed) => {
      const demo = seed.accounts[0];
      if (!demo) return seed;
      const agents = [...seed.agents];
      const template = seed.agents.find((record) => record.uid === demo.id) ?? seed.agents[0] ?? PLAIN_AGENT;
      let nextId = nextNid(seed);
      for (let held = agents.filter((record) => record.uid === demo.id).length; held < demo.agentSeats; held += 1) {
        agents.push(seatFiller(template, nextId++, demo.id, held + 1));
      }
      return { ...seed, agents };
    },
  },
  "many-properties": {
    description:
      `The demo account holds ${withThousands(MANY_PROPERTIES)} properties (its own, then copies of them with ` +
      `new nids, subdomains and external ids), for long lists.`,
    build: (seed) => {
      const demo = demoUid(seed);
      const own = seed.properties.filter((record) => record.uid === demo);
      if (demo === undefined || own.length === 0) return seed;
      const properties = [...seed.properties];
      let nextId = nextNid(seed);
      for (let count = own.length, copy = 0; count < MANY_PROPERTIES; count += 1, copy += 1) {
        properties.push(propertyCopy(own[copy % own.length]!, nextId++, Math.floor(copy / own.length) + 1));
      }
      return { ...seed, properties };
    },
  },
};

/** The names of the shipped states, for help texts and refusals. */
export const STATE_NAMES: readonly string[] = Object.keys(NAMED_STATES);

/** The shipped state of this name, if there is one (`__proto__` and the like are none). */
export function namedState(name: string): NamedState | undefined {
  return Object.hasOwn(NAMED_STATES, name) ? NAMED_STATES[name] : undefined;
}

function demoUid(seed: Database): number | undefined {
  return seed.accounts[0]?.id;
}

/** The next nid after every record of the seed (nids are one sequence over properties, agents and documents). */
function nextNid(seed: Database): number {
  let max = 1000;
  for (const records of [seed.properties, seed.agents, seed.documents])
    for (const record of records) max = Math.max(max, record.id);
  for (const property of seed.properties) {
    for (const nested of [property.virtual_tours, property.property_videos] as unknown[]) {
      if (nested && typeof nested === "object")
        for (const item of Object.values(nested))
          max = Math.max(max, Number((item as { nid?: unknown } | null)?.nid) || 0);
    }
  }
  return max + 1;
}

/** A card that fills a seat: the template's fields, its own id, name and email (emails are unique, section 7). */
function seatFiller(template: AgentRecord, id: number, uid: number, seat: number): AgentRecord {
  const first = "Seat";
  const last = `Holder ${seat}`;
  const email = `seat-${seat}.${id}@seats-full.example`;
  return {
    ...structuredClone(template),
    id,
    uid,
    name: `${first} ${last}`,
    agent_first_name: first,
    agent_last_name: last,
    email,
  };
}

/** A copy of a property under a new nid: its own subdomain and site, an external id of its own, no tours or videos. */
function propertyCopy(source: PropertyRecord, id: number, round: number): PropertyRecord {
  const subdomain = `${(source.subdomain ?? "property").replace(/-[0-9]+$/, "")}-${id}`;
  return {
    ...structuredClone(source),
    id,
    title: `${source.title} (copy ${round})`,
    subdomain,
    website_url: `https://${subdomain}.sites.property-listing.example`,
    external_id: source.external_id ? `${source.external_id}-copy-${round}` : source.external_id,
    // As a property without them holds them (section 2.1: tours are an empty array when there are none).
    virtual_tours: [],
    property_videos: {},
  };
}

/** A card for a seed without one to copy. */
const PLAIN_AGENT: AgentRecord = {
  id: 0,
  uid: 0,
  name: "",
  agent_first_name: "",
  agent_last_name: "",
  email: "",
  phone: "(512) 555-0100",
  company: "Seats Full Realty",
  professional_title: "Agent",
  license: "TX-0000000",
  website: "https://seats-full.example",
  social_media_links: [],
  card_type: "agent",
  agency_profile: "0",
  headshot_url: "https://seats-full.example/headshot.jpg",
  notes: "",
};

/**
 * `1000` as `1,000`. Not `toLocaleString`: the first call sets up Intl's number formatting, work that every start
 * of the mock would pay for one description.
 */
function withThousands(value: number): string {
  return String(value).replace(/\B(?=(\d{3})+$)/g, ",");
}
