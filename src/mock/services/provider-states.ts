import type { Contract } from "../../contract/build-contract.ts";
import { demoCredentialsOf, PROVIDER_STATES } from "../../contract/usage/provider-state-names.ts";
import type { components } from "../../generated/openapi.ts";
import type { Services } from "../operation-handlers.ts";
import { failure, success, type Outcome } from "../problems.ts";
import type { MockStore } from "../store/mock-store.ts";
import type { AccountRecord } from "../store/records.ts";

type Schemas = components["schemas"];

/** The ids a set-up made, by the keys the pact refers to them as (`${property_1017}`). */
export type InjectedValues = Record<string, string>;

/** What {@link ProviderStates} works with: the contract (to check what it sends the services) and the services. */
export interface ProviderStatesDeps {
  contract: Contract;
  services: Services;
  store: MockStore;
  /** The mock back to its seeded state: what a teardown does. */
  reset: () => Outcome<void>;
}

/** How many seats a set-up fills at most: more is a configuration no test needs. */
export const MAX_SEATS_FILLED = 1_000;
const KEY = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;
const ROLE = /^[A-Za-z0-9_-]{1,40}$/;
const MAX_FIELDS = 200;
/** Passes of leaving out refused fields before a body is given up on. */
const MAX_PASSES = 50;

const PROPERTY_DEFAULTS = { street: "1 Provider State Road", city: "Springfield", state: "IL", zip: "62701" };
const DOCUMENT_DEFAULTS = {
  title: "Provider state document",
  file_url: "https://files.example.com/provider-state.pdf",
};

/**
 * Pact's provider states, made on the mock (`POST /__admin/provider-states`): the names a pact written from a
 * usage uses (contract/usage/provider-state-names.ts), each record made through the services as a client's create
 * (and edit) would make it, from the fields the state gives, so that every rule of the service holds for it. A
 * field the create or edit would refuse is left out rather than refusing the state: the pact matches the answers
 * by type, and the mock gives every field a value. A teardown puts the mock back to its seeded state, so each
 * interaction a verifier sends starts from the same records.
 */
export class ProviderStates {
  readonly #deps: ProviderStatesDeps;
  #changed = false;
  /** Numbers the emails of the agent cards a state makes without one, so that the same states give the same records. */
  #agentsMade = 0;

  constructor(deps: ProviderStatesDeps) {
    this.#deps = deps;
  }

  /**
   * Sets a state up; the ids it made, by key; or why not (an unknown state, params it cannot use), nothing kept.
   * The verifier calls with no state's name for an interaction that has none: nothing to make.
   */
  setUp(state: string, params: Record<string, unknown>): Outcome<InjectedValues> {
    if (state === "") return success({});
    if (!(Object.values(PROVIDER_STATES) as string[]).includes(state)) return unknownState(state);
    const role = params.account ?? "primary";
    if (typeof role !== "string" || !ROLE.test(role))
      return refuse(
        "params/account must be an account role of the usage (primary, other, …): letters, digits, - and _, " +
          "at most 40.",
      );
    const key = params.key;
    const needsKey = state !== PROVIDER_STATES.seatsFull;
    if (needsKey && (typeof key !== "string" || !KEY.test(key)))
      return refuse("params/key must name the value to answer: a letter or _, then letters, digits or _, at most 64.");
    const fields = params.fields ?? {};
    if (!isPlainObject(fields) || Object.keys(fields).length > MAX_FIELDS)
      return refuse(`params/fields must be an object of at most ${MAX_FIELDS} fields.`);
    const account = this.#account(role);
    if (!account.ok) return account;
    // A state refused half-way (a document's property made, the document not) is undone by the teardown all the same.
    this.#changed = true;
    return this.#make(state, account.value, key as string, fields, params.property);
  }

