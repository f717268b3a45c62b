import { failure, success, type FieldError, type Outcome } from "../problems.ts";
import type { RawRecordValidator } from "../store/create-raw-record-validator.ts";
import type { MockStore, StoredRecord } from "../store/mock-store.ts";
import { COLLECTIONS, type CollectionName } from "../store/records.ts";
import { MAX_CHECKED_KEYS } from "../validation/bound-for-validation.ts";
import { capFieldErrors } from "../validation/cap-field-errors.ts";

/** A page of a raw list, and how many records matched before it was cut (json-server's `X-Total-Count`). */
export interface RawList {
  records: readonly StoredRecord[];
  total?: number;
}

/** Query parameters of a raw list that are not field filters. */
const LIST_OPTIONS = new Set(["q", "_sort", "_order", "_start", "_end", "_limit", "_page", "_", "callback"]);
/** How deep `q` looks into a record's values (records nest three levels at most). */
const SEARCH_DEPTH = 8;
const CANONICAL_ID = /^[1-9][0-9]*$/;

/**
 * The raw records under `/__db`, for tests and people: json-server 0.17's REST routes and list queries over the
 * store, with three differences that keep the mock sound whatever is sent. Every write is checked against the
 * stored shape of its collection (ids positive and at most 2^53-1, owners, field types) and refused with every
 * offending field; filters match literally (`_like` and `q` are case-insensitive substrings, never a regular
 * expression built from input); and an unknown option (`_embed`, `_expand`) is refused rather than ignored.
 * A raw write still skips every rule of the service (another account's property, an agent past the seats):
 * preparing such states is what it is for.
 */
export class RawRecordService {
  readonly #store: MockStore;
  readonly #validate: RawRecordValidator;

  constructor(store: MockStore, validate: RawRecordValidator) {
    this.#store = store;
    this.#validate = validate;
  }

  /** `GET /__db/<collection>?field=value&field_like=text&q=text&_sort=field&_order=desc&_page=2&_limit=10` */
  list(collection: string, query: URLSearchParams): Outcome<RawList> {
    const name = collectionOf(collection);
    if (!name) return unknownCollection(collection);
    const filters: Array<(record: StoredRecord) => boolean> = [];
    const fields = new Map<string, string[]>();
    for (const [key, value] of query) {
      if (LIST_OPTIONS.has(key)) continue;
      if (key.startsWith("_")) return badQuery(key, `is not an option of the raw routes; they take field filters (with _ne, _lte, _gte, _like), q, _sort, _order, _start, _end, _limit and _page`);
      fields.set(key, [...(fields.get(key) ?? []), value]);
    }
    for (const [key, values] of fields) filters.push(fieldFilter(key, values));
    const q = query.get("q");
    if (q !== null && q !== "") {
      const needle = q.toLowerCase();
      filters.push((record) => containsText(record, needle, SEARCH_DEPTH));
    }
    let records = this.#store.records(name).filter((record) => filters.every((matches) => matches(record)));

    const sort = query.get("_sort");
    if (sort) records = sortRecords(records, sort.split(","), (query.get("_order") ?? "").split(","));

    const page = wholeNumber(query.get("_page"));
    const limit = wholeNumber(query.get("_limit"));
    const start = wholeNumber(query.get("_start")) ?? 0;
    const end = wholeNumber(query.get("_end"));
    if (page !== undefined) {
      const size = limit || 10;
      const from = (Math.max(page, 1) - 1) * size;
      return success({ records: records.slice(from, from + size), total: records.length });
    }
    if (end !== undefined) return success({ records: records.slice(start, end), total: records.length });
    if (limit !== undefined) return success({ records: records.slice(start, start + limit), total: records.length });
    return success({ records });
  }

  /** `GET /__db/<collection>/<id>` */
  get(collection: string, id: string): Outcome<StoredRecord> {
    return this.#existing(collection, id);
  }

