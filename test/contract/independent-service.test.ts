/**
 * The independent implementation of the service (issue 8, items 4 and 12), held to the document through HTTP:
 * the conforming instance answers each of the fifteen endpoints as `service-interface.md` says, and every
 * broken variant differs from it on the rule it names (one probe per variant: passes on the conforming
 * instance, fails on the variant).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  startIndependentService,
  VARIANTS,
  type IndependentAccount,
  type IndependentService,
} from "../support/independent-service/index.ts";

interface Answer {
  status: number;
  headers: Headers;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers are inspected field by field
  body: any;
}

type Method = "GET" | "POST" | "PUT" | "DELETE";

/** Requests to one instance as one account; `headers` replaces the credentials when given. */
class Client {
  constructor(
    readonly service: IndependentService,
    readonly account: IndependentAccount = service.accounts.primary,
  ) {}

  credentials(): Record<string, string> {
    return { "API-KEY": this.account.apiKey, TOKEN: this.account.token, "content-type": "application/json" };
  }

  async call(method: Method, path: string, body?: unknown, headers: Record<string, string> = this.credentials()): Promise<Answer> {
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
    return String((await this.ok("POST", "/document/", { property_reference: Number(property), title: "Plan", file_url: "https://files.example.org/plan.pdf", ...extra })).nid);
  }
}

const VALID_PROPERTY = { street: "221 Baker Street", city: "Springfield", state: "IL", zip: "62701" };
let emails = 0;
const uniqueEmail = () => `agent${++emails}.${Date.now()}@listing.example`;

const DOCUMENTED_PROPERTY_FIELDS = [
  "nid", "uid", "street", "premise", "city", "state", "zip", "country", "title", "description", "amenities",
  "list_price", "display_price", "square_feet", "lot_size", "lot_size_units", "stories", "bedrooms", "baths",
  "half_baths", "garage", "parking_spaces", "listing_status", "property_type", "year_built", "open_houses",
  "subdomain", "custom_domain", "mls_id", "template", "api_author", "main_image", "edit_access",
  "show_on_property", "logo", "external_id", "skip_zlookup", "intent", "sns_id", "listtrack_property_id",
  "website_url", "virtual_tours", "property_videos", "floorplans",
];
const NESTED = new Set(["open_houses", "virtual_tours", "property_videos", "floorplans"]);
const CATALOGUE = [
  "rubik_v2", "icon", "air", "lnd", "focal", "mot", "rubik", "kit", "pipeline", "mak", "saren", "syd", "arlo",
  "bren", "dax", "cobi", "eko", "lux", "ryne", "north", "stak", "karr", "intra",
];
const LINKS = [
  { service: "twitter", url: "https://twitter.example/a", weight: "5" },
  { service: "facebook", url: "https://facebook.example/a", weight: "-3" },
  { service: "linkedin", url: "https://linkedin.example/a", weight: "1" },
];
const isRefused = (status: number) => status >= 400 && status < 500;

