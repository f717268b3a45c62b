import {
  COLLECTIONS,
  type AccountRecord,
  type AgentRecord,
  type CollectionName,
  type Database,
  type DocumentRecord,
  type PropertyRecord,
  type StoredRecord,
} from "./records.ts";
import type { StateChange } from "./state-change.ts";
import { exact, largerId, largerNestedId } from "./sequence-ids.ts";
import { RecordPositions } from "./record-positions.ts";
import { StoreIndexes } from "./store-indexes.ts";

/** The first nid the sequence hands out on an empty state (seeded records start at 1001). */
const FIRST_NID = 1001;

export type { StoredRecord } from "./records.ts";

/** What holds the state: `SharedState` in the mock (json-server's lowdb instance, `router.db`, has the same shape). */
export interface StateHolder<State> {
  getState(): State;
  setState(state: State): unknown;
}

/**
 * The mock's state, held by a `StateHolder` (so `/__db` serves and edits the same records) and indexed so
 * that no lookup scans a collection (store-indexes.ts). Every collection is held the same way: its records as plain
 * objects in the state's array, found by id through the indexes. Every change goes through this class, which keeps the
 * indexes right and tells its listeners. Removing a record moves the last record of its array into its place, so the
 * raw arrays under `/__db` are in insertion order except where a record was removed; the API's lists follow the
 * indexes, in insertion order.
 */
export class MockStore {
  readonly #db: StateHolder<Database>;
  readonly #seed: () => Database;
  readonly #listeners = new Set<(change: StateChange) => void>();
  readonly #resetListeners = new Set<() => void>();
  #indexes = new StoreIndexes();
  readonly #positions = new RecordPositions(() => COLLECTIONS.map((name) => this.state[name]));
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