  /** `POST /__db/<collection>`: adds a record; without an `id` it gets the next nid (the next uid, for an account). */
  create(collection: string, body: unknown): Outcome<StoredRecord> {
    const name = collectionOf(collection);
    if (!name) return unknownCollection(collection);
    if (!isPlainObject(body)) return notAnObject();
    const record: Record<string, unknown> = { ...body };
    if (record.id === undefined) record.id = name === "accounts" ? this.#store.nextUid() : this.#store.nextId();
    return this.#put(name, record, "new");
  }

  /** `PUT /__db/<collection>/<id>`: replaces the whole record (its id is the one in the path). */
  replace(collection: string, id: string, body: unknown): Outcome<StoredRecord> {
    const found = this.#existing(collection, id);
    if (!found.ok) return found;
    if (!isPlainObject(body)) return notAnObject();
    return this.#put(collectionOf(collection)!, { ...body, id: found.value.id }, "existing");
  }

  /** `PATCH /__db/<collection>/<id>`: changes the fields the body names; the result must still have the stored shape. */
  patch(collection: string, id: string, body: unknown): Outcome<StoredRecord> {
    const found = this.#existing(collection, id);
    if (!found.ok) return found;
    if (!isPlainObject(body)) return notAnObject();
    // A body wider than any record is invalid whatever it holds past its first fields, so only those are
    // merged: spreading 30,000 fields into a record took longer than all the rest of the check.
    const keys = Object.keys(body);
    const changes = keys.length > MAX_CHECKED_KEYS ? Object.fromEntries(keys.slice(0, MAX_CHECKED_KEYS).map((key) => [key, body[key]])) : body;
    return this.#put(collectionOf(collection)!, { ...found.value, ...changes, id: found.value.id }, "existing");
  }

  /** `DELETE /__db/<collection>/<id>` */
  remove(collection: string, id: string): Outcome<Record<string, never>> {
    const found = this.#existing(collection, id);
    if (!found.ok) return found;
    this.#store.removeRaw(collectionOf(collection)!, found.value);
    return success({});
  }

  #existing(collection: string, id: string): Outcome<StoredRecord> {
    const name = collectionOf(collection);
    if (!name) return unknownCollection(collection);
    const record = CANONICAL_ID.test(id) && Number.isSafeInteger(Number(id)) ? this.#store.record(name, Number(id)) : undefined;
    return record ? success(record) : failure("notFound", `No record ${name}/${clip(id)}: ids are positive whole numbers in plain decimal, up to 9007199254740991.`);
  }

  #put(collection: CollectionName, value: Record<string, unknown>, expect: "new" | "existing"): Outcome<StoredRecord> {
    const check = this.#validate(collection, value);
    if (!check.ok) return invalidRecord(collection, check.errors, check.atLeast);
    if (expect === "new" && this.#store.record(collection, check.record.id)) {
      return failure("rawIdTaken", `${collection}/${check.record.id} already exists; change it with PUT or PATCH, or leave the id out to get a new one.`, [
        { in: "body", pointer: "/id", detail: "is taken" },
      ]);
    }
    if (collection === "accounts") {
      const holder = this.#store.accountByKey((check.record as { apiKey: string }).apiKey);
      if (holder && holder.id !== check.record.id) {
        return failure("rawIdTaken", `The apiKey already opens account ${holder.id}; an API key opens one account.`, [{ in: "body", pointer: "/apiKey", detail: "is taken" }]);
      }
    }
    this.#store.putRaw(collection, check.record);
    return success(check.record);
  }
}

function collectionOf(name: string): CollectionName | undefined {
  return (COLLECTIONS as readonly string[]).includes(name) ? (name as CollectionName) : undefined;
}

function unknownCollection(name: string): Outcome<never> {
  return failure("notFound", `No collection ${clip(name)} under /__db; there are ${COLLECTIONS.join(", ")}.`);
}