describe("the conforming independent service, endpoint by endpoint", () => {
  let service: IndependentService;
  let api: Client;
  beforeAll(async () => {
    service = await startIndependentService();
    api = new Client(service);
  });
  afterAll(() => service.close());

  it("3 + 1: create answers nid and an auto-login uri; retrieve shows every field of 2.1 as documented", async () => {
    const created = await api.call("POST", "/property", {
      ...VALID_PROPERTY, "square feet": 1800, bedrooms: 3, baths: 2, list_price: 349000, garage: "Attached", stories: 2,
      lot_size: "7,500", parking_spaces: 2, description: "<p>Sunny</p>", property_type: "Single Family", year_built: 1998, template: "mak",
    });
    expect(created.status).toBe(200);
    expect(created.body.nid).toMatch(/^\d+$/);
    expect(created.body.uri.startsWith(`${service.url}/`)).toBe(true);
    expect(new URL(created.body.uri).pathname.split("/").filter(Boolean).length).toBeGreaterThanOrEqual(2);

    const property = await api.property(created.body.nid);
    for (const field of DOCUMENTED_PROPERTY_FIELDS) expect(property).toHaveProperty(field);
    for (const field of DOCUMENTED_PROPERTY_FIELDS.filter((f) => !NESTED.has(f))) {
      expect(property[field] === null || typeof property[field] === "string", field).toBe(true);
    }
    expect(property).toMatchObject({
      nid: created.body.nid, uid: String(api.account.uid), street: VALID_PROPERTY.street, state: "IL", square_feet: "1800",
      bedrooms: "3", baths: "2", list_price: "349000", stories: "2", lot_size: "7,500", parking_spaces: "2",
      description: "<p>Sunny</p>", property_type: "SingleFamily", year_built: "1998", template: "mak",
      country: null, amenities: null, premise: null, virtual_tours: [], property_videos: {}, floorplans: {},
    });
    expect(property.garage).toMatch(/^\d+$/);
  });

  it("3: refuses each near-miss of the create table and accepts every documented enum value", async () => {
    const nearMisses: Array<Record<string, unknown>> = [
      { state: "ILL" }, { state: "I" }, { garage: "attached" }, { garage: "ATTACHED" }, { property_type: "SingleFamily" },
      { property_type: "single family" }, { template: "syd" }, { template: "intra" }, { template: "MAK" }, { bedrooms: "3" },
      { list_price: 12.5 },
    ];
    for (const change of nearMisses) {
      expect(isRefused((await api.call("POST", "/property", { ...VALID_PROPERTY, ...change })).status), JSON.stringify(change)).toBe(true);
    }
    for (const field of ["street", "city", "state", "zip"]) {
      const { [field]: _omitted, ...rest } = VALID_PROPERTY as Record<string, string>;
      const answer = await api.call("POST", "/property", rest);
      expect(answer.status, field).toBe(422);
      expect(answer.body.error, field).toContain(field);
    }
    for (const garage of ["Attached", "Detached", "None"]) await api.createProperty({ garage });
    for (const type of ["Single Family", "Duplex", "Triplex", "Quad-Plex", "Condo", "Co-op", "Mobile Home", "Multi Family", "Timeshare", "Town House", "Miscellaneous", "Residential Land"]) {
      const nid = await api.createProperty({ property_type: type });
      expect((await api.property(nid)).property_type).toBe(type.replace(/ /g, ""));
    }
    for (const template of CATALOGUE.filter((t) => t !== "syd" && t !== "intra")) await api.createProperty({ template });
  });

  it("4: edit takes string values, keeps them, and answers nid and uri", async () => {
    const nid = await api.createProperty();
    const changes = { premise: "", country: "US", title: "Loft", amenities: "pool,gym", lot_size: "12,500", external_id: "ext-edit-1", state: "WA", list_price: "410000", intent: "sale" };
    const answer = await api.ok("PUT", `/property/${nid}`, changes);
    expect(answer.nid).toBe(nid);
    expect(answer.uri.startsWith(`${service.url}/`)).toBe(true);
    expect(await api.property(nid)).toMatchObject(changes);
    expect((await api.call("PUT", `/property/${nid}`, { bedrooms: 4 })).status).toBe(422);
    expect((await api.call("PUT", `/property/${nid}`, { state: "WAS" })).status).toBe(422);
  });

  it("2: retrieve by external id answers the same property object as endpoint 1", async () => {
    const nid = await api.createProperty();
    await api.ok("PUT", `/property/${nid}`, { external_id: "ext/two 2" });
    expect(await api.ok("GET", `/external-property/${encodeURIComponent("ext/two 2")}`)).toEqual(await api.property(nid));
    expect((await api.call("GET", "/external-property/never-given")).status).toBe(404);
  });

  it("5: list by user shows {nid, published, title, external_id} of the caller's properties", async () => {
    const nid = await api.createProperty();
    await api.ok("PUT", `/property/${nid}`, { title: "Listed", external_id: "ext-list-1" });
    const list = await api.ok("GET", `/properties/${api.account.uid}`);
    expect(Array.isArray(list)).toBe(true);
    expect(list).toContainEqual(expect.objectContaining({ nid, published: expect.any(String), title: "Listed", external_id: "ext-list-1" }));
    const otherUid = service.accounts.other.uid;
    expect(isRefused((await api.call("GET", `/properties/${otherUid}`)).status)).toBe(true);
  });

  it("6-10: agent cards are created, retrieved with the fields of 2.2, updated, listed by nid and deleted", async () => {
    const fields = {
      name: "Ada Agent", agent_first_name: "Ada", agent_last_name: "Agent", email: uniqueEmail(), phone: "555-0100", company: "Acme Realty",
      professional_title: "Broker", license: "LIC-1", website: "https://ada.example", card_type: "standard", agency_profile: "77",
      headshot_url: "https://ada.example/h.png", notes: "n", social_media_links: LINKS,
    };
    const created = await api.ok("POST", "/agent_card/", fields);
    expect(created.nid).toMatch(/^\d+$/);
    const agent = await api.agent(created.nid);
    expect(agent).toMatchObject({ ...fields, id: created.nid, social_media_links: [LINKS[1], LINKS[2], LINKS[0]] });
    expect(await api.ok("PUT", `/agent_card/${created.nid}`, { phone: "555-0199", notes: null })).toEqual({ nid: created.nid });
    expect(await api.agent(created.nid)).toMatchObject({ phone: "555-0199", notes: null, company: "Acme Realty" });
    const list = await api.ok("GET", "/agent_cards");
    for (const [key, value] of Object.entries<{ nid: unknown; email: string }>(list)) expect(String(value.nid)).toBe(key);
    expect(list[created.nid].email).toBe(fields.email);
    expect(await api.ok("DELETE", `/agent_card/${created.nid}`)).toEqual([true]);
    expect((await api.call("POST", `/agent_card/${created.nid}`)).status).toBe(404);
    expect(await api.ok("GET", "/agent_cards")).not.toHaveProperty(created.nid);
  });

  it("7, 8: section 7's named errors for seats and duplicate emails", async () => {
    const fresh = new Client(service, service.accounts.fresh);
    const email = uniqueEmail();
    await fresh.createAgent({ email });
    const second = await fresh.createAgent();
    for (const duplicate of [email, email.toUpperCase()]) {
      const answer = await api.call("POST", "/agent_card/", { email: duplicate });
      expect(isRefused(answer.status)).toBe(true);
      expect(JSON.stringify(answer.body)).toContain("Agent Already Exists");
    }
    const full = await fresh.call("POST", "/agent_card/", { email: uniqueEmail() });
    expect(isRefused(full.status)).toBe(true);
    expect(JSON.stringify(full.body)).toContain("Not Enough Agent Seats");
    expect(isRefused((await fresh.call("PUT", `/agent_card/${second}`, { email: email.toUpperCase() })).status)).toBe(true);
    await fresh.ok("DELETE", `/agent_card/${second}`);
    await fresh.createAgent();
  });

  it("11-14: documents keep the types of 2.3 and make up their property's floorplans", async () => {
    const property = await api.createProperty();
    const created = await api.ok("POST", "/document/", {
      property_reference: Number(property), title: "Ground floor", file_url: "https://files.example.org/g.pdf",
      visible: true, category: "floorplan", is_floorplan: true, Show_on_unbranded: false,
    });
    expect(Number.isInteger(created.nid)).toBe(true);
    const nid = String(created.nid);
    const document = await api.ok("GET", `/document/${nid}`);
    expect(document).toMatchObject({
      nid, title: "Ground floor", property_reference: Number(property), file_url: "https://files.example.org/g.pdf",
      visible: true, category: "floorplan", is_floorplan: true, Show_on_unbranded: false,
    });
    expect(Number.isInteger(document.created) && Number.isInteger(document.changed)).toBe(true);
    expect((await api.property(property)).floorplans).toEqual({ [nid]: { nid, title: "Ground floor", floorplan_url: "https://files.example.org/g.pdf" } });
    expect(await api.ok("PUT", `/document/${nid}`, { visible: false })).toEqual({ nid });
    expect((await api.ok("GET", `/document/${nid}`)).visible).toBe(false);
    expect(await api.ok("DELETE", `/document/${nid}`)).toEqual([true]);
    expect((await api.call("GET", `/document/${nid}`)).status).toBe(404);
    expect((await api.property(property)).floorplans).toEqual({});
  });

  it("15: the catalogue holds the 23 templates of 2.4 with their access levels", async () => {
    const { templates } = await api.ok("GET", "/template_base");
    expect(templates.map((t: { machine_name: string }) => t.machine_name).sort()).toEqual([...CATALOGUE].sort());
    const levels = Object.fromEntries(templates.map((t: { machine_name: string; access_level: string }) => [t.machine_name, t.access_level]));
    expect(levels).toMatchObject({ icon: "pro", eko: "pro", lux: "pro", north: "pro", stak: "pro", intra: "exclusive", syd: "standard", mak: "standard" });
    for (const template of templates) expect(typeof template.title).toBe("string");
  });

  it("1-5, 15: refuse a missing key, a missing token, a wrong token and another account's token on the caller's own records", async () => {
    const nid = await api.createProperty();
    await api.ok("PUT", `/property/${nid}`, { external_id: "ext-auth" });
    const own = api.credentials();
    const { "API-KEY": _key, ...noKey } = own;
    const { TOKEN: _token, ...noToken } = own;
    const probes: Array<[Method, string, unknown]> = [
      ["GET", `/property/${nid}`, undefined], ["GET", "/external-property/ext-auth", undefined], ["POST", "/property", VALID_PROPERTY],
      ["PUT", `/property/${nid}`, { title: "x" }], ["GET", `/properties/${api.account.uid}`, undefined], ["GET", "/template_base", undefined],
    ];
    for (const [method, path, body] of probes) {
      expect((await api.call(method, path, body)).status, `${method} ${path}`).toBe(200);
      for (const headers of [noKey, noToken, { ...own, TOKEN: "not-a-token" }, { ...own, TOKEN: service.accounts.other.token }]) {
        expect((await api.call(method, path, body, headers)).status, `${method} ${path} ${JSON.stringify(headers)}`).toBe(403);
      }
    }
  });

  it("answers JSON with a charset parameter, and another account's records are invisible", async () => {
    const nid = await api.createProperty();
    const answer = await api.call("GET", `/property/${nid}`);
    expect(answer.headers.get("content-type")).toBe("application/json; charset=utf-8");
    const other = new Client(service, service.accounts.other);
    expect((await other.call("GET", `/property/${nid}`)).status).toBe(404);
    expect((await other.call("POST", "/document/", { property_reference: Number(nid) })).status).toBe(422);
  });

  it("refuses an unknown variant name", async () => {
    await expect(startIndependentService({ variant: "no-such-variant" })).rejects.toThrow(/unknown variant/);
  });
});

