/**
 * Rules of an answer that hold on every answer of its operation, not only in the step that first looks: the agent
 * list's keys are its values' nids and each agent of the run is listed under its own nid with its own email, a
 * deleted one not at all; a property list item of the run carries the title and external id its property answers; a
 * property of the run has no tours (the run adds none), so virtual_tours is an empty array (2.1); the auto-login
 * `uri` of a create or edit has the form of section 4.1. The run tells it what it learns (agents created and
 * deleted, properties retrieved), and every answer is held to what it knows.
 */
import { isDeepStrictEqual } from "node:util";
import type { CheckName } from "./checks.ts";
import type { Exchange } from "./http-exchange.ts";
import { show } from "./steps/step-support.ts";

/** One verdict on one answer. */
export interface InvariantResult {
  check: CheckName;
  passed: boolean;
  section: string;
  message: string;
}

type Json = Record<string, unknown>;
/**
 * A URL with its scheme and host in lower case and a default port left out, as URL parsing writes it; other text
 * unchanged.
 */
function normalised(url: string): string {
  try {
    return new URL(url).href;
  } catch {
    return url;
  }
}
const asObject = (value: unknown): Json | undefined =>
  value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Json) : undefined;

/** What the run knows of its own records, per account, and the rules every answer is held to. */
export class AnswerInvariants {
  readonly #agents = new Map<string, Map<string, { email: string; deleted: boolean }>>();
  readonly #properties = new Map<string, Map<string, { title: unknown; external_id: unknown }>>();
  readonly #publicBase: string;

  /** `publicBaseUrl`: the address clients reach the service at, which the auto-login uri starts with. */
  constructor(publicBaseUrl: string) {
    this.#publicBase = normalised(publicBaseUrl).replace(/\/+$/, "");
  }

  /** Holds one answer (a 200 with valid credentials) to every rule of its operation, and learns from it. */
  observe(
    account: string,
    operationId: string,
    path: string,
    requestBody: unknown,
    exchange: Exchange,
  ): InvariantResult[] {
    if (exchange.status !== 200) return [];
    const body = exchange.body;
    const nidInPath = decodeURIComponent(path.split("/").pop() ?? "");
    const agents = this.#mapOf(this.#agents, account);
    const properties = this.#mapOf(this.#properties, account);
    const sent = asObject(requestBody);
    switch (operationId) {
      case "createAgentCard": {
        const nid = asObject(body)?.nid;
        if (typeof nid === "string" && typeof sent?.email === "string")
          agents.set(nid, { email: sent.email, deleted: false });
        return [];
      }
      case "retrieveAgentCard": {
        const email = asObject(body)?.email;
        const known = agents.get(nidInPath);
        if (known && typeof email === "string") known.email = email;
        return [];
      }
      case "deleteAgentCard": {
        const known = agents.get(nidInPath);
        if (known) known.deleted = true;
        return [];
      }
      case "listAgentCards":
        return this.#agentList(body, agents);
      case "createProperty": {
        const nid = asObject(body)?.nid;
        if (typeof nid === "string" && !properties.has(nid))
          properties.set(nid, { title: undefined, external_id: undefined });
        return this.#uri(body, "4.1");
      }
      case "editProperty":
        return this.#uri(body, "4.1");
      case "retrieveProperty":
      case "retrievePropertyByExternalId":
        return this.#property(body, properties);
      case "listUserProperties":
        return this.#propertyList(body, properties);
      default:
        return [];
    }
  }

  /**
   * A request on one of the run's records got no answer: whether it took effect is unknown, so the rules that
   * hold the record to what the run knows of it stop until an answer tells again (a delete that may or may not
   * have happened, an edit whose title may or may not show).
   */
  forget(account: string, operationId: string, path: string): void {
    const nid = decodeURIComponent(path.split("/").pop() ?? "");
    if (operationId === "deleteAgentCard" || operationId === "updateAgentCard")
      this.#mapOf(this.#agents, account).delete(nid);
    if (operationId === "editProperty" && this.#mapOf(this.#properties, account).has(nid))
      this.#mapOf(this.#properties, account).set(nid, { title: undefined, external_id: undefined });
  }

  #mapOf<T>(maps: Map<string, Map<string, T>>, account: string): Map<string, T> {
    let map = maps.get(account);
    if (!map) maps.set(account, (map = new Map()));
    return map;
  }