  /**
   * Puts another state in place of the current one (a named state or a test's own, `POST /__admin/state`): as a
   * reset does, but with these records instead of the seed's. The sequences start again after the state's highest
   * ids, and the reset listeners run. The change is told as a reset followed by the removal of every seeded record
   * the state does not hold and the put of every record it holds, so that a `--db` journal replays it exactly.
   * The seed itself stays: a later `reset` goes back to it.
   */
  replace(database: Database): void {
    const seeded = this.#listeners.size > 0 ? this.#seed() : undefined;
    this.#db.setState(database);
    this.#nextId = 1;
    this.#nextUid = 1;
    this.reindex();
    for (const listener of this.#resetListeners) listener();
    this.#changed({ kind: "reset" });
    if (!seeded) return;
    for (const collection of COLLECTIONS) {
      const kept = new Set(database[collection].map((record) => record.id));
      for (const record of seeded[collection])
        if (!kept.has(record.id)) this.#changed({ kind: "remove", collection, id: record.id });
      for (const record of database[collection]) this.#changed({ kind: "put", collection, record });
    }
  }

  /** Calls `listener` after every reset (what is derived from the state and kept beside it is dropped then). */
  onReset(listener: () => void): () => void {
    this.#resetListeners.add(listener);
    return () => this.#resetListeners.delete(listener);
  }

  /** Rebuilds every index from the collections. Runs at start-up, on reset, and on `refresh`. */
  reindex(): void {
    const given = this.state;
    for (const name of COLLECTIONS) given[name] ??= [];
    const indexes = (this.#indexes = new StoreIndexes());
    this.#positions.forget();
    // Only the records' own ids and the nids of their nested tours and videos feed the sequences; ids beyond
    // 2^53-1 never reach the store (raw writes are validated), so the sequences stay exact integers.
    let maxId = FIRST_NID - 1;
    let maxUid = 0;
    for (const account of given.accounts) {
      indexes.indexAccount(account);
      maxUid = largerId(maxUid, account.id);
    }
    for (const property of given.properties) {
      indexes.indexProperty(property);
      maxId = largerNestedId(largerId(maxId, property.id), property);
    }
    for (const agent of given.agents) {
      indexes.indexAgent(agent);
      maxId = largerId(maxId, agent.id);
    }
    for (const document of given.documents) {
      indexes.indexDocument(document);
      maxId = largerId(maxId, document.id);
    }
    this.#nextId = Math.max(this.#nextId, maxId + 1);
    this.#nextUid = Math.max(this.#nextUid, maxUid + 1);
  }

  /** The records of a collection, in the order `/__db` lists them. */
  records(collection: CollectionName): readonly StoredRecord[] {
    return this.state[collection];
  }

  /**
   * The record of a collection with this id (an account's id is its uid): the record itself, changed only through
   * {@link update}.
   */
  record<C extends CollectionName>(collection: C, id: number): Database[C][number] | undefined {
    return this.#indexes.record(collection, id);
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
      if (!this.#positions.replace(records, existing, record)) this.#positions.append(records, record);
      this.#indexes.unindex(collection, existing, record);
    } else {
      this.#positions.append(records, record);
    }
    this.#indexes.index(collection, record);
    if (collection === "accounts") this.#nextUid = Math.max(this.#nextUid, largerId(this.#nextUid - 1, record.id) + 1);
    else {
      let max = largerId(this.#nextId - 1, record.id);
      if (collection === "properties") max = largerNestedId(max, record as PropertyRecord);
      this.#nextId = Math.max(this.#nextId, max + 1);
    }
    this.#changed({ kind: "put", collection, record });
  }

  /** A raw removal (`/__db`): removes the record and its index entries, without a scan of the state. */
  removeRaw(collection: CollectionName, record: StoredRecord): void {
    if (this.record(collection, record.id) !== record) return;
    this.#positions.remove(this.state[collection], record);
    this.#indexes.unindex(collection, record, undefined);
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
    while (this.#indexes.accountsById.has(this.#nextUid)) this.#nextUid += 1;
    return exact(this.#nextUid++);
  }

  /**
   * A fresh nid: larger than every nid in use below {@link SEQUENCE_FEED_LIMIT}, and free. Properties, agents
   * and documents share one sequence, as nodes of one service do.
   */
  nextId(): number {
    const { properties, agents, documents } = this.#indexes;
    while (properties.has(this.#nextId) || agents.has(this.#nextId) || documents.has(this.#nextId)) this.#nextId += 1;
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
    return this.#indexes.accountByKey(apiKey);
  }

  /** How many accounts there are. */
  accountCount(): number {
    return this.#indexes.accountsById.size;
  }

  /** Opens an account with the next free uid. */
  addAccount(fields: Omit<AccountRecord, "id">): AccountRecord {
    return this.add("accounts", { id: this.nextUid(), ...fields });
  }

  // Properties

  /** The uid of the property's owner. */
  propertyOwner(id: number): number | undefined {
    return this.#indexes.properties.get(id)?.uid;
  }

  /** The account's properties, in the order they were added. */
  propertiesOf(uid: number): PropertyRecord[] {
    return this.propertyIdsOf(uid).map((id) => this.#indexes.properties.get(id)!);
  }

  /** The ids of the account's properties, in the order they were added. */
  propertyIdsOf(uid: number): number[] {
    return [...(this.#indexes.propertyIdsOf(uid) ?? [])];
  }

  propertyByExternalId(uid: number, externalId: string): PropertyRecord | undefined {
    const id = this.#indexes.propertyIdByExternalId(uid, externalId);
    return id === undefined ? undefined : this.#indexes.properties.get(id);
  }

  /** The id of the account's property with this external id. */
  propertyIdByExternalId(uid: number, externalId: string): number | undefined {
    return this.#indexes.propertyIdByExternalId(uid, externalId);
  }

  // Agents

  agentsOf(uid: number): AgentRecord[] {
    return this.#indexes.agentsOf(uid);
  }

  agentCountOf(uid: number): number {
    return this.#indexes.agentCountOf(uid);
  }

  /** The account's agent with this email, compared without regard to case. */
  agentByEmail(uid: number, email: string): AgentRecord | undefined {
    return this.#indexes.agentByEmail(uid, email);
  }

  // Documents

  documentsOfProperty(propertyId: number): DocumentRecord[] {
    return this.#indexes.documentsOfProperty(propertyId);
  }

  // Every collection's records are added, changed and removed alike.

  /** Adds a record to its collection (its id already given: {@link nextId}). */
  add<C extends CollectionName>(collection: C, record: Database[C][number]): Database[C][number] {
    // Without the assertion, the collections of C are intersected and no record fits (tsc refuses the call).
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion -- tsc needs it, see above
    this.#positions.append(this.state[collection] as StoredRecord[], record);
    this.#indexes.index(collection, record);
    this.#changed({ kind: "put", collection, record });
    return record;
  }

  /** Changes a record's fields in place (the record itself, as found through the store). */
  update<C extends CollectionName>(
    collection: C,
    record: Database[C][number],
    changes: Partial<Database[C][number]>,
  ): Database[C][number] {
    const moved = this.#indexes.unindexKeyed(collection, record, changes);
    assignFields(record, changes);
    if (moved) this.#indexes.indexKeyed(collection, record);
    this.#changed({ kind: "put", collection, record });
    return record;
  }

  /** Removes a record from its collection. */
  remove(collection: CollectionName, record: StoredRecord): void {
    this.#positions.remove(this.state[collection], record);
    this.#indexes.unindex(collection, record, undefined);
    this.#changed({ kind: "remove", collection, id: record.id });
  }

  #changed(change: StateChange): void {
    this.#version += 1;
    for (const listener of this.#listeners) listener(change);
  }
}

const FORBIDDEN_KEYS = new Set(["__proto__", "constructor", "prototype"]);

/** Copies own fields onto a record; keys that could reach a prototype are never written. */
function assignFields<T extends object>(record: T, changes: Partial<T>): void {
  for (const key of Object.keys(changes)) {
    if (FORBIDDEN_KEYS.has(key)) continue;
    (record as Record<string, unknown>)[key] = (changes as Record<string, unknown>)[key];
  }
}
