import type { components } from "../../generated/openapi.ts";
import type { JsonBytes } from "../json-bytes.ts";
import { failure, foreign, success, type Outcome } from "../problems.ts";
import type { MockStore } from "../store/mock-store.ts";
import type { AccountRecord, PropertyRecord } from "../store/records.ts";
import type { AutologinTokens } from "./autologin-tokens.ts";
import { EncodedPropertyLists } from "./encoded-property-lists.ts";
import { EncodedRetrievals } from "./encoded-retrievals.ts";
import { ownedBy } from "./owned-by.ts";

type Schemas = components["schemas"];

/** The template a property gets when its create body names none. */
export const DEFAULT_TEMPLATE: Schemas["CreatableTemplate"] = "rubik_v2";

/** Garage kinds of the create body as the count-like string a retrieved property carries (section 2.1). */
const GARAGE_COUNT: Record<Schemas["GarageType"], string> = { Attached: "1", Detached: "1", None: "0" };

/** Collaborators of {@link PropertyService}. */
export interface PropertyServiceDeps {
  store: MockStore;
  tokens: AutologinTokens;
  /**
   * The auto-login address for a token: `{base_url}/autologin/<token>`, where the base is the configured one, or
   * else the address the client used (`host`, its `Host` header) when the mock admits that host.
   */
  autologinUrl: (token: string, host?: string) => string;
  /** List a user's properties newest first (a service profile's order); in the order they were added otherwise. */
  newestFirst?: boolean;
  /**
   * What an edit does to derived fields (a service profile's choice; section 4.1 is silent): whether the title
   * follows an edited street (`kept` by default), and whether an edited website is taken as sent (`as-edited`, the
   * default), derived from the subdomain whatever was sent (`from-subdomain`), or left as it was (`kept`).
   */
  derived?: { title: "kept" | "follows-street"; website_url: "as-edited" | "from-subdomain" | "kept" };
  /**
   * Whether a property may take the external id another property of the account has (a service profile's
   * choice; section 4.1 is silent): then the external lookup finds the property that took it last.
   */
  sharedExternalIds?: boolean;
  /** Undocumented fields each list item carries (a service profile's), encoded as JSON object members. */
  listItemExtra?: string;
  /** Undocumented fields a retrieved property carries (a service profile's), encoded as JSON object members. */
  propertyExtra?: string;
  /**
   * What a field the create body does not set holds instead of the mock's own value (a service profile's
   * `unset.property`: null, or empty, as the service shows a field never set; section 2.1 reads it as absent).
   */
  neverSet?: Readonly<Record<string, null | "">>;
}

/** Properties (section 4.1, endpoints 1 to 5): each account sees and changes only its own. */
export class PropertyService {
  readonly #deps: PropertyServiceDeps;
  readonly #lists: EncodedPropertyLists;
  readonly #retrievals: EncodedRetrievals;

  constructor(deps: PropertyServiceDeps) {
    this.#deps = deps;
    this.#lists = new EncodedPropertyLists(deps.store, deps.newestFirst, deps.listItemExtra);
    this.#retrievals = new EncodedRetrievals(deps.store, deps.propertyExtra);
  }

