/**
 * Properties (section 2.1) and their endpoints 1 to 5: storage, ownership and the documented representation
 * (strings for every scalar, null for absent values, compact property_type, garage as a count).
 */
import { randomBytes } from "node:crypto";
import type { Account } from "./accounts.ts";
import { nidSequence, NID_STARTS } from "./nid-sequence.ts";
import { readCreate, readEdit, SETTABLE_FIELDS } from "./property-input.ts";
import { invalid, malformed, notFound, denied, ok, type Reply } from "./reply.ts";
import type { Faults } from "./variants.ts";

interface PropertyRecord {
  nid: number;
  uid: number;
  values: Map<string, string>;
  /** Made by the service at start, not through the API. */
  seeded: boolean;
  changed: number;
  revisions: number;
  /** Fields shown as stored, without their documented representation (variant garage-detached-word-on-create). */
  verbatim: Set<string>;
  /** Fields answered as a JSON number, as they were sent (variant number-for-string-kept-as-number). */
  numbers: Set<string>;
}

/** One entry of a property's `floorplans` (2.1). */
export interface FloorplanEntry {
  nid: number;
  title: string | null;
  floorplan_url: string | null;
}

/** What the property book needs from outside. */
export interface PropertyBookOptions {
  faults: Faults;
  /** The base URL the `uri` answers start with (known once the server listens). */
  baseUrl: () => string;
  /** The floorplan documents of a property, newest first (2.1: derived from its documents). */
  floorplansOf: (propertyNid: number) => FloorplanEntry[];
  now?: () => number;
}

/** The property endpoints, each taking the authenticated caller. */
export interface PropertyBook {
  retrieve(caller: Account, nid: string): Reply;
  retrieveByExternalId(caller: Account, externalId: string): Reply;
  create(caller: Account, body: unknown): Reply;
  edit(caller: Account, nid: string, body: unknown): Reply;
  listByUser(caller: Account, uid: string): Reply;
  /** Whether the caller owns the property (documents may only point at the caller's own properties). */
  owns(caller: Account, nid: number): boolean;
  /** Adds a property as if it had always been there (the starting data of an instance). */
  seed(owner: Account, values: Record<string, string>): number;
}

/** Garage words as counts (2.1: "a count-like numeric string"); which count a word means is not documented. */
const GARAGE_COUNTS: Record<string, string> = { attached: "2", detached: "1", none: "0" };
/** Another reading of the same words (legitimate variant garage-counts-otherwise). */
const OTHER_GARAGE_COUNTS: Record<string, string> = { attached: "1", detached: "2", none: "0" };

/**
 * The site address a service may compute instead of storing (legitimate variant website-url-derived): the
 * subdomain under the service's own domain, written without a trailing slash.
 */
function derivedWebsite(values: Map<string, string>): string | null {
  const sub = values.get("subdomain");
  return sub ? `https://${sub.toLowerCase()}.listings.example` : null;
}

/** Fields 2.1 types as numeric strings; the list-price variant turns one of them into a JSON number. */
const _NUMERIC_VIEW = new Set([
  "list_price",
  "square_feet",
  "stories",
  "bedrooms",
  "baths",
  "half_baths",
  "year_built",
  "parking_spaces",
]);

