import type { components } from "../../generated/openapi.ts";
import { failure, foreign, success, type Outcome } from "../problems.ts";
import type { MockStore } from "../store/mock-store.ts";
import { projectAgent } from "../store/project-records.ts";
import type { AccountRecord, AgentRecord } from "../store/records.ts";
import { ownedBy } from "./owned-by.ts";

type Schemas = components["schemas"];

/** Where an agent's website and headshot point when the create body gives none. */
export const AGENT_PLACEHOLDER_BASE = "https://agents.property-listing.example";

/**
 * What the mock stores for each optional field of an agent the create body does not set. A service profile's
 * `unset.agent` shows a field that still holds it as the profiled service shows a field never set.
 */
export function agentDefaults(
  id: number,
): Pick<
  AgentRecord,
  | "phone"
  | "company"
  | "professional_title"
  | "license"
  | "website"
  | "social_media_links"
  | "card_type"
  | "agency_profile"
  | "headshot_url"
  | "notes"
> {
  return {
    phone: "",
    company: "",
    professional_title: "",
    license: null,
    website: `${AGENT_PLACEHOLDER_BASE}/${id}`,
    social_media_links: [],
    card_type: "agent",
    agency_profile: "0",
    headshot_url: `${AGENT_PLACEHOLDER_BASE}/${id}/headshot.jpg`,
    notes: null,
  };
}

/**
 * Agent cards (section 4.2, endpoints 6 to 10) and their two rules (section 7): an email belongs to one agent
 * of the account (compared without regard to case), and an account has a limited number of agent seats.
 * Every rule is checked and applied in one synchronous step, so concurrent requests cannot both pass it.
 */
export class AgentService {
  readonly #store: MockStore;
  readonly #neverSet: Record<string, unknown>;

  /**
   * @param options.neverSet what to store, instead of the defaults of {@link agentDefaults}, for fields a create
   *   does not set: null or empty, as a service profile says the service shows them (section 2.2 is silent).
   */
  constructor(store: MockStore, options: { neverSet?: Record<string, null | "" | unknown[]> } = {}) {
    this.#store = store;
    this.#neverSet = options.neverSet ?? {};
  }

  /** Endpoint 6. */
  retrieve(account: AccountRecord, nid: number): Outcome<Schemas["AgentCard"]> {
    const agent = this.#own(account, nid);
    return agent
      ? success(projectAgent(agent))
      : foreign(notFound(nid), this.#store.record("agents", nid) !== undefined);
  }

  /** Endpoint 7. A duplicate email is reported before a full account. */
  create(account: AccountRecord, body: Schemas["AgentCardCreate"]): Outcome<Schemas["StringNidResult"]> {
    const store = this.#store;
    if (store.agentByEmail(account.id, body.email)) return emailTaken(body.email);
    if (store.agentCountOf(account.id) >= account.agentSeats) {
      return failure(
        "notEnoughAgentSeats",
        `All ${account.agentSeats} agent seats of this account are taken; purchase more seats before adding an agent.`,
      );
    }
    const id = store.nextId();
    const defaults = { ...agentDefaults(id), ...this.#neverSet } as ReturnType<typeof agentDefaults>;
    const agent: AgentRecord = {
      id,
      uid: account.id,
      name: body.name ?? `${body.agent_first_name} ${body.agent_last_name}`,
      agent_first_name: body.agent_first_name,
      agent_last_name: body.agent_last_name,
      email: body.email,
      phone: body.phone ?? defaults.phone,
      company: body.company ?? defaults.company,
      professional_title: body.professional_title ?? defaults.professional_title,
      license: body.license ?? defaults.license,
      website: body.website ?? defaults.website,
      social_media_links: body.social_media_links ?? defaults.social_media_links,
      card_type: body.card_type ?? defaults.card_type,
      agency_profile: body.agency_profile ?? defaults.agency_profile,
      headshot_url: body.headshot_url ?? defaults.headshot_url,
      notes: body.notes ?? defaults.notes,
    };
    store.add("agents", agent);
    return success({ nid: String(id) });
  }

  /** Endpoint 8. Changing the first or last name without a `name` renames the card. */
  update(account: AccountRecord, nid: number, body: Schemas["AgentCardUpdate"]): Outcome<Schemas["StringNidResult"]> {
    const agent = this.#own(account, nid);
    if (!agent) return foreign(notFound(nid), this.#store.record("agents", nid) !== undefined);
    if (body.email !== undefined) {
      const holder = this.#store.agentByEmail(account.id, body.email);
      if (holder && holder.id !== agent.id) return emailTaken(body.email);
    }
    const changes: Partial<AgentRecord> = { ...body };
    if (body.name === undefined && (body.agent_first_name !== undefined || body.agent_last_name !== undefined)) {
      const first = body.agent_first_name ?? agent.agent_first_name;
      changes.name = `${first} ${body.agent_last_name ?? agent.agent_last_name}`;
    }
    this.#store.update("agents", agent, changes);
    return success({ nid: String(agent.id) });
  }

  /** Endpoint 9. The seat and the email become free. */
  remove(account: AccountRecord, nid: number): Outcome<Schemas["DeleteResult"]> {
    const agent = this.#own(account, nid);
    if (!agent) return foreign(notFound(nid), this.#store.record("agents", nid) !== undefined);
    this.#store.remove("agents", agent);
    return success([true]);
  }

  /** Endpoint 10: the account's agents keyed by nid. */
  list(account: AccountRecord): Outcome<Schemas["AgentCardList"]> {
    const list: Record<string, Schemas["AgentCardListEntry"]> = {};
    for (const agent of this.#store.agentsOf(account.id))
      list[String(agent.id)] = { email: agent.email, nid: String(agent.id) };
    return success(list);
  }

  #own(account: AccountRecord, nid: number): AgentRecord | undefined {
    return ownedBy(this.#store.record("agents", nid), account);
  }
}

function notFound(nid: number): Outcome<never> {
  return failure("notFound", `No agent card with nid ${nid} for this account.`);
}

function emailTaken(email: string): Outcome<never> {
  return failure("agentAlreadyExists", `An agent with the email ${email} already exists.`);
}
