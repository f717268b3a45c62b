/**
 * Documents and floorplans (section 2.3) and endpoints 11 to 14. A document points at one of the caller's
 * properties; the floorplan documents of a property make up its `floorplans` (2.1).
 */
import type { Account } from "./accounts.ts";
import { slashed } from "./agent-book.ts";
import { nidSequence, NID_STARTS } from "./nid-sequence.ts";
import type { FloorplanEntry } from "./property-book.ts";
import { denied, invalid, malformed, notFound, ok, type Reply } from "./reply.ts";
import type { Faults } from "./variants.ts";

const TEXT_FIELDS = ["title", "file_url", "category"] as const;
const FLAG_FIELDS = ["visible", "is_floorplan", "Show_on_unbranded"] as const;

interface DocumentRecord {
  nid: number;
  uid: number;
  propertyReference: number;
  text: Map<string, string>;
  flags: Map<string, boolean>;
  created: number;
  changed: number;
  deleted: boolean;
}

/** The document endpoints, each taking the authenticated caller, and the floorplans of a property. */
export interface DocumentBook {
  create(caller: Account, body: unknown): Reply;
  update(caller: Account, nid: string, body: unknown): Reply;
  retrieve(caller: Account, nid: string): Reply;
  remove(caller: Account, nid: string): Reply;
  floorplansOf(propertyNid: number): FloorplanEntry[];
}

interface DocumentBookOptions {
  faults: Faults;
  /** Whether the caller owns a property: a document may only point at one of the caller's own. */
  ownsProperty: (caller: Account, nid: number) => boolean;
  now?: () => number;
}

type Parsed =
  | { ok: true; text: Map<string, string>; flags: Map<string, boolean>; propertyReference?: number }
  | { ok: false; error: string };

function readDocument(body: unknown): Parsed {
  if (typeof body !== "object" || body === null || Array.isArray(body))
    return { ok: false, error: "body must be a JSON object" };
  const fields = body as Record<string, unknown>;
  const parsed: Parsed = { ok: true, text: new Map(), flags: new Map() };
  for (const field of TEXT_FIELDS) {
    const value = fields[field];
    if (value === undefined) continue;
    if (typeof value !== "string") return { ok: false, error: `${field} must be a string` };
    parsed.text.set(field, value);
  }
  for (const field of FLAG_FIELDS) {
    const value = fields[field];
    if (value === undefined) continue;
    if (typeof value !== "boolean") return { ok: false, error: `${field} must be a boolean` };
    parsed.flags.set(field, value);
  }
  const reference = fields.property_reference;
  if (reference !== undefined) {
    const text = typeof reference === "number" && Number.isInteger(reference) ? String(reference) : reference;
    if (typeof text !== "string" || !/^\d{1,15}$/.test(text))
      return { ok: false, error: "property_reference must be an integer" };
    parsed.propertyReference = Number(text);
  }
  return parsed;
}

/** Creates a document book with no documents. */
export function documentBook(options: DocumentBookOptions): DocumentBook {
  const { faults } = options;
  const now = options.now ?? (() => Math.floor(Date.now() / 1000));
  const nids = faults.chooses("small-sequential-nids") ? nidSequence(1, 1) : nidSequence(NID_STARTS.document);
  const records: DocumentRecord[] = [];

  const find = (caller: Account, nid: string): DocumentRecord | Reply => {
    if (!/^\d{1,15}$/.test(nid)) return malformed("nid must be an integer");
    const record = records.find(
      (r) => r.nid === Number(nid) && (!r.deleted || faults.on("deleted-document-still-retrievable")),
    );
    if (record !== undefined && record.uid !== caller.uid && faults.chooses("foreign-records-403"))
      return denied(`document ${nid} is not yours`);
    return record !== undefined && record.uid === caller.uid ? record : notFound(`no document ${nid}`);
  };

  const view = (record: DocumentRecord): Record<string, unknown> => {
    const flag = (field: string) => {
      const value = record.flags.get(field);
      if (value === undefined) return null;
      return faults.on("document-booleans-as-numbers") && field !== "Show_on_unbranded" ? Number(value) : value;
    };
    const time = (t: number) => (faults.on("document-timestamps-as-strings") ? String(t) : t);
    return {
      nid: String(record.nid),
      created: time(record.created),
      changed: time(record.changed),
      title: record.text.get("title") ?? null,
      property_reference: faults.on("property-reference-as-string")
        ? String(record.propertyReference)
        : record.propertyReference,
      file_url: record.text.has("file_url") ? slashed(record.text.get("file_url")!, faults) : null,
      visible: flag("visible"),
      category: record.text.get("category") ?? null,
      is_floorplan: flag("is_floorplan"),
      [faults.on("show-on-unbranded-lowercased") ? "show_on_unbranded" : "Show_on_unbranded"]:
        flag("Show_on_unbranded"),
      // Undocumented extras: allowed (issue 8, item 3).
      ...(faults.chooses("no-extra-fields") ? {} : { uid: String(record.uid), status: "stored" }),
    };
  };

  return {
    create(caller, body) {
      const input = readDocument(body);
      if (!input.ok) return invalid(input.error);
      if (input.propertyReference === undefined) return invalid("property_reference is required");
      if (!options.ownsProperty(caller, input.propertyReference))
        return invalid(`property_reference ${input.propertyReference} is not one of your properties`);
      if (faults.on("document-drops-category")) input.text.delete("category");
      const time = now();
      const record: DocumentRecord = {
        nid: nids.next(),
        uid: caller.uid,
        propertyReference: input.propertyReference,
        text: input.text,
        flags: input.flags,
        created: time,
        changed: time,
        deleted: false,
      };
      records.push(record);
      return ok({
        nid: faults.on("document-create-nid-as-string") ? String(record.nid) : record.nid,
        ...(faults.chooses("no-extra-fields") ? {} : { status: "created" }),
      });
    },

    update(caller, nid, body) {
      const record = find(caller, nid);
      if ("status" in record) return record;
      const input = readDocument(body);
      if (!input.ok) return invalid(input.error);
      if (input.propertyReference !== undefined && !options.ownsProperty(caller, input.propertyReference)) {
        return invalid(`property_reference ${input.propertyReference} is not one of your properties`);
      }
      if (faults.on("document-update-ignores-visible")) input.flags.delete("visible");
      for (const [field, value] of input.text) record.text.set(field, value);
      for (const [field, value] of input.flags) record.flags.set(field, value);
      if (input.propertyReference !== undefined) record.propertyReference = input.propertyReference;
      record.changed = now();
      return ok({ nid: faults.on("document-update-nid-as-number") ? record.nid : String(record.nid) });
    },

    retrieve(caller, nid) {
      const record = find(caller, nid);
      return "status" in record ? record : ok(view(record));
    },

    remove(caller, nid) {
      const record = find(caller, nid);
      if ("status" in record) return record;
      record.deleted = true;
      return ok(faults.on("delete-document-answers-object") ? { deleted: true } : [true]);
    },

    floorplansOf(propertyNid) {
      if (faults.on("floorplan-not-on-property")) return [];
      return records
        .filter((r) => r.propertyReference === propertyNid)
        .filter((r) => r.flags.get("is_floorplan") === true || faults.on("document-not-floorplan-on-property"))
        .filter((r) => !r.deleted || faults.on("floorplan-stays-after-delete"))
        .sort((a, b) => (faults.chooses("lists-oldest-first") ? a.nid - b.nid : b.nid - a.nid))
        .map((r) => ({
          nid: r.nid,
          title: r.text.get("title") ?? null,
          floorplan_url: r.text.get("file_url") ?? null,
        }));
    },
  };
}