/** Creates an empty property book. */
export function propertyBook(options: PropertyBookOptions): PropertyBook {
  const { faults } = options;
  const now = options.now ?? (() => Math.floor(Date.now() / 1000));
  const nids = faults.chooses("small-sequential-nids") ? nidSequence(1, 1) : nidSequence(NID_STARTS.property);
  const records: PropertyRecord[] = [];

  const find = (caller: Account, given: string): PropertyRecord | Reply => {
    const nid =
      faults.chooses("nid-parsed-leniently") && /^\d/.test(given) ? String(Number.parseInt(given, 10)) : given;
    if (!/^\d{1,15}$/.test(nid)) return malformed("nid must be an integer");
    const record = records.find((r) => r.nid === Number(nid));
    if (record !== undefined && record.uid !== caller.uid && faults.chooses("foreign-records-403"))
      return denied(`property ${nid} is not yours`);
    // Another account's property is invisible: the same answer as one that does not exist.
    return record !== undefined && record.uid === caller.uid ? record : notFound(`no property ${nid}`);
  };

  const uri = (relative: boolean, foreign = false, tokenless = false): string => {
    const path = tokenless ? "/autologin" : `/autologin/${randomBytes(16).toString("hex")}`;
    if (foreign) return `https://login.elsewhere.example${path}`;
    return relative ? path : `${options.baseUrl()}${path}`;
  };

  const view = (record: PropertyRecord): Record<string, unknown> => {
    const out: Record<string, unknown> = {
      nid: String(record.nid),
      uid: faults.on("uid-as-number") ? record.uid : String(record.uid),
    };
    for (const field of SETTABLE_FIELDS) {
      let value: unknown = record.values.get(field);
      if (value === undefined) {
        if (faults.on("unset-fields-omitted")) continue;
        out[field] = faults.on("unset-fields-as-empty-string") ? "" : null;
        continue;
      }
      const text = value as string;
      if (record.numbers.has(field)) {
        out[field] = Number(text);
        continue;
      }
      if (record.verbatim.has(field)) {
        out[field] = text;
        continue;
      }
      if (field === "garage" && !faults.on("garage-as-word") && !(faults.on("garage-none-as-word") && text === "None"))
        value =
          (faults.chooses("garage-counts-otherwise") ? OTHER_GARAGE_COUNTS : GARAGE_COUNTS)[text.toLowerCase()] ?? text;
      if (
        field === "property_type" &&
        !faults.on("property-type-not-compacted") &&
        !(faults.on("property-type-town-house-spaced") && text === "Town House")
      )
        value = text.replace(/\s+/g, "");
      if (field === "lot_size" && faults.on("lot-size-separator-stripped")) value = text.replace(/,/g, "");
      if (field === "description" && faults.on("description-html-stripped")) value = text.replace(/<[^>]*>/g, "");
      if (field === "premise" && text === "" && faults.on("premise-empty-string-as-null")) value = null;
      if (field === "list_price" && faults.on("list-price-as-number")) value = Number(text);
      if (field === "list_price" && faults.chooses("decimal-numbers")) value = Number(text).toFixed(2);
      if (field === "amenities" && faults.on("amenities-item-dropped")) value = text.split(",").slice(1).join(",");
      if (field === "list_price" && faults.on("list-price-rounded") && record.revisions > 1)
        value = String(Math.round(Number(text) / 1000) * 1000 + 1000);
      if (field === "amenities" && faults.chooses("amenities-spaced"))
        value = text
          .split(",")
          .map((item) => item.trim())
          .join(", ");
      out[field] = value;
    }
    if (faults.chooses("website-url-derived")) out.website_url = derivedWebsite(record.values);
    out.open_houses = null;
    out.virtual_tours = faults.on("virtual-tours-null") ? null : faults.on("virtual-tours-empty-object") ? {} : [];
    out.property_videos = {};
    const floorplans: Record<string, unknown> = {};
    for (const plan of options.floorplansOf(record.nid)) {
      floorplans[String(plan.nid)] = {
        nid: faults.on("floorplan-nid-as-number") ? plan.nid : String(plan.nid),
        title: plan.title,
        floorplan_url: plan.floorplan_url,
      };
    }
    out.floorplans = floorplans;
    if (faults.chooses("no-extra-fields")) return out;
    // Undocumented extras: allowed (issue 8, item 3).
    out.language = "und";
    out.revision_count = String(record.revisions);
    out.changed = record.changed;
    return out;
  };

  /** Newest first (the list's order is this implementation's choice, 4.5), or oldest first as a variant. */
  const newestFirst = (): PropertyRecord[] =>
    [...records].sort((a, b) => (faults.chooses("lists-oldest-first") ? a.nid - b.nid : b.nid - a.nid));
  const extra = (fields: Record<string, unknown>): Record<string, unknown> =>
    faults.chooses("no-extra-fields") ? {} : fields;

  /** The defect of a service that inserts the row first and checks the body after: the required fields stay stored. */
  const storeBeforeChecking = (caller: Account, body: unknown): void => {
    if (typeof body !== "object" || body === null) return;
    const given = body as Record<string, unknown>;
    const values = new Map<string, string>();
    for (const field of ["street", "city", "state", "zip"])
      if (typeof given[field] === "string") values.set(field, given[field]);
    if (values.size === 4)
      records.push({
        nid: nids.next(),
        uid: caller.uid,
        values,
        seeded: false,
        changed: now(),
        revisions: 1,
        verbatim: new Set(),
        numbers: new Set(),
      });
  };

  return {
    retrieve(caller, nid) {
      const record = find(caller, nid);
      return "status" in record ? record : ok(view(record));
    },

    retrieveByExternalId(caller, externalId) {
      const record = faults.on("external-lookup-not-found")
        ? undefined
        : newestFirst().find((r) => r.uid === caller.uid && r.values.get("external_id") === externalId);
      return record === undefined ? notFound(`no property with external id ${externalId}`) : ok(view(record));
    },

    create(caller, body) {
      const input = readCreate(body, faults);
      if (!input.ok) {
        if (faults.on("create-refused-after-insert")) storeBeforeChecking(caller, body);
        return invalid(input.error);
      }
      const record: PropertyRecord = {
        nid: nids.next(),
        uid: caller.uid,
        values: input.values,
        seeded: false,
        changed: now(),
        revisions: 1,
        verbatim: input.verbatim,
        numbers: input.numbers,
      };
      if (faults.on("garage-detached-word-on-create") && input.values.get("garage") === "Detached")
        record.verbatim.add("garage");
      records.push(record);
      return ok(
        {
          nid: String(record.nid),
          uri: uri(faults.on("create-uri-relative"), faults.on("create-uri-foreign-host")),
          ...extra({ status: "created" }),
        },
        faults.on("create-answers-201") ? 201 : 200,
      );
    },

    edit(caller, nid, body) {
      const record = find(caller, nid);
      if ("status" in record) return record;
      const input = readEdit(body, faults);
      if (!input.ok) return invalid(input.error);
      if (faults.chooses("website-url-derived")) input.values.delete("website_url");
      for (const [field, value] of input.values) {
        record.values.set(field, value);
        record.verbatim.delete(field);
        if (input.numbers.has(field)) record.numbers.add(field);
        else record.numbers.delete(field);
      }
      record.changed = now();
      record.revisions += 1;
      return ok(
        faults.on("edit-answers-no-uri")
          ? { nid: String(record.nid), ...extra({ status: "updated" }) }
          : {
              nid: String(record.nid),
              uri: uri(false, false, faults.on("edit-uri-no-token")),
              ...extra({ status: "updated" }),
            },
      );
    },

    listByUser(caller, uid) {
      if (!/^\d{1,15}$/.test(uid)) return malformed("uid must be an integer");
      if (Number(uid) !== caller.uid) return denied("you may only list your own properties");
      const items = newestFirst()
        .filter((r) => r.uid === caller.uid)
        .filter((r) => r.seeded || !faults.on("list-by-user-misses-created-property"))
        .map((r) => ({
          nid: String(r.nid),
          published: faults.on("published-as-number") ? 1 : "1",
          title: r.values.get("title") ?? null,
          external_id: faults.on("list-by-user-external-id-null") ? null : (r.values.get("external_id") ?? null),
          ...extra({ changed: r.changed }),
        }));
      return ok(items);
    },

    owns(caller, nid) {
      return records.some((r) => r.nid === nid && r.uid === caller.uid);
    },

    seed(owner, values) {
      const record: PropertyRecord = {
        nid: nids.next(),
        uid: owner.uid,
        values: new Map(Object.entries(values)),
        seeded: true,
        changed: now(),
        revisions: 1,
        verbatim: new Set(),
        numbers: new Set(),
      };
      records.push(record);
      return record.nid;
    },
  };
}