/** Probes of one documented rule each: pass on the conforming service, fail on the variant that breaks it. */
type Probe = (api: Client) => Promise<void>;

const roundTrip = (edit: Record<string, string>): Probe => async (api) => {
  const nid = await api.createProperty();
  await api.ok("PUT", `/property/${nid}`, edit);
  expect(await api.property(nid)).toMatchObject(edit);
};
const refusedOnCreate = (change: Record<string, unknown>, omit?: string): Probe => async (api) => {
  const body: Record<string, unknown> = { ...VALID_PROPERTY, ...change };
  if (omit !== undefined) delete body[omit];
  expect(isRefused((await api.call("POST", "/property", body)).status)).toBe(true);
};
const authRefused = (request: (api: Client, nid: string) => [Method, string, unknown], headers: (api: Client) => Record<string, string>): Probe => async (api) => {
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
  for (const field of ["country", "amenities", "intent", "lot_size_units", "half_baths"]) expect(property).toHaveProperty(field, null);
};
const seatLimit: Probe = async (api) => {
  const fresh = new Client(api.service, api.service.accounts.fresh);
  for (let i = 0; i < fresh.account.agentSeats; i++) await fresh.createAgent();
  const answer = await fresh.call("POST", "/agent_card/", { email: uniqueEmail() });
  expect(isRefused(answer.status)).toBe(true);
  expect(JSON.stringify(answer.body)).toContain("Not Enough Agent Seats");
};
const duplicateRefused = (variant: (email: string) => string): Probe => async (api) => {
  const email = uniqueEmail();
  await api.createAgent({ email });
  const answer = await api.call("POST", "/agent_card/", { email: variant(email) });
  expect(isRefused(answer.status)).toBe(true);
  expect(JSON.stringify(answer.body)).toContain("Agent Already Exists");
};
const documentField = (create: Record<string, unknown>, check: (document: Answer["body"]) => void): Probe => async (api) => {
  const nid = await api.createDocument(await api.createProperty(), create);
  check(await api.ok("GET", `/document/${nid}`));
};
const agentLinks = (check: (links: Array<{ weight: unknown }>) => void): Probe => async (api) => {
  check((await api.agent(await api.createAgent({ social_media_links: LINKS }))).social_media_links);
};

