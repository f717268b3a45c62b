import type {
  AccountRecord,
  AgentRecord,
  CollectionName,
  DocumentRecord,
  PropertyRecord,
  StoredRecord,
} from "./records.ts";

/**
 * The indexes of the mock's state, so that no lookup scans a collection: by id, by owner, by external id, by
 * agent email (without regard to case), by property. `MockStore` keeps them in step with every change; they hold
 * the records themselves, never copies.
 */
export class StoreIndexes {
  readonly accountsById = new Map<number, AccountRecord>();
  readonly #accountsByKey = new Map<string, AccountRecord>();
  readonly properties = new Map<number, PropertyRecord>();
  readonly #propertiesByOwner = new Map<number, Set<number>>();
  readonly #propertiesByExternalId = new Map<string, number>();
  /**
   * How many properties hold an external id, for those more than one holds (a raw write, or a profile sharing
   * them): only then does removing the one found by it look for another, reading the account's properties.
   */
  readonly #externalIdHolders = new Map<string, number>();
  readonly agents = new Map<number, AgentRecord>();
  readonly #agentsByOwner = new Map<number, Set<number>>();
  readonly #agentsByEmail = new Map<string, number>();
  readonly documents = new Map<number, DocumentRecord>();
  /**
   * A property's documents: one id as it is, more in an array. Most properties have one document or none, and a
   * set for each weighs on a large store's heap (docs/large-stores.md).
   */
  readonly #documentsByProperty = new Map<number, number | number[]>();

  // Lookups

  /** A record of any collection by its id (an account's id is its uid). */
  record(collection: CollectionName, id: number): StoredRecord | undefined {
    switch (collection) {
      case "accounts":
        return this.accountsById.get(id);
      case "properties":
        return this.properties.get(id);
      case "agents":
        return this.agents.get(id);
      case "documents":
        return this.documents.get(id);
    }
  }

  accountByKey(apiKey: string): AccountRecord | undefined {
    return this.#accountsByKey.get(apiKey);
  }

  /** The ids of the account's properties, in the order they were indexed. */
  propertyIdsOf(uid: number): ReadonlySet<number> | undefined {
    return this.#propertiesByOwner.get(uid);
  }

  propertyIdByExternalId(uid: number, externalId: string): number | undefined {
    return this.#propertiesByExternalId.get(ownedKey(uid, externalId));
  }

