import { failure, success, type FieldError, type Outcome } from "../problems.ts";
import type { RawRecordValidator } from "../store/raw-record-validator.ts";
import type { MockStore, StoredRecord } from "../store/mock-store.ts";
import { COLLECTIONS, type CollectionName } from "../store/records.ts";
import { MAX_CHECKED_KEYS } from "../validation/bound-for-validation.ts";
import { capFieldErrors } from "../validation/cap-field-errors.ts";
import { clip } from "../clip.ts";

const CANONICAL_ID = /^[1-9][0-9]*$/;

/**
 * The writes and lookups json-server's router makes under `/__db`, over the store: json-server 0.17 serves the
 * routes and the list queries (src/hosts/node/raw-records-router.ts), and every record it finds, adds, replaces,
 * changes or removes goes through here, so that one set of records is served, indexed and journaled. What json-server
 * would write as it comes is first checked against the stored shape of its collection (ids positive and at most 2^53-1,
 * owners, field types) and refused with every offending field, nothing written; a record added without an `id`
 * gets the next nid of the shared sequence (the next uid, for an account). A raw write still skips every rule of
 * the service (another account's property, an agent past the seats): preparing such states is what it is for.
 */
export class RawRecordService {
  readonly #store: MockStore;
  readonly #validate: RawRecordValidator;

  constructor(store: MockStore, validate: RawRecordValidator) {
    this.#store = store;
    this.#validate = validate;
  }

  /**
   * The record of a collection with this id, the id as json-server has it: the text of a path segment, or the
   * value of a `<name>_reference` field (`_expand`). As json-server compares ids as text, `1001` and `"1001"`
   * find the same record and `"01001"` none; a lookup is an index read, not a scan.
   */
  find(collection: CollectionName, id: unknown): StoredRecord | undefined {
    const number =
      typeof id === "number" ? id : typeof id === "string" && CANONICAL_ID.test(id) ? Number(id) : undefined;
    return number !== undefined && Number.isSafeInteger(number) && number > 0
      ? this.#store.record(collection, number)
      : undefined;
  }

  /** `POST /__db/<collection>`: adds a record; without an `id` it gets the next nid (the next uid, for an account). */
  create(collection: CollectionName, body: unknown): Outcome<StoredRecord> {
    if (!isPlainObject(body)) return notAnObject();
    const record: Record<string, unknown> = { ...body };
    if (record.id === undefined) record.id = collection === "accounts" ? this.#store.nextUid() : this.#store.nextId();
    return this.#put(collection, record, "new");
  }

  /** `PUT /__db/<collection>/<id>`: replaces the whole record (its id is the one it had). */
  replace(collection: CollectionName, id: unknown, body: unknown): Outcome<StoredRecord> {
    const found = this.#existing(collection, id);
    if (!found.ok) return found;
    if (!isPlainObject(body)) return notAnObject();
    return this.#put(collection, { ...body, id: found.value.id }, "existing");
  }

  /**
   * `PATCH /__db/<collection>/<id>`: changes the fields the body names; the result must still have the stored shape.
   */
  patch(collection: CollectionName, id: unknown, body: unknown): Outcome<StoredRecord> {
    const found = this.#existing(collection, id);
    if (!found.ok) return found;
    if (!isPlainObject(body)) return notAnObject();
    // A body wider than any record is invalid whatever it holds past its first fields, so only those are
    // merged: spreading 30,000 fields into a record took longer than all the rest of the check.
    const keys = Object.keys(body);
    const changes =
      keys.length > MAX_CHECKED_KEYS
        ? Object.fromEntries(keys.slice(0, MAX_CHECKED_KEYS).map((key) => [key, body[key]]))
        : body;
    return this.#put(collection, { ...found.value, ...changes, id: found.value.id }, "existing");
  }

  /** `DELETE /__db/<collection>/<id>`: the record removed. */
  remove(collection: CollectionName, id: unknown): Outcome<StoredRecord> {
    const found = this.#existing(collection, id);
    if (!found.ok) return found;
    this.#store.removeRaw(collection, found.value);
    return found;
  }

  /**
   * The records that depend on one: a property's documents (`property_reference`), which json-server removes with
   * the property it refers to. Read from the index, not from a scan of the whole state as json-server's would be.
   */
  dependentsOf(collection: CollectionName, id: number): Array<{ collection: CollectionName; id: number }> {
    if (collection !== "properties") return [];
    return this.#store.documentsOfProperty(id).map((document) => ({ collection: "documents", id: document.id }));
  }

  #existing(collection: CollectionName, id: unknown): Outcome<StoredRecord> {
    const record = this.find(collection, id);
    const shown = typeof id === "string" ? clip(id, 100) : String(id);
    return record
      ? success(record)
      : failure(
          "notFound",
          `No record ${collection}/${shown}: ids are positive whole numbers in plain decimal, up to 9007199254740991.`,
        );
  }

  #put(collection: CollectionName, value: Record<string, unknown>, expect: "new" | "existing"): Outcome<StoredRecord> {
    const check = this.#validate(collection, value);
    if (!check.ok) return invalidRecord(collection, check.errors, check.atLeast);
    if (expect === "new" && this.#store.record(collection, check.record.id)) {
      return failure(
        "rawIdTaken",
        `${collection}/${check.record.id} already exists; change it with PUT or PATCH, or leave the id out ` +
          `to get a new one.`,
        [{ in: "body", pointer: "/id", detail: "is taken" }],
      );
    }
    if (collection === "accounts") {
      const holder = this.#store.accountByKey((check.record as { apiKey: string }).apiKey);
      if (holder && holder.id !== check.record.id) {
        return failure("rawIdTaken", `The apiKey already opens account ${holder.id}; an API key opens one account.`, [
          { in: "body", pointer: "/apiKey", detail: "is taken" },
        ]);
      }
    }
    this.#store.putRaw(collection, check.record);
    return success(check.record);
  }
}

/** The collection of this name, if the state has one (`__proto__` and the like are no collection). */
export function collectionNamed(name: string): CollectionName | undefined {
  return (COLLECTIONS as readonly string[]).includes(name) ? (name as CollectionName) : undefined;
}

function notAnObject(): Outcome<never> {
  return failure("invalidRequest", "A raw record is a JSON object.", [
    { in: "body", pointer: "", detail: "must be an object" },
  ]);
}

function invalidRecord(collection: CollectionName, errors: FieldError[], atLeast: boolean): Outcome<never> {
  const capped = capFieldErrors(errors, `The record breaks the stored shape of ${collection}`, atLeast);
  return failure("invalidRequest", capped.detail, capped.errors);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