const PROBES: Record<string, Probe> = {
  "create-drops-year-built-and-parking": async (api) => {
    expect(await api.property(await api.createProperty({ year_built: 1999, parking_spaces: 2 }))).toMatchObject({ year_built: "1999", parking_spaces: "2" });
  },
  "edit-drops-premise-and-country": roundTrip({ premise: "Unit 4", country: "US" }),
  "edit-drops-listing-fields": roundTrip({ listing_status: "Active", intent: "sale", lot_size_units: "sqft", mls_id: "MLS-9" }),
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
    expect(await api.agent(await api.createAgent({ company: "Acme", license: "L-7" }))).toMatchObject({ company: "Acme", license: "L-7" });
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
  "document-timestamps-as-strings": documentField({}, (d) => expect(Number.isInteger(d.created) && Number.isInteger(d.changed)).toBe(true)),
  "document-booleans-as-numbers": documentField({ visible: true, is_floorplan: false }, (d) => expect([d.visible, d.is_floorplan]).toEqual([true, false])),
  "show-on-unbranded-lowercased": documentField({ Show_on_unbranded: true }, (d) => expect(d.Show_on_unbranded).toBe(true)),
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
  "accepts-lowercase-garage": refusedOnCreate({ garage: "attached" }),
  "accepts-compact-property-type": refusedOnCreate({ property_type: "SingleFamily" }),
  "accepts-lowercase-property-type": refusedOnCreate({ property_type: "condo" }),
  "accepts-3-char-state": refusedOnCreate({ state: "ILL" }),
  "accepts-1-char-state": refusedOnCreate({ state: "I" }),
  "accepts-template-syd": refusedOnCreate({ template: "syd" }),
  "accepts-template-intra": refusedOnCreate({ template: "intra" }),
  "accepts-missing-zip": refusedOnCreate({}, "zip"),
  "accepts-missing-street": refusedOnCreate({}, "street"),
  "accepts-non-integer-weight": async (api) => {
    const answer = await api.call("POST", "/agent_card/", { email: uniqueEmail(), social_media_links: [{ service: "x", url: "https://x.example", weight: "1.5" }] });
    expect(isRefused(answer.status)).toBe(true);
  },
  "auth-ep1-no-key": authRefused((_api, nid) => ["GET", `/property/${nid}`, undefined], withoutHeader("API-KEY")),
  "auth-ep2-no-token": authRefused(() => ["GET", "/external-property/ext-auth", undefined], withoutHeader("TOKEN")),
  "auth-ep3-foreign-token": authRefused(() => ["POST", "/property", VALID_PROPERTY], withToken((api) => api.service.accounts.other.token)),
  "auth-ep4-wrong-token": authRefused((_api, nid) => ["PUT", `/property/${nid}`, { title: "t" }], withToken(() => "tk-not-issued")),
  "auth-ep5-foreign-token": authRefused((api) => ["GET", `/properties/${api.account.uid}`, undefined], withToken((api) => api.service.accounts.other.token)),
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
};

describe("the broken variants", () => {
  it("are at least 30, uniquely named, each citing a section of the document, each with a probe here", () => {
    expect(VARIANTS.length).toBeGreaterThanOrEqual(30);
    const names = VARIANTS.map((v) => v.name);
    expect(new Set(names).size).toBe(names.length);
    for (const variant of VARIANTS) {
      expect(variant.section, variant.name).toMatch(/^\d+(\.\d+)?( endpoint \d+)?$/);
      expect(variant.rule.length, variant.name).toBeGreaterThan(10);
    }
    expect(Object.keys(PROBES).sort()).toEqual([...names].sort());
  });

  // Each test has instances of its own, so they may run side by side (the probes wait on HTTP, not CPU).
  it.concurrent.each(VARIANTS.map((v) => [v.name, v.section] as const))("%s (section %s): its probe passes on the conforming service and fails on the variant", async (name) => {
    const probe = PROBES[name]!;
    const conforming = await startIndependentService();
    const broken = await startIndependentService({ variant: name });
    try {
      await probe(new Client(conforming));
      await expect(probe(new Client(broken))).rejects.toThrow();
    } finally {
      await Promise.all([conforming.close(), broken.close()]);
    }
  });
});