  /** After an interaction: the mock back to its seeded state, once for all the states the interaction had. */
  tearDown(): Outcome<void> {
    if (!this.#changed) return success(undefined);
    const done = this.#deps.reset();
    if (done.ok) this.#changed = false;
    return done;
  }

  #make(
    state: string,
    account: AccountRecord,
    key: string,
    fields: Record<string, unknown>,
    property: unknown,
  ): Outcome<InjectedValues> {
    switch (state) {
      case PROVIDER_STATES.accountUid:
        return success({ [key]: String(account.id) });
      case PROVIDER_STATES.seatsFull:
        return this.#fillSeats(account);
      case PROVIDER_STATES.property: {
        const made = this.#property(account, fields);
        return made.ok ? success({ [key]: made.value }) : made;
      }
      case PROVIDER_STATES.agent: {
        const made = this.#agent(account, fields);
        return made.ok ? success({ [key]: made.value }) : made;
      }
      case PROVIDER_STATES.document: {
        if (property !== undefined && (!isPlainObject(property) || Object.keys(property).length > MAX_FIELDS))
          return refuse(`params/property must be an object of at most ${MAX_FIELDS} fields.`);
        const home = this.#property(account, property ?? {});
        if (!home.ok) return home;
        const body = this.#valid(
          "POST",
          "/api/v1/object/document/",
          { ...fields, property_reference: Number(home.value) },
          account,
          { ...DOCUMENT_DEFAULTS, property_reference: Number(home.value) },
        );
        if (!body) return cannotMake("document");
        const made = this.#deps.services.documents.create(account, body as Schemas["DocumentCreate"]);
        return made.ok ? success({ [key]: String(made.value.nid), [`${key}_property`]: home.value }) : made;
      }
      default:
        return unknownState(state);
    }
  }

  /**
   * A property made as a client would: a create with the fields it takes, then an edit with the other string fields.
   */
  #property(account: AccountRecord, fields: Record<string, unknown>): Outcome<string> {
    const { properties } = this.#deps.services;
    const given = { ...fields };
    if (
      typeof given.square_feet === "string" &&
      given["square feet"] === undefined &&
      /^[0-9]{1,9}$/.test(given.square_feet)
    )
      given["square feet"] = Number(given.square_feet);
    const create = this.#valid("POST", "/api/v1/object/property", given, account, PROPERTY_DEFAULTS);
    if (!create) return cannotMake("property");
    // External ids are the account's own keys: a property that holds this one already is the property asked for.
    if (typeof create.external_id === "string") {
      const held = this.#deps.store.propertyIdByExternalId(account.id, create.external_id);
      if (held !== undefined) return success(String(held));
    }
    const made = properties.create(account, create as Schemas["PropertyCreate"]);
    if (!made.ok) return made;
    const nid = made.value.nid;
    const rest = Object.fromEntries(
      Object.entries(given).filter(
        ([name, value]) => typeof value === "string" && !(name in create) && name !== "external_id",
      ),
    );
    if (Object.keys(rest).length > 0) {
      const edit = this.#valid("PUT", `/api/v1/object/property/${nid}`, rest, account, {});
      if (edit && Object.keys(edit).length > 0) properties.edit(account, Number(nid), edit);
    }
    return success(nid);
  }

  /** An agent card: the one of the account with this email when there is one (emails are unique), else a new one. */
  #agent(account: AccountRecord, fields: Record<string, unknown>): Outcome<string> {
    const { agents } = this.#deps.services;
    const listed = agents.list(account);
    const email = typeof fields.email === "string" ? fields.email.toLowerCase() : undefined;
    if (listed.ok && email !== undefined) {
      // The mock compares emails without regard to case (docs/assumptions.md).
      const held = Object.values(listed.value as Record<string, { email: string; nid: string }>).find(
        (entry) => entry.email.toLowerCase() === email,
      );
      if (held) return success(String(held.nid));
    }
    const defaults = {
      agent_first_name: "Provider",
      agent_last_name: "State",
      email: `provider-state-${account.id}-${(this.#agentsMade += 1)}@agents.example.com`,
    };
    const body = this.#valid("POST", "/api/v1/object/agent_card/", fields, account, defaults);
    if (!body) return cannotMake("agent card");
    const made = agents.create(account, body as Schemas["AgentCardCreate"]);
    return made.ok ? success(String(made.value.nid)) : made;
  }

  /** Agent cards added until the account has no seat left (section 8's refusal is what a test of it needs). */
  #fillSeats(account: AccountRecord): Outcome<InjectedValues> {
    const { agents } = this.#deps.services;
    for (let seat = 1; seat <= MAX_SEATS_FILLED + 1; seat += 1) {
      const made = agents.create(account, {
        agent_first_name: "Seat",
        agent_last_name: `Filler ${seat}`,
        email: `seat-filler-${seat}@agents.example.com`,
      });
      if (!made.ok && made.failure.problem === "notEnoughAgentSeats") return success({});
      if (!made.ok && made.failure.problem !== "agentAlreadyExists") return made;
    }
    return refuse(`The account has more than ${MAX_SEATS_FILLED} agent seats; this mock fills at most that many.`);
  }

  /**
   * The body an operation takes, from the fields given and its `defaults` (which stand in for a required field
   * missing or refused): a refused field is left out, or its default put back, one pass per field named. Undefined
   * when no valid body comes of it: the services are only ever given what the contract accepts.
   */
  #valid(
    method: string,
    path: string,
    fields: Record<string, unknown>,
    account: AccountRecord,
    defaults: Record<string, unknown>,
  ): Record<string, unknown> | undefined {
    const { contract } = this.#deps;
    const headers = { "content-type": "application/json", "api-key": account.apiKey, token: account.token };
    const current: Record<string, unknown> = { ...defaults, ...fields };
    for (let pass = 0; pass < MAX_PASSES; pass += 1) {
      const result = contract.validateRequest({ method, path, headers, body: current });
      if (result.valid) return current;
      const offending = new Set(
        result.errors
          .filter((error) => error.part === "body")
          .map((error) => topField(error.pointer, error.message, current))
          .filter((name): name is string => name !== undefined),
      );
      let changed = false;
      for (const name of offending) {
        if (!Object.hasOwn(defaults, name)) {
          delete current[name];
          changed = true;
        } else if (current[name] !== defaults[name]) {
          current[name] = defaults[name];
          changed = true;
        }
      }
      if (!changed) return undefined;
    }
    return undefined;
  }

  /** The account a role stands for: the mock's demo credentials of the same role, as the pact sends them. */
  #account(role: string): Outcome<AccountRecord> {
    const credentials = demoCredentialsOf(role);
    const opened = this.#deps.services.accounts.authenticate(credentials.apiKey, credentials.token);
    return opened.ok
      ? opened
      : refuse(
          `The demo account of the role ${role} (${credentials.apiKey}) does not open on this mock: ` +
            `${opened.failure.detail}`,
        );
  }
}

/**
 * The top-level field an error is about: its pointer's first token, or the extra field `additionalProperties` names.
 */
function topField(pointer: string, message: string, body: Record<string, unknown>): string | undefined {
  const token = pointer.split("/")[1];
  if (token !== undefined && token !== "") {
    const name = token.replace(/~1/g, "/").replace(/~0/g, "~");
    return Object.hasOwn(body, name) ? name : undefined;
  }
  return Object.keys(body).find(
    (name) => message.includes(`'${name}'`) || message.includes(`"${name}"`) || message.includes(` ${name}`),
  );
}

function cannotMake(what: string): Outcome<never> {
  return refuse(
    `No ${what} the service accepts comes of params/fields, even with defaults for the fields it requires.`,
  );
}

function unknownState(state: string): Outcome<never> {
  return refuse(
    `${JSON.stringify(state.slice(0, 200))} is not a provider state this mock sets up; it knows ${Object.values(
      PROVIDER_STATES,
    )
      .map((name) => JSON.stringify(name))
      .join(", ")} (docs/pact.md).`,
  );
}

function refuse(detail: string): Outcome<never> {
  return failure("invalidProviderState", detail);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
