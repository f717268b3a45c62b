/**
 * The records the mock keeps, one collection each, in json-server's `db.json` shape. Records hold the service's
 * field values in the form the API answers them (strings, or null) so that retrieving is a projection, plus the
 * internal `id` (the key, as in json-server; the nid as a number) and the owning account's `uid`.
 */
import type { components } from "../../generated/openapi.ts";

type Schemas = components["schemas"];

/** An API account: the credentials that open it and its agent seat limit. */
export interface AccountRecord {
  /** The account's user id (`uid`). */
  id: number;
  apiKey: string;
  token: string;
  agentSeats: number;
  /** A label for people reading the store. */
  name: string;
}

/**
 * The fields every property of the mock has a value for (the mock gives them a default on create), although
 * section 2.1 lets a service answer null for any field the property never had a value for.
 */
type AlwaysSet =
  | "street"
  | "premise"
  | "city"
  | "state"
  | "zip"
  | "country"
  | "title"
  | "lot_size_units"
  | "half_baths"
  | "intent"
  | "subdomain"
  | "website_url"
  | "template"
  | "main_image"
  | "edit_access"
  | "show_on_property"
  | "logo";

/** A property: every field of section 2.1 except the derived `nid`, `uid` and `floorplans`. */
export type PropertyRecord = Omit<Schemas["Property"], "nid" | "uid" | "floorplans" | AlwaysSet> & {
  [Field in AlwaysSet]: NonNullable<Schemas["Property"][Field]>;
} & {
  id: number;
  uid: number;
  /** The flag of the list-by-user item (endpoint 5): '1' published, '0' not. */
  published: Schemas["PropertyListItem"]["published"];
};

/** An agent card of an account: every field of section 2.2 except `id`. */
export type AgentRecord = Omit<Schemas["AgentCard"], "id"> & {
  id: number;
  uid: number;
};

/** A document or floorplan of an account: every field of section 2.3 except `nid`. */
export type DocumentRecord = Omit<Schemas["Document"], "nid"> & {
  id: number;
  uid: number;
};

/** The whole state of the mock: what `fixtures/db.json` holds and what `/__db` serves. */
export interface Database {
  accounts: AccountRecord[];
  properties: PropertyRecord[];
  agents: AgentRecord[];
  documents: DocumentRecord[];
}

/** The collections of a {@link Database}, in the order they are written. */
export const COLLECTIONS = ["accounts", "properties", "agents", "documents"] as const;
export type CollectionName = (typeof COLLECTIONS)[number];

/** A record of any collection, as the raw routes see it. */
export type StoredRecord = Database[CollectionName][number];
