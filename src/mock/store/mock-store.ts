import { COLLECTIONS, type AccountRecord, type AgentRecord, type CollectionName, type Database, type DocumentRecord, type PropertyRecord } from "./records.ts";
import type { StateChange } from "./state-change.ts";

/** The first nid the sequence hands out on an empty state (seeded records start at 1001). */
const FIRST_NID = 1001;
/**
 * Ids from here up to 2^53-1 may be written raw but do not move the sequences: a record given the largest
 * exact id must not leave the sequence nowhere to go. Below this limit there are always 2^52 ids left, and the
 * sequences step over any id a raw record already holds.
 */
export const SEQUENCE_FEED_LIMIT = 2 ** 52;

/** A record of any collection, as the raw routes see it. */
export type StoredRecord = Database[CollectionName][number];

/** What holds the state: `SharedState` in the mock (json-server's lowdb instance, `router.db`, has the same shape). */
export interface StateHolder<State> {
  getState(): State;
  setState(state: State): unknown;
}

/**
 * The mock's state, held by a `StateHolder` (so `/__db` serves and edits the same records) and indexed so
 * that no lookup scans a collection: by id, by owner, by external id, by agent email, by property.
 * Every change goes through this class, which keeps the indexes right and tells its listeners.
 * Removing a record moves the last record of its array into its place, so the raw arrays under `/__db` are in
 * insertion order except where a record was removed; the API's lists follow the indexes, in insertion order.
 */
export class MockStore {
  readonly #db: StateHolder<Database>;
  readonly #seed: () => Database;
  readonly #listeners = new Set<(change: StateChange) => void>();
  readonly #resetListeners = new Set<() => void>();
  #accountsById = new Map<number, AccountRecord>();
  #accountsByKey = new Map<string, AccountRecord>();
  #properties = new Map<number, PropertyRecord>();
  #propertiesByOwner = new Map<number, Set<number>>();
  #propertiesByExternalId = new Map<string, number>();
  #agents = new Map<number, AgentRecord>();
  #agentsByOwner = new Map<number, Set<number>>();
  #agentsByEmail = new Map<string, number>();
  #documents = new Map<number, DocumentRecord>();
  #documentsByProperty = new Map<number, Set<number>>();
  /**
   * Where each record sits in its collection's array, so removing one does not search the array. Built on the
   * first removal or raw write after an index (most runs never remove; building it costs a start at 100,000
   * properties about a tenth of a second), then kept up to date.
   */
  #positionMap: Map<object, number> | undefined;
  #nextId = 1;
  #nextUid = 1;
  #version = 0;

  /**
   * @param db what holds the state to serve (`SharedState`), already holding it.
   * @param seed gives a fresh copy of the state `reset` restores.
   */
  constructor(db: StateHolder<Database>, seed: () => Database) {
    this.#db = db;
    this.#seed = seed;
    this.reindex();
  }

  /** The state object itself (`/__db` serves the same object). */
  get state(): Database {
    return this.#db.getState();
  }

  /**
   * How many changes the store has made. The HTTP layer compares it before and after an operation to know
   * whether the answer must wait until the change is saved.
   */
  get version(): number {
    return this.#version;
  }