  /** Endpoint 1, encoded (encoded-retrievals.ts keeps the answers): what the API answers. */
  retrieveJson(account: AccountRecord, nid: number): Outcome<JsonBytes> {
    const owner = this.#deps.store.propertyOwner(nid);
    if (owner !== account.id)
      return foreign(failure("notFound", `No property with nid ${nid} for this account.`), owner !== undefined);
    return success(this.#retrievals.answerFor(nid)!);
  }

  /** Endpoint 2, already encoded. */
  retrieveByExternalIdJson(account: AccountRecord, externalId: string): Outcome<JsonBytes> {
    const id = this.#deps.store.propertyIdByExternalId(account.id, externalId);
    if (id === undefined)
      return failure("notFound", `No property with the external id ${JSON.stringify(externalId)} for this account.`);
    return success(this.#retrievals.answerFor(id)!);
  }

  /**
   * Endpoint 3. Numbers sent as integers are kept as numeric strings; fields the body does not set are null
   * where the record has nothing to say (section 2.1) and take a sensible default where every property has one.
   */
  create(
    account: AccountRecord,
    body: Schemas["PropertyCreate"],
    host?: string,
  ): Outcome<Schemas["PropertyWriteResult"]> {
    const { store } = this.#deps;
    if (body.external_id !== undefined && !this.#deps.sharedExternalIds) {
      const holder = store.propertyByExternalId(account.id, body.external_id);
      if (holder) return externalIdTaken(body.external_id, holder.id);
    }
    const id = store.nextId();
    const subdomain = `${slugify(body.street)}-${id}`;
    const record: PropertyRecord = {
      id,
      uid: account.id,
      street: body.street,
      premise: "",
      city: body.city,
      state: body.state,
      zip: body.zip,
      country: "US",
      title: body.street,
      description: body.description ?? null,
      amenities: null,
      list_price: numeric(body.list_price),
      display_price: null,
      square_feet: numeric(body["square feet"]),
      lot_size: body.lot_size ?? null,
      lot_size_units: "sqft",
      stories: numeric(body.stories),
      bedrooms: numeric(body.bedrooms),
      baths: numeric(body.baths),
      half_baths: "0",
      garage: body.garage === undefined ? null : GARAGE_COUNT[body.garage],
      parking_spaces: numeric(body.parking_spaces),
      listing_status: null,
      property_type: body.property_type === undefined ? null : compactPropertyType(body.property_type),
      year_built: numeric(body.year_built),
      open_houses: null,
      subdomain,
      custom_domain: null,
      mls_id: null,
      template: body.template ?? DEFAULT_TEMPLATE,
      api_author: String(account.id),
      main_image: "0",
      edit_access: "0",
      show_on_property: "0",
      logo: "0",
      external_id: body.external_id ?? null,
      skip_zlookup: null,
      intent: "sale",
      sns_id: null,
      listtrack_property_id: null,
      website_url: siteUrl(subdomain),
      virtual_tours: [],
      property_videos: {},
      published: "1",
    };
    const given = new Set(Object.keys(body).map((field) => (field === "square feet" ? "square_feet" : field)));
    for (const [field, value] of Object.entries(this.#deps.neverSet ?? {})) {
      if (!given.has(field) && field in record && field !== "uid" && field !== "id")
        (record as unknown as Record<string, unknown>)[field] = value;
    }
    store.add("properties", record);
    return success(this.#writeResult(record, host));
  }

  /** Endpoint 4: changes only the fields the body names. An empty `external_id` removes the external id. */
  edit(
    account: AccountRecord,
    nid: number,
    body: Schemas["PropertyEdit"],
    host?: string,
  ): Outcome<Schemas["PropertyWriteResult"]> {
    const { store } = this.#deps;
    const property = this.#own(account, nid);
    if (!property)
      return foreign(
        failure("notFound", `No property with nid ${nid} for this account.`),
        this.#deps.store.record("properties", nid) !== undefined,
      );
    const { garage, property_type, external_id, ...plain } = body;
    const changes: Partial<PropertyRecord> = { ...plain };
    if (garage !== undefined) changes.garage = isGarageType(garage) ? GARAGE_COUNT[garage] : garage;
    if (property_type !== undefined) changes.property_type = compactPropertyType(property_type);
    if (external_id !== undefined) {
      const holder =
        external_id === "" || this.#deps.sharedExternalIds
          ? undefined
          : store.propertyByExternalId(account.id, external_id);
      if (holder && holder.id !== property.id) return externalIdTaken(external_id, holder.id);
      changes.external_id = external_id === "" ? null : external_id;
    }
    if (plain.subdomain !== undefined && plain.website_url === undefined)
      changes.website_url = siteUrl(plain.subdomain);
    const derived = this.#deps.derived ?? OWN_DERIVATIONS;
    if (derived.title === "follows-street" && plain.street !== undefined && plain.title === undefined)
      changes.title = plain.street;
    const subdomain = plain.subdomain ?? property.subdomain;
    // A property whose subdomain was never set (a profile's null) has no site to derive.
    if (derived.website_url === "from-subdomain" && subdomain !== null) changes.website_url = siteUrl(subdomain);
    if (derived.website_url === "kept") delete changes.website_url;
    store.update("properties", property, changes);
    return success(this.#writeResult(property, host));
  }

  /**
   * Endpoint 5, already encoded (the list items of the user's properties, kept between answers until a property
   * changes). An account lists only its own properties: any other uid, another account's or none at all, answers
   * the same 404, which neither claims the user does not exist nor tells whether it does, and names the caller's uid.
   */
  listByUserJson(account: AccountRecord, uid: number): Outcome<JsonBytes> {
    if (uid !== account.id) {
      return failure(
        "notFound",
        `No properties of uid ${uid} for this account: an account lists only its own, and this account is ` +
          `uid ${account.id}.`,
      );
    }
    return success(this.#lists.answerFor(uid));
  }

  #own(account: AccountRecord, nid: number): PropertyRecord | undefined {
    return ownedBy(this.#deps.store.record("properties", nid), account);
  }

  #writeResult(property: PropertyRecord, host: string | undefined): Schemas["PropertyWriteResult"] {
    return { nid: String(property.id), uri: this.#deps.autologinUrl(this.#deps.tokens.issue(property.id), host) };
  }
}

/** The mock's own choices for derived fields on edit: the title stays, the website is taken as edited. */
const OWN_DERIVATIONS: NonNullable<PropertyServiceDeps["derived"]> = { title: "kept", website_url: "as-edited" };

/** The compact form of a property type: the create value without its spaces (section 2.1). */
export function compactPropertyType(type: string): NonNullable<Schemas["Property"]["property_type"]> {
  return type.replace(/ /g, "") as NonNullable<Schemas["Property"]["property_type"]>;
}

/** The property site's address for a subdomain. */
export function siteUrl(subdomain: string): string {
  return `https://${subdomain}.sites.property-listing.example`;
}

/** A subdomain-safe slug: lower-case letters, digits and single dashes. */
export function slugify(text: string): string {
  const slug = text
    .normalize("NFKD")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 40)
    .replace(/-+$/, "");
  return slug === "" ? "property" : slug;
}

/** An integer of the create body as a numeric string; BigInt keeps `1e21` from becoming "1e+21". */
function numeric(value: number | undefined): string | null {
  return value === undefined ? null : BigInt(value).toString();
}

function isGarageType(value: string): value is Schemas["GarageType"] {
  return Object.hasOwn(GARAGE_COUNT, value);
}

function externalIdTaken(externalId: string, holder: number): Outcome<never> {
  return failure(
    "externalIdInUse",
    `The external id ${JSON.stringify(externalId)} already belongs to property ${holder}.`,
  );
}