  agentsOf(uid: number): AgentRecord[] {
    return recordsOf(this.#agentsByOwner.get(uid), this.agents);
  }

  agentCountOf(uid: number): number {
    return this.#agentsByOwner.get(uid)?.size ?? 0;
  }

  agentByEmail(uid: number, email: string): AgentRecord | undefined {
    const id = this.#agentsByEmail.get(ownedKey(uid, email.toLowerCase()));
    return id === undefined ? undefined : this.agents.get(id);
  }

  documentsOfProperty(propertyId: number): DocumentRecord[] {
    const ids = this.#documentsByProperty.get(propertyId);
    return recordsOf(typeof ids === "number" ? [ids] : ids, this.documents);
  }

  // Records in and out

  /** Indexes a record of any collection (at start-up, or one a raw write put). */
  index(collection: CollectionName, record: StoredRecord): void {
    switch (collection) {
      case "accounts":
        return this.indexAccount(record as AccountRecord);
      case "properties":
        return this.indexProperty(record as PropertyRecord);
      case "agents":
        return this.indexAgent(record as AgentRecord);
      case "documents":
        return this.indexDocument(record as DocumentRecord);
    }
  }

  indexAccount(account: AccountRecord): void {
    this.accountsById.set(account.id, account);
    this.#accountsByKey.set(account.apiKey, account);
  }

  indexProperty(property: PropertyRecord): void {
    this.properties.set(property.id, property);
    addTo(this.#propertiesByOwner, property.uid, property.id);
    this.#indexExternalId(property);
  }

  #holdExternalId(key: string, id: number): void {
    const holder = this.#propertiesByExternalId.get(key);
    if (holder !== undefined && holder !== id)
      this.#externalIdHolders.set(key, (this.#externalIdHolders.get(key) ?? 1) + 1);
    this.#propertiesByExternalId.set(key, id);
  }

  indexAgent(agent: AgentRecord): void {
    this.agents.set(agent.id, agent);
    addTo(this.#agentsByOwner, agent.uid, agent.id);
    if (typeof agent.email === "string")
      this.#agentsByEmail.set(ownedKey(agent.uid, agent.email.toLowerCase()), agent.id);
  }

  indexDocument(document: DocumentRecord): void {
    this.documents.set(document.id, document);
    addSmall(this.#documentsByProperty, document.property_reference, document.id);
  }

  /**
   * Takes a record out of the indexes. With `next` (the record replacing it, same id) the owner and property sets
   * keep the id when the owner or property stays. An email or external id that another record of the account
   * also holds (raw writes skip the rules) is indexed to that record, as a reindex would.
   */
  unindex(collection: CollectionName, record: StoredRecord, next: StoredRecord | undefined): void {
    switch (collection) {
      case "accounts": {
        const account = record as AccountRecord;
        if (this.accountsById.get(account.id) === account) this.accountsById.delete(account.id);
        if (this.#accountsByKey.get(account.apiKey) === account) this.#accountsByKey.delete(account.apiKey);
        return;
      }
      case "properties": {
        const property = record as PropertyRecord;
        this.#unindexExternalId(property);
        this.properties.delete(property.id);
        if ((next as PropertyRecord | undefined)?.uid !== property.uid)
          this.#propertiesByOwner.get(property.uid)?.delete(property.id);
        return;
      }
      case "agents": {
        const agent = record as AgentRecord;
        if (typeof agent.email === "string") this.#unindexEmail(agent);
        this.agents.delete(agent.id);
        if ((next as AgentRecord | undefined)?.uid !== agent.uid) this.#agentsByOwner.get(agent.uid)?.delete(agent.id);
        return;
      }
      case "documents": {
        const document = record as DocumentRecord;
        this.documents.delete(document.id);
        if ((next as DocumentRecord | undefined)?.property_reference !== document.property_reference)
          removeSmall(this.#documentsByProperty, document.property_reference, document.id);
        return;
      }
    }
  }

  // Fields that move a record in an index (called around a change of them)

  /**
   * Before a change of a record's fields: takes it out of the index one of its fields keys (a property's external
   * id, when the change gives it another; an agent's email; a document's property), and says whether it did, so
   * that {@link indexKeyed} puts it back after the change.
   */
  unindexKeyed(collection: CollectionName, record: StoredRecord, changes: Partial<StoredRecord>): boolean {
    switch (collection) {
      case "properties": {
        const external = (changes as Partial<PropertyRecord>).external_id;
        if (external === undefined || external === (record as PropertyRecord).external_id) return false;
        this.#unindexExternalId(record as PropertyRecord);
        return true;
      }
      case "agents":
        this.#unindexEmail(record as AgentRecord);
        return true;
      case "documents":
        this.#unindexFromProperty(record as DocumentRecord);
        return true;
      case "accounts":
        return false;
    }
  }

  /** After the change {@link unindexKeyed} was called before: the record is found by its fields again. */
  indexKeyed(collection: CollectionName, record: StoredRecord): void {
    if (collection === "properties") this.#indexExternalId(record as PropertyRecord);
    else if (collection === "agents") this.#indexEmail(record as AgentRecord);
    else if (collection === "documents") this.#indexToProperty(record as DocumentRecord);
  }

  /**
   * Before a property's external id changes or it goes: another property with the same one is found by it from now on.
   */
  #unindexExternalId(property: PropertyRecord): void {
    if (property.external_id === null || property.external_id === undefined) return;
    const key = ownedKey(property.uid, property.external_id);
    const holders = this.#externalIdHolders.get(key);
    if (holders !== undefined) {
      if (holders > 2) this.#externalIdHolders.set(key, holders - 1);
      else this.#externalIdHolders.delete(key);
    }
    if (this.#propertiesByExternalId.get(key) !== property.id) return;
    if (holders === undefined) {
      this.#propertiesByExternalId.delete(key);
      return;
    }
    // Another property with the same external id (a raw write, or a profile allowing it) is found by it from now on.
    let other: number | undefined;
    for (const id of this.#propertiesByOwner.get(property.uid) ?? []) {
      if (id !== property.id && this.properties.get(id)?.external_id === property.external_id) {
        other = id;
        break;
      }
    }
    if (other !== undefined) this.#propertiesByExternalId.set(key, other);
    else this.#propertiesByExternalId.delete(key);
  }

  /** After a property's external id changed: it finds the property. */
  #indexExternalId(property: PropertyRecord): void {
    if (property.external_id !== null && property.external_id !== undefined)
      this.#holdExternalId(ownedKey(property.uid, property.external_id), property.id);
  }

  /** Before an agent's email changes or it goes: another agent of the account with the same one is found by it. */
  #unindexEmail(agent: AgentRecord): void {
    // A card of a state file may hold anything there (a state is not checked field by field): only a text is indexed.
    if (typeof agent.email !== "string") return;
    const email = agent.email.toLowerCase();
    const key = ownedKey(agent.uid, email);
    if (this.#agentsByEmail.get(key) !== agent.id) return;
    const other = this.agentsOf(agent.uid).find(
      (candidate) =>
        candidate.id !== agent.id && typeof candidate.email === "string" && candidate.email.toLowerCase() === email,
    );
    if (other) this.#agentsByEmail.set(key, other.id);
    else this.#agentsByEmail.delete(key);
  }

  /** After an agent's email changed: it finds the agent. */
  #indexEmail(agent: AgentRecord): void {
    if (typeof agent.email !== "string") return;
    this.#agentsByEmail.set(ownedKey(agent.uid, agent.email.toLowerCase()), agent.id);
  }

  /** Before a document moves to another property. */
  #unindexFromProperty(document: DocumentRecord): void {
    removeSmall(this.#documentsByProperty, document.property_reference, document.id);
  }

  /** After a document moved to another property. */
  #indexToProperty(document: DocumentRecord): void {
    addSmall(this.#documentsByProperty, document.property_reference, document.id);
  }
}

function ownedKey(uid: number, value: string): string {
  return `${uid}\u0000${value}`;
}

/** The records of these ids, in the ids' order (one array, no intermediate copy: a user may own 80,000). */
function recordsOf<T>(ids: ReadonlySet<number> | readonly number[] | undefined, byId: ReadonlyMap<number, T>): T[] {
  if (!ids) return [];
  const records = new Array<T>("size" in ids ? ids.size : ids.length);
  let index = 0;
  for (const id of ids) records[index++] = byId.get(id)!;
  return records;
}

function addTo(index: Map<number, Set<number>>, key: number, id: number): void {
  let ids = index.get(key);
  if (!ids) index.set(key, (ids = new Set()));
  ids.add(id);
}

/** Adds an id to a key's few ids (a number alone, more in an array, in the order added), once. */
function addSmall(index: Map<number, number | number[]>, key: number, id: number): void {
  const ids = index.get(key);
  if (ids === undefined) index.set(key, id);
  else if (typeof ids === "number") {
    if (ids !== id) index.set(key, [ids, id]);
  } else if (!ids.includes(id)) ids.push(id);
}

/** Takes an id out of a key's few ids; the key goes with its last id. */
function removeSmall(index: Map<number, number | number[]>, key: number, id: number): void {
  const ids = index.get(key);
  if (ids === id) index.delete(key);
  else if (typeof ids === "object") {
    const at = ids.indexOf(id);
    if (at < 0) return;
    ids.splice(at, 1);
    if (ids.length === 1) index.set(key, ids[0]!);
  }
}