  /** Calls `listener` after every change, with the change; returns the function that stops it. */
  onChange(listener: (change: StateChange) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /**
   * Puts the seeded state back, dropping every change and every account opened since. The nid and uid
   * sequences start again after the seed's highest ids, as at start-up: a test that resets and then runs the
   * same requests gets the same nids, the same bytes. A nid handed out before the reset may so come back for
   * another record; a client must not keep nids across a reset, as it keeps no records across one.
   */
  reset(): void {
    this.#db.setState(this.#seed());
    this.#nextId = 1;
    this.#nextUid = 1;
    this.reindex();
    for (const listener of this.#resetListeners) listener();
    this.#changed({ kind: "reset" });
  }

  /** Calls `listener` after every reset (what is derived from the state and kept beside it is dropped then). */
  onReset(listener: () => void): () => void {
    this.#resetListeners.add(listener);
    return () => this.#resetListeners.delete(listener);
  }

  /** Rebuilds every index from the collections. Runs at start-up, on reset, and on `refresh`. */
  reindex(): void {
    const state = this.state;
    for (const name of COLLECTIONS) state[name] ??= [];
    this.#accountsById = new Map();
    this.#accountsByKey = new Map();
    this.#properties = new Map();
    this.#propertiesByOwner = new Map();
    this.#propertiesByExternalId = new Map();
    this.#agents = new Map();
    this.#agentsByOwner = new Map();
    this.#agentsByEmail = new Map();
    this.#documents = new Map();
    this.#documentsByProperty = new Map();
    this.#positionMap = undefined;
    // Only the records' own ids and the nids of their nested tours and videos feed the sequences; ids beyond
    // 2^53-1 never reach the store (raw writes are validated), so the sequences stay exact integers.
    let maxId = FIRST_NID - 1;
    let maxUid = 0;
    for (const account of state.accounts) {
      this.#accountsById.set(account.id, account);
      this.#accountsByKey.set(account.apiKey, account);
      maxUid = largerId(maxUid, account.id);
    }
    for (const property of state.properties) {
      this.#indexProperty(property);
      maxId = largerNestedId(largerId(maxId, property.id), property);
    }
    for (const agent of state.agents) {
      this.#indexAgent(agent);
      maxId = largerId(maxId, agent.id);
    }
    for (const document of state.documents) {
      this.#indexDocument(document);
      maxId = largerId(maxId, document.id);
    }
    this.#nextId = Math.max(this.#nextId, maxId + 1);
    this.#nextUid = Math.max(this.#nextUid, maxUid + 1);
  }

  /** The records of a collection, in the order `/__db` lists them. */
  records(collection: CollectionName): readonly StoredRecord[] {
    return this.state[collection];
  }

  /** The record of a collection with this id (an account's id is its uid). */
  record(collection: CollectionName, id: number): StoredRecord | undefined {
    switch (collection) {
      case "accounts":
        return this.#accountsById.get(id);
      case "properties":
        return this.#properties.get(id);
      case "agents":
        return this.#agents.get(id);
      case "documents":
        return this.#documents.get(id);
    }
  }

  /**
   * A raw write (`/__db`): puts a record, already checked against its collection's stored shape, in place of
   * the record with its id (at its place in the array), or at the end. Skips every rule of the service; the
   * indexes and the sequences follow the record at once, without a scan of the state, so the services see it
   * from the next request on (an email it holds is taken, a property it moves changes owners).
   */
  putRaw(collection: CollectionName, record: StoredRecord): void {
    const records = this.state[collection] as StoredRecord[];
    const existing = this.record(collection, record.id);
    if (existing !== undefined) {
      const at = this.#positions().get(existing);
      if (at !== undefined && records[at] === existing) {
        records[at] = record;
        this.#positionMap?.delete(existing);
        this.#positionMap?.set(record, at);
      } else this.#append(records, record);
      this.#unindex(collection, existing, record);
    } else {
      this.#append(records, record);
    }
    this.#index(collection, record);
    if (collection === "accounts") this.#nextUid = Math.max(this.#nextUid, largerId(this.#nextUid - 1, record.id) + 1);
    else {
      const max = largerId(this.#nextId - 1, record.id);
      this.#nextId = Math.max(this.#nextId, (collection === "properties" ? largerNestedId(max, record as PropertyRecord) : max) + 1);
    }
    this.#changed({ kind: "put", collection, record });
  }

  /** A raw removal (`/__db`): removes the record and its index entries, without a scan of the state. */
  removeRaw(collection: CollectionName, record: StoredRecord): void {
    if (this.record(collection, record.id) !== record) return;
    this.#remove(this.state[collection] as StoredRecord[], record);
    this.#unindex(collection, record, undefined);
    this.#changed({ kind: "remove", collection, id: record.id });
  }

  /**
   * After a change made to the arrays behind this class's back (a program holding `state`; `/__db` writes go
   * through `putRaw` and `removeRaw`): rebuilds the indexes and tells the listeners of each record touched, as it
   * now is (or that it is gone).
   */
  refresh(touched: Array<{ collection: CollectionName; id: number }>): void {
    this.reindex();
    const seen = new Set<string>();
    for (const { collection, id } of touched) {
      const key = `${collection}/${id}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const record = (this.state[collection] as Array<{ id: number }>).find((candidate) => candidate.id === id);
      this.#changed(record ? { kind: "put", collection, record } : { kind: "remove", collection, id });
    }
  }

  /** The id sequences, to save beside the state. */
  sequences(): { nextId: number; nextUid: number } {
    return { nextId: this.#nextId, nextUid: this.#nextUid };
  }

  /**
   * Moves the id sequences forward to saved values, so that an id handed out before a restart is never handed
   * out again, even when its record is gone.
   */
  advanceSequences(saved: { nextId: number; nextUid: number }): void {
    // A saved value is taken only as a sequence could reach it, so a hand-edited file cannot make it inexact.
    this.#nextId = largerId(this.#nextId, saved.nextId);
    this.#nextUid = largerId(this.#nextUid, saved.nextUid);
  }

  /** A fresh uid for an account: larger than every uid below {@link SEQUENCE_FEED_LIMIT}, and free. */
  nextUid(): number {
    while (this.#accountsById.has(this.#nextUid)) this.#nextUid += 1;
    return exact(this.#nextUid++);
  }

  /**
   * A fresh nid: larger than every nid in use below {@link SEQUENCE_FEED_LIMIT}, and free. Properties, agents
   * and documents share one sequence, as nodes of one service do.
   */
  nextId(): number {
    while (this.#properties.has(this.#nextId) || this.#agents.has(this.#nextId) || this.#documents.has(this.#nextId)) this.#nextId += 1;
    return exact(this.#nextId++);
  }

  /** Record counts, for the health answer and the start-up banner. */
  counts(): Record<keyof Database, number> {
    const state = this.state;
    return {
      accounts: state.accounts.length,
      properties: state.properties.length,
      agents: state.agents.length,
      documents: state.documents.length,
    };
  }

  // Accounts

  accountByKey(apiKey: string): AccountRecord | undefined {
    return this.#accountsByKey.get(apiKey);
  }

  /** How many accounts there are. */
  accountCount(): number {
    return this.#accountsById.size;
  }

  /** Opens an account with the next free uid. */
  addAccount(fields: Omit<AccountRecord, "id">): AccountRecord {
    const account: AccountRecord = { id: this.nextUid(), ...fields };
    this.#append(this.state.accounts, account);
    this.#accountsById.set(account.id, account);
    this.#accountsByKey.set(account.apiKey, account);
    this.#changed({ kind: "put", collection: "accounts", record: account });
    return account;
  }

  // Properties

  property(id: number): PropertyRecord | undefined {
    return this.#properties.get(id);
  }

  propertiesOf(uid: number): PropertyRecord[] {
    return recordsOf(this.#propertiesByOwner.get(uid), this.#properties);
  }

  propertyByExternalId(uid: number, externalId: string): PropertyRecord | undefined {
    const id = this.#propertiesByExternalId.get(ownedKey(uid, externalId));
    return id === undefined ? undefined : this.#properties.get(id);
  }

  addProperty(property: PropertyRecord): PropertyRecord {
    this.#append(this.state.properties, property);
    this.#indexProperty(property);
    this.#changed({ kind: "put", collection: "properties", record: property });
    return property;
  }

  updateProperty(property: PropertyRecord, changes: Partial<PropertyRecord>): PropertyRecord {
    const relabelled = changes.external_id !== undefined && changes.external_id !== property.external_id;
    if (relabelled) this.#unindexExternalId(property);
    assignFields(property, changes);
    if (relabelled && property.external_id !== null) this.#propertiesByExternalId.set(ownedKey(property.uid, property.external_id), property.id);
    this.#changed({ kind: "put", collection: "properties", record: property });
    return property;
  }

  // Agents

  agent(id: number): AgentRecord | undefined {
    return this.#agents.get(id);
  }

  agentsOf(uid: number): AgentRecord[] {
    return recordsOf(this.#agentsByOwner.get(uid), this.#agents);
  }

  agentCountOf(uid: number): number {
    return this.#agentsByOwner.get(uid)?.size ?? 0;
  }

  /** The account's agent with this email, compared without regard to case. */
  agentByEmail(uid: number, email: string): AgentRecord | undefined {
    const id = this.#agentsByEmail.get(ownedKey(uid, email.toLowerCase()));
    return id === undefined ? undefined : this.#agents.get(id);
  }

  addAgent(agent: AgentRecord): AgentRecord {
    this.#append(this.state.agents, agent);
    this.#indexAgent(agent);
    this.#changed({ kind: "put", collection: "agents", record: agent });
    return agent;
  }

  updateAgent(agent: AgentRecord, changes: Partial<AgentRecord>): AgentRecord {
    this.#agentsByEmail.delete(ownedKey(agent.uid, agent.email.toLowerCase()));
    assignFields(agent, changes);
    this.#agentsByEmail.set(ownedKey(agent.uid, agent.email.toLowerCase()), agent.id);
    this.#changed({ kind: "put", collection: "agents", record: agent });
    return agent;
  }

  removeAgent(agent: AgentRecord): void {
    this.#remove(this.state.agents, agent);
    this.#agents.delete(agent.id);
    this.#agentsByOwner.get(agent.uid)?.delete(agent.id);
    this.#agentsByEmail.delete(ownedKey(agent.uid, agent.email.toLowerCase()));
    this.#changed({ kind: "remove", collection: "agents", id: agent.id });
  }

  // Documents

  document(id: number): DocumentRecord | undefined {
    return this.#documents.get(id);
  }

  documentsOfProperty(propertyId: number): DocumentRecord[] {
    return recordsOf(this.#documentsByProperty.get(propertyId), this.#documents);
  }

  addDocument(document: DocumentRecord): DocumentRecord {
    this.#append(this.state.documents, document);
    this.#indexDocument(document);
    this.#changed({ kind: "put", collection: "documents", record: document });
    return document;
  }

  updateDocument(document: DocumentRecord, changes: Partial<DocumentRecord>): DocumentRecord {
    this.#documentsByProperty.get(document.property_reference)?.delete(document.id);
    assignFields(document, changes);
    addTo(this.#documentsByProperty, document.property_reference, document.id);
    this.#changed({ kind: "put", collection: "documents", record: document });
    return document;
  }

  removeDocument(document: DocumentRecord): void {
    this.#remove(this.state.documents, document);
    this.#documents.delete(document.id);
    this.#documentsByProperty.get(document.property_reference)?.delete(document.id);
    this.#changed({ kind: "remove", collection: "documents", id: document.id });
  }

  #append<T extends object>(records: T[], record: T): void {
    this.#positionMap?.set(record, records.length);
    records.push(record);
  }

  #positions(): Map<object, number> {
    if (this.#positionMap) return this.#positionMap;
    const positions = new Map<object, number>();
    const state = this.state;
    for (const name of COLLECTIONS) {
      const records = state[name];
      for (let index = 0; index < records.length; index++) positions.set(records[index]!, index);
    }
    return (this.#positionMap = positions);
  }

  /** Removes a record in constant time: the last record of the array takes its place. */
  #remove<T extends object>(records: T[], record: T): void {
    const positions = this.#positions();
    const at = positions.get(record);
    if (at === undefined || records[at] !== record) return;
    const last = records.pop()!;
    if (last !== record) {
      records[at] = last;
      positions.set(last, at);
    }
    positions.delete(record);
  }

  /** Indexes a record a raw write put. */
  #index(collection: CollectionName, record: StoredRecord): void {
    switch (collection) {
      case "accounts": {
        const account = record as AccountRecord;
        this.#accountsById.set(account.id, account);
        this.#accountsByKey.set(account.apiKey, account);
        return;
      }
      case "properties":
        return this.#indexProperty(record as PropertyRecord);
      case "agents":
        return this.#indexAgent(record as AgentRecord);
      case "documents":
        return this.#indexDocument(record as DocumentRecord);
    }
  }

  /**
   * Takes a record out of the indexes. With `next` (the record replacing it, same id) the owner and property sets
   * keep the id when the owner or property stays. An email or external id that another record of the account
   * also holds (raw writes skip the rules) is indexed to that record, as a reindex would.
   */
  #unindex(collection: CollectionName, record: StoredRecord, next: StoredRecord | undefined): void {
    switch (collection) {
      case "accounts": {
        const account = record as AccountRecord;
        if (this.#accountsById.get(account.id) === account) this.#accountsById.delete(account.id);
        if (this.#accountsByKey.get(account.apiKey) === account) this.#accountsByKey.delete(account.apiKey);
        return;
      }
      case "properties": {
        const property = record as PropertyRecord;
        if (property.external_id !== null && property.external_id !== undefined) {
          const key = ownedKey(property.uid, property.external_id);
          if (this.#propertiesByExternalId.get(key) === property.id) {
            const other = this.propertiesOf(property.uid).find((candidate) => candidate.id !== property.id && candidate.external_id === property.external_id);
            if (other) this.#propertiesByExternalId.set(key, other.id);
            else this.#propertiesByExternalId.delete(key);
          }
        }
        this.#properties.delete(property.id);
        if ((next as PropertyRecord | undefined)?.uid !== property.uid) this.#propertiesByOwner.get(property.uid)?.delete(property.id);
        return;
      }
      case "agents": {
        const agent = record as AgentRecord;
        if (typeof agent.email === "string") {
          const email = agent.email.toLowerCase();
          const key = ownedKey(agent.uid, email);
          if (this.#agentsByEmail.get(key) === agent.id) {
            const other = this.agentsOf(agent.uid).find((candidate) => candidate.id !== agent.id && candidate.email.toLowerCase() === email);
            if (other) this.#agentsByEmail.set(key, other.id);
            else this.#agentsByEmail.delete(key);
          }
        }
        this.#agents.delete(agent.id);
        if ((next as AgentRecord | undefined)?.uid !== agent.uid) this.#agentsByOwner.get(agent.uid)?.delete(agent.id);
        return;
      }
      case "documents": {
        const document = record as DocumentRecord;
        this.#documents.delete(document.id);
        if ((next as DocumentRecord | undefined)?.property_reference !== document.property_reference) this.#documentsByProperty.get(document.property_reference)?.delete(document.id);
        return;
      }
    }
  }

  #indexProperty(property: PropertyRecord): void {
    this.#properties.set(property.id, property);
    addTo(this.#propertiesByOwner, property.uid, property.id);
    if (property.external_id !== null && property.external_id !== undefined) {
      this.#propertiesByExternalId.set(ownedKey(property.uid, property.external_id), property.id);
    }
  }

  #unindexExternalId(property: PropertyRecord): void {
    if (property.external_id === null) return;
    const key = ownedKey(property.uid, property.external_id);
    if (this.#propertiesByExternalId.get(key) !== property.id) return;
    // Another property with the same external id (a profile may allow it) is found by it from now on.
    const other = this.propertiesOf(property.uid).find((candidate) => candidate.id !== property.id && candidate.external_id === property.external_id);
    if (other) this.#propertiesByExternalId.set(key, other.id);
    else this.#propertiesByExternalId.delete(key);
  }

  #indexAgent(agent: AgentRecord): void {
    this.#agents.set(agent.id, agent);
    addTo(this.#agentsByOwner, agent.uid, agent.id);
    if (typeof agent.email === "string") this.#agentsByEmail.set(ownedKey(agent.uid, agent.email.toLowerCase()), agent.id);
  }

  #indexDocument(document: DocumentRecord): void {
    this.#documents.set(document.id, document);
    addTo(this.#documentsByProperty, document.property_reference, document.id);
  }

  #changed(change: StateChange): void {
    this.#version += 1;
    for (const listener of this.#listeners) listener(change);
  }
}

/**
 * The larger of a sequence's maximum and an id. Anything but a positive integer below
 * {@link SEQUENCE_FEED_LIMIT} is ignored, so the sequence can never become NaN, inexact, or run out.
 */
function largerId(max: number, id: unknown): number {
  return Number.isSafeInteger(id) && (id as number) > max && (id as number) < SEQUENCE_FEED_LIMIT ? (id as number) : max;
}

/** A sequence's value, which 2^52 ids of room keep exact; past 2^53-1 it would be a bug of the mock. */
function exact(id: number): number {
  if (!Number.isSafeInteger(id)) throw new Error(`The id sequence passed 2^53-1 (${id})`);
  return id;
}

const FORBIDDEN_KEYS = new Set(["__proto__", "constructor", "prototype"]);

/** Copies own fields onto a record; keys that could reach a prototype are never written. */
function assignFields<T extends object>(record: T, changes: Partial<T>): void {
  for (const key of Object.keys(changes)) {
    if (FORBIDDEN_KEYS.has(key)) continue;
    (record as Record<string, unknown>)[key] = (changes as Record<string, unknown>)[key];
  }
}

function ownedKey(uid: number, value: string): string {
  return `${uid}\u0000${value}`;
}

/** The records of these ids, in the ids' order (one array, no intermediate copy: a user may own 80,000). */
function recordsOf<T>(ids: ReadonlySet<number> | undefined, byId: ReadonlyMap<number, T>): T[] {
  if (!ids) return [];
  const records = new Array<T>(ids.size);
  let index = 0;
  for (const id of ids) records[index++] = byId.get(id)!;
  return records;
}

function addTo(index: Map<number, Set<number>>, key: number, id: number): void {
  let ids = index.get(key);
  if (!ids) index.set(key, (ids = new Set()));
  ids.add(id);
}

/**
 * The larger of a sequence's maximum and the nids of a property's virtual tours and videos, which are nodes of
 * the same sequence: counting them keeps a new record from reusing one. Reference fields (`main_image`, `logo`,
 * `edit_access`, `show_on_property`) name other nodes and never feed the sequence: a value written there must
 * not move it. No array is made: this runs for every property at start-up.
 */
function largerNestedId(max: number, property: PropertyRecord): number {
  const tours = property.virtual_tours as unknown;
  if (tours !== null && typeof tours === "object" && !Array.isArray(tours)) {
    for (const key of Object.keys(tours)) max = largerId(max, (tours as Record<string, { nid?: unknown } | null>)[key]?.nid);
  }
  const videos = property.property_videos as unknown;
  if (videos !== null && typeof videos === "object") {
    for (const key of Object.keys(videos)) max = largerId(max, (videos as Record<string, { nid?: unknown } | null>)[key]?.nid);
  }
  return max;
}
