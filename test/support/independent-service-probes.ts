/**
 * HTTP probes of the documented rules, used on the independent service (issue 8, item 12): a small client
 * and one probe per broken variant, each passing on a conforming service and failing on the variant that
 * breaks its rule. They speak only HTTP, so they hold for any implementation of service-interface.md.
 */
import { expect } from "vitest";
import type { IndependentAccount, IndependentService } from "./independent-service/index.ts";

export interface Answer {
  status: number;
  headers: Headers;
  body: any; // answers are inspected field by field
}

export type Method = "GET" | "POST" | "PUT" | "DELETE";

/** Requests to one instance as one account; `headers` replaces the credentials when given. */
export class Client {
  constructor(
    readonly service: IndependentService,
    readonly account: IndependentAccount = service.accounts.primary,
  ) {}

  credentials(): Record<string, string> {
    return { "API-KEY": this.account.apiKey, TOKEN: this.account.token, "content-type": "application/json" };
  }

  async call(
    method: Method,
    path: string,
    body?: unknown,
    headers: Record<string, string> = this.credentials(),
  ): Promise<Answer> {
    const response = await fetch(`${this.service.url}/api/v1/object${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, headers: response.headers, body: text === "" ? undefined : JSON.parse(text) };
  }

  /** A call that must succeed; returns its body. */
  async ok(method: Method, path: string, body?: unknown): Promise<Answer["body"]> {
    const answer = await this.call(method, path, body);
    expect(answer.status, `${method} ${path} -> ${JSON.stringify(answer.body)}`).toBe(200);
    return answer.body;
  }

  async createProperty(extra: Record<string, unknown> = {}): Promise<string> {
    return (await this.ok("POST", "/property", { ...VALID_PROPERTY, ...extra })).nid;
  }

  async property(nid: string): Promise<Answer["body"]> {
    return this.ok("GET", `/property/${nid}`);
  }

  async createAgent(extra: Record<string, unknown> = {}): Promise<string> {
    return (await this.ok("POST", "/agent_card/", { email: uniqueEmail(), ...extra })).nid;
  }

  async agent(nid: string): Promise<Answer["body"]> {
    return this.ok("POST", `/agent_card/${nid}`);
  }

  async createDocument(property: string, extra: Record<string, unknown> = {}): Promise<string> {
    return String(
      (
        await this.ok("POST", "/document/", {
          property_reference: Number(property),
          title: "Plan",
          file_url: "https://files.example.org/plan.pdf",
          ...extra,
        })
      ).nid,
    );
  }
}

export const VALID_PROPERTY = { street: "221 Baker Street", city: "Springfield", state: "IL", zip: "62701" };
let emails = 0;
export const uniqueEmail = () => `agent${++emails}.${Date.now()}@listing.example`;

export const CATALOGUE = [
  "rubik_v2",
  "icon",
  "air",
  "lnd",
  "focal",
  "mot",
  "rubik",
  "kit",
  "pipeline",
  "mak",
  "saren",
  "syd",
  "arlo",
  "bren",
  "dax",
  "cobi",
  "eko",
  "lux",
  "ryne",
  "north",
  "stak",
  "karr",
  "intra",
];
export const LINKS = [
  { service: "twitter", url: "https://twitter.example/a", weight: "5" },
  { service: "facebook", url: "https://facebook.example/a", weight: "-3" },
  { service: "linkedin", url: "https://linkedin.example/a", weight: "1" },
];
export const isRefused = (status: number) => status >= 400 && status < 500;

/** Probes of one documented rule each: pass on the conforming service, fail on the variant that breaks it. */
export type Probe = (api: Client) => Promise<void>;

const roundTrip =
  (edit: Record<string, string>): Probe =>
  async (api) => {
    const nid = await api.createProperty();
    await api.ok("PUT", `/property/${nid}`, edit);
    expect(await api.property(nid)).toMatchObject(edit);
  };
/** A create whose values must come back as sent (and must not crash the service). */
const roundTripOnCreate =
  (values: Record<string, string>): Probe =>
  async (api) => {
    expect(await api.property(await api.createProperty(values))).toMatchObject(values);
  };
/**
 * A create the document rules out is refused, or taken and kept so that the documented fact holds on retrieve
 * (issue 28: the document requires no refusal; it documents what is stored).
 */
const refusedOrKept =
  (change: Record<string, unknown>, holds: (property: Record<string, unknown>) => void, omit?: string): Probe =>
  async (api) => {
    const body: Record<string, unknown> = { ...VALID_PROPERTY, ...change };
    if (omit !== undefined) delete body[omit];
    const answer = await api.call("POST", "/property", body);
    if (isRefused(answer.status)) return;
    expect(answer.status).toBe(200);
    holds(await api.property(answer.body.nid));
  };
const countLike = (field: string) => (property: Record<string, unknown>) => expect(property[field]).toMatch(/^[0-9]+$/);
const twoCharacters = (property: Record<string, unknown>) => expect([...String(property.state)]).toHaveLength(2);
const nullOrAValue = (field: string) => (property: Record<string, unknown>) =>
  expect(property[field] === null || (typeof property[field] === "string" && property[field] !== "")).toBe(true);
const authRefused =
  (
    request: (api: Client, nid: string) => [Method, string, unknown],
    headers: (api: Client) => Record<string, string>,
  ): Probe =>
  async (api) => {
    const nid = await api.createProperty({ external_id: "ext-auth" });
    await api.ok("PUT", `/property/${nid}`, { external_id: "ext-auth" });
    const [method, path, body] = request(api, nid);
    expect((await api.call(method, path, body)).status).toBe(200);
    expect(isRefused((await api.call(method, path, body, headers(api))).status)).toBe(true);
  };
const withoutHeader = (name: string) => (api: Client) => {
  const headers = api.credentials();
  delete headers[name];
  return headers;
};
const withToken = (token: (api: Client) => string) => (api: Client) => ({ ...api.credentials(), TOKEN: token(api) });
const absentIsNull: Probe = async (api) => {
  const property = await api.property(await api.createProperty());
  for (const field of ["country", "amenities", "intent", "lot_size_units", "half_baths"])
    expect(property).toHaveProperty(field, null);
};
const seatLimit: Probe = async (api) => {
  const fresh = new Client(api.service, api.service.accounts.fresh);
  for (let i = 0; i < fresh.account.agentSeats; i++) await fresh.createAgent();
  const answer = await fresh.call("POST", "/agent_card/", { email: uniqueEmail() });
  expect(isRefused(answer.status)).toBe(true);
  expect(JSON.stringify(answer.body)).toContain("Not Enough Agent Seats");
};
const duplicateRefused =
  (variant: (email: string) => string): Probe =>
  async (api) => {
    const email = uniqueEmail();
    await api.createAgent({ email });
    const answer = await api.call("POST", "/agent_card/", { email: variant(email) });
    expect(isRefused(answer.status)).toBe(true);
    expect(JSON.stringify(answer.body)).toContain("Agent Already Exists");
  };
const documentField =
  (create: Record<string, unknown>, check: (document: Answer["body"]) => void): Probe =>
  async (api) => {
    const nid = await api.createDocument(await api.createProperty(), create);
    check(await api.ok("GET", `/document/${nid}`));
  };
const agentLinks =
  (check: (links: Array<{ weight: unknown }>) => void): Probe =>
  async (api) => {
    check((await api.agent(await api.createAgent({ social_media_links: LINKS }))).social_media_links);
  };

export const PROBES: Record<string, Probe> = {
  "create-drops-year-built-and-parking": async (api) => {
    expect(await api.property(await api.createProperty({ year_built: 1999, parking_spaces: 2 }))).toMatchObject({
      year_built: "1999",
      parking_spaces: "2",
    });
  },
  "edit-drops-premise-and-country": roundTrip({ premise: "Unit 4", country: "US" }),
  "edit-drops-listing-fields": roundTrip({
    listing_status: "Active",
    intent: "sale",
    lot_size_units: "sqft",
    mls_id: "MLS-9",
  }),
  "edit-drops-media-ids": roundTrip({ main_image: "101", logo: "102", edit_access: "103", show_on_property: "104" }),
  "list-price-as-number": async (api) => {
    expect((await api.property(await api.createProperty({ list_price: 250000 }))).list_price).toBe("250000");
  },
  "uid-as-number": async (api) => {
    expect((await api.property(await api.createProperty())).uid).toBe(String(api.account.uid));
  },
  "property-type-not-compacted": async (api) => {
    const type = (await api.property(await api.createProperty({ property_type: "Single Family" }))).property_type;
    expect(typeof type === "string" && !/\s/.test(type)).toBe(true);
  },
  "garage-as-word": async (api) => {
    expect((await api.property(await api.createProperty({ garage: "Attached" }))).garage).toMatch(/^\d+$/);
  },
  "lot-size-separator-stripped": roundTrip({ lot_size: "12,500" }),
  "description-html-stripped": roundTrip({ description: "<p>Sunny <b>loft</b></p>" }),
  "premise-empty-string-as-null": roundTrip({ premise: "" }),
  "edit-accepts-3-char-state": async (api) => {
    const nid = await api.createProperty();
    expect(isRefused((await api.call("PUT", `/property/${nid}`, { state: "ILL" })).status)).toBe(true);
    expect((await api.property(nid)).state).toBe(VALID_PROPERTY.state);
  },
  "edit-answers-no-uri": async (api) => {
    const nid = await api.createProperty();
    const answer = await api.ok("PUT", `/property/${nid}`, { title: "t" });
    expect(answer.nid).toBe(nid);
    expect(String(answer.uri).startsWith(`${api.service.url}/`)).toBe(true);
  },
  "virtual-tours-null": async (api) => {
    expect((await api.property(await api.createProperty())).virtual_tours).toEqual([]);
  },
  "agent-drops-company-and-license": async (api) => {
    expect(await api.agent(await api.createAgent({ company: "Acme", license: "L-7" }))).toMatchObject({
      company: "Acme",
      license: "L-7",
    });
  },
  "agent-update-drops-professional-title": async (api) => {
    const nid = await api.createAgent({ professional_title: "Agent" });
    await api.ok("PUT", `/agent_card/${nid}`, { professional_title: "Broker" });
    expect((await api.agent(nid)).professional_title).toBe("Broker");
  },
  "links-not-ordered-by-weight": agentLinks((links) => {
    const weights = links.map((l) => Number(l.weight));
    const ascending = weights.every((w, i) => i === 0 || weights[i - 1]! <= w);
    const descending = weights.every((w, i) => i === 0 || weights[i - 1]! >= w);
    expect(ascending || descending).toBe(true);
  }),
  "negative-weight-link-dropped": agentLinks((links) => expect(links.map((l) => l.weight)).toContain("-3")),
  "weight-as-number": agentLinks((links) => expect(links.every((l) => typeof l.weight === "string")).toBe(true)),
  "agency-profile-as-number": async (api) => {
    expect((await api.agent(await api.createAgent({ agency_profile: "4242" }))).agency_profile).toBe("4242");
  },
  "document-drops-category": documentField({ category: "brochure" }, (d) => expect(d.category).toBe("brochure")),
  "document-update-ignores-visible": async (api) => {
    const nid = await api.createDocument(await api.createProperty(), { visible: true });
    await api.ok("PUT", `/document/${nid}`, { visible: false });
    expect((await api.ok("GET", `/document/${nid}`)).visible).toBe(false);
  },
  "document-timestamps-as-strings": documentField({}, (d) =>
    expect(Number.isInteger(d.created) && Number.isInteger(d.changed)).toBe(true),
  ),
  "document-booleans-as-numbers": documentField({ visible: true, is_floorplan: false }, (d) =>
    expect([d.visible, d.is_floorplan]).toEqual([true, false]),
  ),
  "show-on-unbranded-lowercased": documentField({ Show_on_unbranded: true }, (d) =>
    expect(d.Show_on_unbranded).toBe(true),
  ),
  "property-reference-as-string": async (api) => {
    const property = await api.createProperty();
    const nid = await api.createDocument(property);
    expect((await api.ok("GET", `/document/${nid}`)).property_reference).toBe(Number(property));
  },
  "document-create-nid-as-string": async (api) => {
    const created = await api.ok("POST", "/document/", { property_reference: Number(await api.createProperty()) });
    expect(Number.isInteger(created.nid)).toBe(true);
  },
  "agent-id-not-nid": async (api) => {
    const nid = await api.createAgent();
    expect((await api.agent(nid)).id).toBe(nid);
  },
  "document-update-nid-as-number": async (api) => {
    const nid = await api.createDocument(await api.createProperty());
    expect(await api.ok("PUT", `/document/${nid}`, { title: "Renamed" })).toMatchObject({ nid });
  },
  "agent-create-nid-as-number": async (api) => {
    expect((await api.ok("POST", "/agent_card/", { email: uniqueEmail() })).nid).toMatch(/^\d+$/);
  },
  "floorplan-nid-as-number": async (api) => {
    const property = await api.createProperty();
    const nid = await api.createDocument(property, { is_floorplan: true });
    expect((await api.property(property)).floorplans[nid]?.nid).toBe(nid);
  },
  "agent-list-key-not-nid": async (api) => {
    await api.createAgent();
    const list = await api.ok("GET", "/agent_cards");
    expect(Object.keys(list).length).toBeGreaterThan(0);
    for (const [key, value] of Object.entries<{ nid: unknown }>(list)) expect(String(value.nid)).toBe(key);
  },
  "list-by-user-misses-created-property": async (api) => {
    const nid = await api.createProperty();
    expect((await api.ok("GET", `/properties/${api.account.uid}`)).map((p: { nid: string }) => p.nid)).toContain(nid);
  },
  "list-by-user-external-id-null": async (api) => {
    const nid = await api.createProperty();
    await api.ok("PUT", `/property/${nid}`, { external_id: "ext-listed" });
    const item = (await api.ok("GET", `/properties/${api.account.uid}`)).find((p: { nid: string }) => p.nid === nid);
    expect(item?.external_id).toBe("ext-listed");
  },
  "published-as-number": async (api) => {
    await api.createProperty();
    const list = await api.ok("GET", `/properties/${api.account.uid}`);
    expect(list.length > 0 && list.every((p: { published: unknown }) => typeof p.published === "string")).toBe(true);
  },
  "deleted-agent-still-listed": async (api) => {
    const nid = await api.createAgent();
    await api.ok("DELETE", `/agent_card/${nid}`);
    expect(await api.ok("GET", "/agent_cards")).not.toHaveProperty(nid);
  },
  "deleted-document-still-retrievable": async (api) => {
    const nid = await api.createDocument(await api.createProperty());
    await api.ok("DELETE", `/document/${nid}`);
    expect((await api.call("GET", `/document/${nid}`)).status).not.toBe(200);
  },
  "external-lookup-not-found": async (api) => {
    const nid = await api.createProperty();
    await api.ok("PUT", `/property/${nid}`, { external_id: "ext-lookup" });
    expect((await api.ok("GET", "/external-property/ext-lookup")).nid).toBe(nid);
  },
  "unset-fields-as-empty-string": absentIsNull,
  "unset-fields-omitted": absentIsNull,
  "accepts-lowercase-garage": refusedOrKept({ garage: "attached" }, countLike("garage")),
  "accepts-lowercase-property-type": refusedOrKept({ property_type: "single family" }, (property) =>
    expect(property.property_type).toMatch(/^[^\s]+$/),
  ),
  "accepts-3-char-state": refusedOrKept({ state: "ILL" }, twoCharacters),
  "accepts-1-char-state": refusedOrKept({ state: "I" }, twoCharacters),
  "template-case-kept": refusedOrKept({ template: "MAK" }, (property) =>
    expect(CATALOGUE).toContain(property.template),
  ),
  "accepts-missing-zip": refusedOrKept({}, nullOrAValue("zip"), "zip"),
  "accepts-missing-street": refusedOrKept({}, nullOrAValue("street"), "street"),
  "accepts-non-integer-weight": async (api) => {
    const answer = await api.call("POST", "/agent_card/", {
      email: uniqueEmail(),
      social_media_links: [{ service: "x", url: "https://x.example", weight: "1.5" }],
    });
    expect(isRefused(answer.status)).toBe(true);
  },
  "auth-ep1-no-key": authRefused((_api, nid) => ["GET", `/property/${nid}`, undefined], withoutHeader("API-KEY")),
  "auth-ep2-no-token": authRefused(() => ["GET", "/external-property/ext-auth", undefined], withoutHeader("TOKEN")),
  "auth-ep3-foreign-token": authRefused(
    () => ["POST", "/property", VALID_PROPERTY],
    withToken((api) => api.service.accounts.other.token),
  ),
  "auth-ep4-wrong-token": authRefused(
    (_api, nid) => ["PUT", `/property/${nid}`, { title: "t" }],
    withToken(() => "tk-not-issued"),
  ),
  "auth-ep5-foreign-token": authRefused(
    (api) => ["GET", `/properties/${api.account.uid}`, undefined],
    withToken((api) => api.service.accounts.other.token),
  ),
  "auth-ep15-no-key": authRefused(() => ["GET", "/template_base", undefined], withoutHeader("API-KEY")),
  "seat-limit-not-enforced": seatLimit,
  "seat-limit-unnamed-error": seatLimit,
  "duplicate-email-accepted": duplicateRefused((email) => email),
  "duplicate-email-case-variant-accepted": duplicateRefused((email) => email.toUpperCase()),
  "duplicate-email-on-update-accepted": async (api) => {
    const taken = uniqueEmail();
    await api.createAgent({ email: taken });
    const nid = await api.createAgent();
    expect(isRefused((await api.call("PUT", `/agent_card/${nid}`, { email: taken })).status)).toBe(true);
  },
  "email-not-freed-after-delete": async (api) => {
    const email = uniqueEmail();
    await api.ok("DELETE", `/agent_card/${await api.createAgent({ email })}`);
    expect((await api.call("POST", "/agent_card/", { email })).status).toBe(200);
  },
  "floorplan-not-on-property": async (api) => {
    const property = await api.createProperty();
    const nid = await api.createDocument(property, { is_floorplan: true });
    expect(Object.keys((await api.property(property)).floorplans)).toContain(nid);
  },
  "document-not-floorplan-on-property": async (api) => {
    const property = await api.createProperty();
    const nid = await api.createDocument(property, { is_floorplan: false });
    expect(Object.keys((await api.property(property)).floorplans)).not.toContain(nid);
  },
  "floorplan-stays-after-delete": async (api) => {
    const property = await api.createProperty();
    const nid = await api.createDocument(property, { is_floorplan: true });
    await api.ok("DELETE", `/document/${nid}`);
    expect(Object.keys((await api.property(property)).floorplans)).not.toContain(nid);
  },
  "delete-agent-answers-bare-true": async (api) => {
    expect(await api.ok("DELETE", `/agent_card/${await api.createAgent()}`)).toEqual([true]);
  },
  "delete-document-answers-object": async (api) => {
    expect(await api.ok("DELETE", `/document/${await api.createDocument(await api.createProperty())}`)).toEqual([true]);
  },
  "templates-eko-standard": async (api) => {
    const { templates } = await api.ok("GET", "/template_base");
    expect(templates.find((t: { machine_name: string }) => t.machine_name === "eko")?.access_level).toBe("pro");
  },
  "templates-missing-intra": async (api) => {
    const { templates } = await api.ok("GET", "/template_base");
    expect(templates.map((t: { machine_name: string }) => t.machine_name).sort()).toEqual([...CATALOGUE].sort());
  },
  "create-uri-relative": async (api) => {
    const { uri } = await api.ok("POST", "/property", VALID_PROPERTY);
    expect(uri.startsWith(`${api.service.url}/`)).toBe(true);
  },
  "create-answers-201": async (api) => {
    expect((await api.call("POST", "/property", VALID_PROPERTY)).status).toBe(200);
  },
  "agent-list-as-array": async (api) => {
    await api.createAgent();
    expect(Array.isArray(await api.ok("GET", "/agent_cards"))).toBe(false);
  },
  "agent-list-values-shifted": async (api) => {
    const emails = [uniqueEmail(), uniqueEmail()];
    const nids = [await api.createAgent({ email: emails[0] }), await api.createAgent({ email: emails[1] })];
    const list = await api.ok("GET", "/agent_cards");
    nids.forEach((nid, i) => expect(list[nid]).toMatchObject({ email: emails[i] }));
  },
  "create-uri-foreign-host": async (api) => {
    expect((await api.ok("POST", "/property", VALID_PROPERTY)).uri.startsWith(`${api.service.url}/`)).toBe(true);
  },
  "edit-uri-no-token": async (api) => {
    const { uri } = await api.ok("PUT", `/property/${await api.createProperty()}`, { title: "t" });
    expect(uri.slice(api.service.url.length).split("/").filter(Boolean).length).toBeGreaterThanOrEqual(2);
  },
  "virtual-tours-empty-object": async (api) => {
    expect((await api.property(await api.createProperty())).virtual_tours).toEqual([]);
  },
  "garage-none-as-word": async (api) => {
    expect((await api.property(await api.createProperty({ garage: "None" }))).garage).toMatch(/^\d+$/);
  },
  "property-type-town-house-spaced": async (api) => {
    expect((await api.property(await api.createProperty({ property_type: "Town House" }))).property_type).toBe(
      "TownHouse",
    );
  },
  "agent-website-other-host": async (api) => {
    expect((await api.agent(await api.createAgent({ website: "https://agents.example.org/dana" }))).website).toBe(
      "https://agents.example.org/dana",
    );
  },
  "amenities-item-dropped": roundTrip({ amenities: "Pool,Garden" }),
  "list-price-rounded": roundTrip({ list_price: "410000" }),
  "garage-detached-word-on-create": async (api) => {
    expect((await api.property(await api.createProperty({ garage: "Detached" }))).garage).toMatch(/^\d+$/);
  },
  "agent-name-first-only": async (api) => {
    expect(
      (await api.agent(await api.createAgent({ agent_first_name: "Dana", agent_last_name: "Whitfield" }))).name,
    ).toBe("Dana Whitfield");
  },
  // Found only by generated input (issue 21).
  "crash-on-fraction-in-integer": async (api) => {
    expect((await api.call("POST", "/property", { ...VALID_PROPERTY, bedrooms: 2.5 })).status).toBeLessThan(500);
  },
  "crash-on-non-ascii-street": roundTripOnCreate({ street: "12 Straße der Einheit, Zürich 🏠" }),
  "crash-on-long-city": roundTripOnCreate({
    city: "Llanfairpwllgwyngyllgogerychwyrndrobwllllantysiliogogogoch ".repeat(3).trim(),
  }),
  "crash-on-negative-year-built": async (api) => {
    expect(await api.property(await api.createProperty({ year_built: -500 }))).toMatchObject({ year_built: "-500" });
  },
  "number-for-string-kept-as-number": async (api) => {
    await refusedOrKept({ zip: 62701 }, (property) => expect(property.zip).toBe("62701"))(api);
    const nid = await api.createProperty();
    if (!isRefused((await api.call("PUT", `/property/${nid}`, { city: 7 })).status))
      expect((await api.property(nid)).city).toBe("7");
  },
  "edit-accepts-template-outside-catalogue": async (api) => {
    const nid = await api.createProperty({ template: "kit" });
    expect(isRefused((await api.call("PUT", `/property/${nid}`, { template: "not-a-template" })).status)).toBe(true);
    expect((await api.property(nid)).template).toBe("kit");
  },
  "create-refused-after-insert": async (api) => {
    const listed = async () => (await api.ok("GET", `/properties/${api.account.uid}`)).length;
    const before = await listed();
    expect(isRefused((await api.call("POST", "/property", { ...VALID_PROPERTY, bedrooms: 2.5 })).status)).toBe(true);
    expect(await listed()).toBe(before);
  },
};