  #agentList(body: unknown, agents: Map<string, { email: string; deleted: boolean }>): InvariantResult[] {
    const list = asObject(body);
    if (!list) return [];
    const wrongKeys = Object.entries(list)
      .filter(([key, value]) => asObject(value) === undefined || String(asObject(value)!.nid) !== key)
      .map(([key, value]) => `key ${key} holds nid ${show(asObject(value)?.nid)}`);
    const results: InvariantResult[] = [
      {
        check: "list_consistency",
        passed: wrongKeys.length === 0,
        section: "4.2",
        message: `every key of the agent list must be its value's nid: ${wrongKeys.slice(0, 5).join("; ")}`,
      },
    ];
    const misplaced: string[] = [];
    const stillListed: string[] = [];
    for (const [nid, agent] of agents) {
      const entry = asObject(list[nid]);
      if (agent.deleted) {
        if (nid in list) stillListed.push(nid);
      } else if (entry !== undefined && entry.email !== agent.email) {
        misplaced.push(`key ${nid} holds email ${show(entry.email)}, the agent's is ${show(agent.email)}`);
      }
    }
    if (agents.size > 0) {
      results.push({
        check: "list_consistency",
        passed: misplaced.length === 0,
        section: "2.2",
        message: `the agent list holds the run's agents under other entries: ${misplaced.slice(0, 5).join("; ")}`,
      });
    }
    if ([...agents.values()].some((agent) => agent.deleted)) {
      results.push({
        check: "use_after_free",
        passed: stillListed.length === 0,
        section: "4.2",
        message: `deleted agents are still listed: ${stillListed.join(", ")}`,
      });
    }
    return results;
  }

  #property(body: unknown, properties: Map<string, { title: unknown; external_id: unknown }>): InvariantResult[] {
    const property = asObject(body);
    const nid = property?.nid;
    if (!property || typeof nid !== "string" || !properties.has(nid)) return [];
    properties.set(nid, { title: property.title, external_id: property.external_id });
    // The run adds no tours to its properties: "Empty array when there are none" (2.1).
    const tours = property.virtual_tours;
    return [
      {
        check: "documented_representation",
        passed: isDeepStrictEqual(tours, []),
        section: "2.1",
        message:
          `virtual_tours of property ${nid}, which has no tours, is ${show(tours)}: an empty array when there ` +
          `are none`,
      },
    ];
  }

  #propertyList(body: unknown, properties: Map<string, { title: unknown; external_id: unknown }>): InvariantResult[] {
    if (!Array.isArray(body)) return [];
    const wrong: string[] = [];
    for (const item of body) {
      const entry = asObject(item);
      const known = typeof entry?.nid === "string" ? properties.get(entry.nid) : undefined;
      if (!entry || !known || known.title === undefined) continue;
      if (!isDeepStrictEqual(entry.title, known.title))
        wrong.push(
          `property ${entry.nid as string}: title is ${show(entry.title)}, the property's is ${show(known.title)}`,
        );
      if (!isDeepStrictEqual(entry.external_id, known.external_id))
        wrong.push(
          `property ${entry.nid as string}: external_id is ${show(entry.external_id)}, the property's is ` +
            `${show(known.external_id)}`,
        );
      if (typeof entry.published !== "string")
        wrong.push(`property ${entry.nid as string}: published is ${show(entry.published)}, not a string`);
    }
    if (![...properties.values()].some((known) => known.title !== undefined)) return [];
    return [
      {
        check: "list_consistency",
        passed: wrong.length === 0,
        section: "2.1",
        message: `list items of the run's properties differ from the properties: ${wrong.slice(0, 5).join("; ")}`,
      },
    ];
  }

  /** Section 4.1: `{base_url}/<autologin_path>/<ACCESS_TOKEN>`: the base, then a path, then a token. */
  #uri(body: unknown, section: string): InvariantResult[] {
    const given = asObject(body)?.uri;
    if (typeof given !== "string") return [];
    const uri = normalised(given);
    const rest = uri.startsWith(`${this.#publicBase}/`)
      ? uri
          .slice(this.#publicBase.length + 1)
          .split(/[?#]/)[0]!
          .replace(/\/$/, "")
      : undefined;
    const segments = rest === undefined ? [] : rest.split("/");
    const passed = rest !== undefined && segments.length >= 2 && segments.every((segment) => segment !== "");
    return [
      {
        check: "autologin_uri",
        passed,
        section,
        message:
          rest === undefined
            ? `uri ${show(given)} does not start with the service's base address ${this.#publicBase}/ (give ` +
              `--public-base-url if clients reach the service at another address)`
            : `uri ${show(given)} is not {base_url}/<autologin_path>/<ACCESS_TOKEN>: after the base it holds ` +
              `${show(rest)}`,
      },
    ];
  }
}