function notAnObject(): Outcome<never> {
  return failure("invalidRequest", "A raw record is a JSON object.", [{ in: "body", pointer: "", detail: "must be an object" }]);
}

function invalidRecord(collection: CollectionName, errors: FieldError[], atLeast: boolean): Outcome<never> {
  const capped = capFieldErrors(errors, `The record breaks the stored shape of ${collection}`, atLeast);
  return failure("invalidRequest", capped.detail, capped.errors);
}

function badQuery(key: string, detail: string): Outcome<never> {
  return failure("invalidRequest", `The query parameter ${clip(key)} ${detail}.`, [{ in: "query", pointer: `/${clip(key)}`, detail }]);
}

/**
 * One field filter of json-server's list: `field=a&field=b` (equal to either, compared as text), `field_ne`
 * (equal to none), `field_lte`/`field_gte` (numbers compared as numbers, otherwise as text), `field_like`
 * (contains the text, case-insensitive). A dotted field reaches into nested values (`virtual_tours.7.title`).
 */
function fieldFilter(key: string, values: string[]): (record: StoredRecord) => boolean {
  const operator = /_(ne|lte|gte|like)$/.exec(key)?.[1];
  const path = (operator ? key.slice(0, -operator.length - 1) : key).split(".");
  const needles = operator === "like" ? values.map((value) => value.toLowerCase()) : values;
  return (record) => {
    const found = valueAt(record, path);
    if (found === undefined || found === null) return false;
    const text = typeof found === "object" ? JSON.stringify(found) : String(found);
    switch (operator) {
      case "ne":
        return needles.every((value) => value !== text);
      case "lte":
        return needles.some((value) => compare(found, value) <= 0);
      case "gte":
        return needles.some((value) => compare(found, value) >= 0);
      case "like":
        return needles.some((value) => text.toLowerCase().includes(value));
      default:
        return needles.some((value) => value === text);
    }
  };
}

/** A field's value by a dotted path, through own fields only (a query never reaches a prototype). */
function valueAt(record: unknown, path: string[]): unknown {
  let node = record;
  for (const key of path) {
    if (node === null || typeof node !== "object" || !Object.hasOwn(node, key)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

function compare(found: unknown, value: string): number {
  const number = Number(value);
  if (typeof found === "number" && value.trim() !== "" && Number.isFinite(number)) return found - number;
  const text = String(found);
  if (/^-?[0-9]+(\.[0-9]+)?$/.test(text) && Number.isFinite(number) && value.trim() !== "") return Number(text) - number;
  return text < value ? -1 : text > value ? 1 : 0;
}

/** Whether any value in a record, at any depth up to `depth`, contains the (lower-case) text. */
function containsText(node: unknown, needle: string, depth: number): boolean {
  if (node === null || node === undefined) return false;
  if (typeof node !== "object") return String(node).toLowerCase().includes(needle);
  if (depth === 0) return false;
  return Object.values(node).some((value) => containsText(value, needle, depth - 1));
}

function sortRecords(records: StoredRecord[], fields: string[], orders: string[]): StoredRecord[] {
  const keys = fields.map((field, index) => ({ path: field.split("."), sign: orders[index]?.toLowerCase() === "desc" ? -1 : 1 }));
  return [...records].sort((a, b) => {
    for (const { path, sign } of keys) {
      const left = valueAt(a, path);
      const right = valueAt(b, path);
      if (left === right) continue;
      if (left === undefined || left === null) return 1;
      if (right === undefined || right === null) return -1;
      const order = typeof left === "number" && typeof right === "number" ? left - right : String(left) < String(right) ? -1 : 1;
      if (order !== 0) return order * sign;
    }
    return 0;
  });
}

function wholeNumber(text: string | null): number | undefined {
  if (text === null || !/^[0-9]{1,9}$/.test(text)) return undefined;
  return Number(text);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function clip(text: string): string {
  return text.length > 100 ? `${text.slice(0, 99)}…` : text;
}
