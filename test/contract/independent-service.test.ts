/**
 * The independent implementation of the service (issue 8, items 4 and 12), held to the document through HTTP:
 * the conforming instance answers each of the fifteen endpoints as `service-interface.md` says, and every
 * broken variant differs from it on the rule it names (one probe per variant: passes on the conforming
 * instance, fails on the variant).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startIndependentService, VARIANTS, type IndependentService } from "../support/independent-service/index.ts";
import {
  CATALOGUE,
  Client,
  isRefused,
  LINKS,
  PROBES,
  uniqueEmail,
  VALID_PROPERTY,
  type Method,
} from "../support/independent-service-probes.ts";

const DOCUMENTED_PROPERTY_FIELDS = [
  "nid",
  "uid",
  "street",
  "premise",
  "city",
  "state",
  "zip",
  "country",
  "title",
  "description",
  "amenities",
  "list_price",
  "display_price",
  "square_feet",
  "lot_size",
  "lot_size_units",
  "stories",
  "bedrooms",
  "baths",
  "half_baths",
  "garage",
  "parking_spaces",
  "listing_status",
  "property_type",
  "year_built",
  "open_houses",
  "subdomain",
  "custom_domain",
  "mls_id",
  "template",
  "api_author",
  "main_image",
  "edit_access",
  "show_on_property",
  "logo",
  "external_id",
  "skip_zlookup",
  "intent",
  "sns_id",
  "listtrack_property_id",
  "website_url",
  "virtual_tours",
  "property_videos",
  "floorplans",
];
const NESTED = new Set(["open_houses", "virtual_tours", "property_videos", "floorplans"]);
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
      ...VALID_PROPERTY,
      "square feet": 1800,
      bedrooms: 3,
      baths: 2,
      list_price: 349000,
      garage: "Attached",
      stories: 2,
      lot_size: "7,500",
      parking_spaces: 2,
      description: "<p>Sunny</p>",
      property_type: "Single Family",
      year_built: 1998,
      template: "mak",
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
      nid: created.body.nid,
      uid: String(api.account.uid),
      street: VALID_PROPERTY.street,
      state: "IL",
      square_feet: "1800",
      bedrooms: "3",
      baths: "2",
      list_price: "349000",
      stories: "2",
      lot_size: "7,500",
      parking_spaces: "2",
      description: "<p>Sunny</p>",
      property_type: "SingleFamily",
      year_built: "1998",
      template: "mak",
      country: null,
      amenities: null,
      premise: null,
      virtual_tours: [],
      property_videos: {},
      floorplans: {},
    });
    expect(property.garage).toMatch(/^\d+$/);
  });

  it("3: refuses each near-miss of the create table and accepts every documented enum value", async () => {
    const nearMisses: Array<Record<string, unknown>> = [
      { state: "ILL" },
      { state: "I" },
      { garage: "attached" },
      { garage: "ATTACHED" },
      { property_type: "SingleFamily" },
      { property_type: "single family" },
      { template: "syd" },
      { template: "intra" },
      { template: "MAK" },
      { bedrooms: "3" },
      { list_price: 12.5 },
    ];
    for (const change of nearMisses) {
      expect(
        isRefused((await api.call("POST", "/property", { ...VALID_PROPERTY, ...change })).status),
        JSON.stringify(change),
      ).toBe(true);
    }
    for (const field of ["street", "city", "state", "zip"]) {
      const { [field]: _omitted, ...rest } = VALID_PROPERTY as Record<string, string>;
      const answer = await api.call("POST", "/property", rest);
      expect(answer.status, field).toBe(422);
      expect(answer.body.error, field).toContain(field);
    }
    for (const garage of ["Attached", "Detached", "None"]) await api.createProperty({ garage });
    for (const type of [
      "Single Family",
      "Duplex",
      "Triplex",
      "Quad-Plex",
      "Condo",
      "Co-op",
      "Mobile Home",
      "Multi Family",
      "Timeshare",
      "Town House",
      "Miscellaneous",
      "Residential Land",
    ]) {
      const nid = await api.createProperty({ property_type: type });
      expect((await api.property(nid)).property_type).toBe(type.replace(/ /g, ""));
    }
    for (const template of CATALOGUE.filter((t) => t !== "syd" && t !== "intra"))
      await api.createProperty({ template });
  });

  it("4: edit takes string values, keeps them, and answers nid and uri", async () => {
    const nid = await api.createProperty();
    const changes = {
      premise: "",
      country: "US",
      title: "Loft",
      amenities: "pool,gym",
      lot_size: "12,500",
      external_id: "ext-edit-1",
      state: "WA",
      list_price: "410000",
      intent: "sale",
    };
    const answer = await api.ok("PUT", `/property/${nid}`, changes);
    expect(answer.nid).toBe(nid);
    expect(answer.uri.startsWith(`${service.url}/`)).toBe(true);
    expect(await api.property(nid)).toMatchObject(changes);
    // The create table's integer for the same field is taken (as its numeric string); a number elsewhere is not.
    expect((await api.call("PUT", `/property/${nid}`, { bedrooms: 4 })).status).toBe(200);
    expect((await api.property(nid)).bedrooms).toBe("4");
    expect((await api.call("PUT", `/property/${nid}`, { edit_access: 4 })).status).toBe(422);
    expect((await api.call("PUT", `/property/${nid}`, { state: "WAS" })).status).toBe(422);
  });

  it("2: retrieve by external id answers the same property object as endpoint 1", async () => {
    const nid = await api.createProperty();
    await api.ok("PUT", `/property/${nid}`, { external_id: "ext/two 2" });
    expect(await api.ok("GET", `/external-property/${encodeURIComponent("ext/two 2")}`)).toEqual(
      await api.property(nid),
    );
    expect((await api.call("GET", "/external-property/never-given")).status).toBe(404);
  });

  it("5: list by user shows {nid, published, title, external_id} of the caller's properties", async () => {
    const nid = await api.createProperty();
    await api.ok("PUT", `/property/${nid}`, { title: "Listed", external_id: "ext-list-1" });
    const list = await api.ok("GET", `/properties/${api.account.uid}`);
    expect(Array.isArray(list)).toBe(true);
    expect(list).toContainEqual(
      expect.objectContaining({ nid, published: expect.any(String), title: "Listed", external_id: "ext-list-1" }),
    );
    const otherUid = service.accounts.other.uid;
    expect(isRefused((await api.call("GET", `/properties/${otherUid}`)).status)).toBe(true);
  });

  it("6-10: agent cards are created, retrieved with the fields of 2.2, updated, listed by nid, deleted", async () => {
    const fields = {
      name: "Ada Agent",
      agent_first_name: "Ada",
      agent_last_name: "Agent",
      email: uniqueEmail(),
      phone: "555-0100",
      company: "Acme Realty",
      professional_title: "Broker",
      license: "LIC-1",
      website: "https://ada.example",
      card_type: "standard",
      agency_profile: "77",
      headshot_url: "https://ada.example/h.png",
      notes: "n",
      social_media_links: LINKS,
    };
    const created = await api.ok("POST", "/agent_card/", fields);
    expect(created.nid).toMatch(/^\d+$/);
    const agent = await api.agent(created.nid);
    expect(agent).toMatchObject({ ...fields, id: created.nid, social_media_links: [LINKS[1], LINKS[2], LINKS[0]] });
    expect(await api.ok("PUT", `/agent_card/${created.nid}`, { phone: "555-0199", notes: null })).toEqual({
      nid: created.nid,
    });
    expect(await api.agent(created.nid)).toMatchObject({ phone: "555-0199", notes: null, company: "Acme Realty" });
    const list = await api.ok("GET", "/agent_cards");
    for (const [key, value] of Object.entries<{ nid: unknown; email: string }>(list))
      expect(String(value.nid)).toBe(key);
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
    expect(isRefused((await fresh.call("PUT", `/agent_card/${second}`, { email: email.toUpperCase() })).status)).toBe(
      true,
    );
    await fresh.ok("DELETE", `/agent_card/${second}`);
    await fresh.createAgent();
  });

  it("11-14: documents keep the types of 2.3 and make up their property's floorplans", async () => {
    const property = await api.createProperty();
    const created = await api.ok("POST", "/document/", {
      property_reference: Number(property),
      title: "Ground floor",
      file_url: "https://files.example.org/g.pdf",
      visible: true,
      category: "floorplan",
      is_floorplan: true,
      Show_on_unbranded: false,
    });
    expect(Number.isInteger(created.nid)).toBe(true);
    const nid = String(created.nid);
    const document = await api.ok("GET", `/document/${nid}`);
    expect(document).toMatchObject({
      nid,
      title: "Ground floor",
      property_reference: Number(property),
      file_url: "https://files.example.org/g.pdf",
      visible: true,
      category: "floorplan",
      is_floorplan: true,
      Show_on_unbranded: false,
    });
    expect(Number.isInteger(document.created) && Number.isInteger(document.changed)).toBe(true);
    expect((await api.property(property)).floorplans).toEqual({
      [nid]: { nid, title: "Ground floor", floorplan_url: "https://files.example.org/g.pdf" },
    });
    expect(await api.ok("PUT", `/document/${nid}`, { visible: false })).toEqual({ nid });
    expect((await api.ok("GET", `/document/${nid}`)).visible).toBe(false);
    expect(await api.ok("DELETE", `/document/${nid}`)).toEqual([true]);
    expect((await api.call("GET", `/document/${nid}`)).status).toBe(404);
    expect((await api.property(property)).floorplans).toEqual({});
  });

  it("15: the catalogue holds the 23 templates of 2.4 with their access levels", async () => {
    const { templates } = await api.ok("GET", "/template_base");
    expect(templates.map((t: { machine_name: string }) => t.machine_name).sort()).toEqual([...CATALOGUE].sort());
    const levels = Object.fromEntries(
      templates.map((t: { machine_name: string; access_level: string }) => [t.machine_name, t.access_level]),
    );
    expect(levels).toMatchObject({
      icon: "pro",
      eko: "pro",
      lux: "pro",
      north: "pro",
      stak: "pro",
      intra: "exclusive",
      syd: "standard",
      mak: "standard",
    });
    for (const template of templates) expect(typeof template.title).toBe("string");
  });

  it("1-5, 15: refuse a missing key or token, a wrong token, another account's token on own records", async () => {
    const nid = await api.createProperty();
    await api.ok("PUT", `/property/${nid}`, { external_id: "ext-auth" });
    const own = api.credentials();
    const { "API-KEY": _key, ...noKey } = own;
    const { TOKEN: _token, ...noToken } = own;
    const probes: Array<[Method, string, unknown]> = [
      ["GET", `/property/${nid}`, undefined],
      ["GET", "/external-property/ext-auth", undefined],
      ["POST", "/property", VALID_PROPERTY],
      ["PUT", `/property/${nid}`, { title: "x" }],
      ["GET", `/properties/${api.account.uid}`, undefined],
      ["GET", "/template_base", undefined],
    ];
    for (const [method, path, body] of probes) {
      expect((await api.call(method, path, body)).status, `${method} ${path}`).toBe(200);
      for (const headers of [
        noKey,
        noToken,
        { ...own, TOKEN: "not-a-token" },
        { ...own, TOKEN: service.accounts.other.token },
      ]) {
        expect(
          (await api.call(method, path, body, headers)).status,
          `${method} ${path} ${JSON.stringify(headers)}`,
        ).toBe(403);
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

describe("both ends of the reading of input: each refuses or takes, and what it takes keeps 2.1's facts", () => {
  it("edit-refuses-numbers: an edit takes strings only, even the create table's integer", async () => {
    const service = await startIndependentService({ variant: "edit-refuses-numbers" });
    try {
      const api = new Client(service);
      const nid = await api.createProperty({ bedrooms: 3 });
      expect(isRefused((await api.call("PUT", `/property/${nid}`, { bedrooms: 4 })).status)).toBe(true);
      expect(isRefused((await api.call("PUT", `/property/${nid}`, { title: 7 })).status)).toBe(true);
      expect((await api.property(nid)).bedrooms).toBe("3");
    } finally {
      await service.close();
    }
  });

  it("lenient-types: near types stored as documented; derived, read-only, unknown edit fields ignored", async () => {
    const service = await startIndependentService({ variant: "lenient-types" });
    try {
      const api = new Client(service);
      const nid = await api.createProperty({
        zip: 62701,
        bedrooms: "3",
        garage: "attached",
        property_type: "single family",
        template: "syd",
      });
      expect(await api.property(nid)).toMatchObject({
        zip: "62701",
        bedrooms: "3",
        garage: expect.stringMatching(/^[0-9]+$/),
        property_type: "SingleFamily",
        template: "syd",
      });
      await api.ok("PUT", `/property/${nid}`, {
        edit_access: 4,
        title: 12.5,
        website_url: "https://elsewhere.example/",
        nid: "1",
        uid: "2",
        no_such_field: "x",
      });
      expect(await api.property(nid)).toMatchObject({
        nid,
        uid: String(api.account.uid),
        edit_access: "4",
        title: "12.5",
        website_url: null,
      });
      expect(isRefused((await api.call("PUT", `/property/${nid}`, { edit_access: 0.5 })).status)).toBe(true);
    } finally {
      await service.close();
    }
  });
});

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
  it.concurrent.each(VARIANTS.map((v) => [v.name, v.section] as const))(
    "%s (section %s): its probe passes on the conforming service and fails on the variant",
    async (name) => {
      const probe = PROBES[name]!;
      const conforming = await startIndependentService();
      const broken = await startIndependentService({ variant: name });
      try {
        await probe(new Client(conforming));
        await expect(probe(new Client(broken))).rejects.toThrow();
      } finally {
        await Promise.all([conforming.close(), broken.close()]);
      }
    },
  );
});

// The in-process fetch reads a plain call (the runner's: a URL, a record of headers, a text body) from its
// arguments, without a Request: it must read what a Request, and the server behind a socket, would.
describe("the in-process fetch", () => {
  it("answers requests as the server does: headers, no content-type, lone surrogate, too long, a Request", async () => {
    const viaFetch = await startIndependentService();
    const viaSocket = await startIndependentService();
    try {
      const { apiKey, token } = viaFetch.accounts.primary;
      const json = { "content-type": "application/json" };
      const calls: Array<[string, RequestInit]> = [
        ["/property/1", { headers: { "API-KEY": ` ${apiKey} `, TOKEN: `${token}\t` } }],
        ["/property/1", { headers: { "API-KEY": apiKey, "api-key": apiKey, TOKEN: token } }],
        [
          "/property",
          { method: "POST", headers: { "API-KEY": apiKey, TOKEN: token }, body: JSON.stringify(VALID_PROPERTY) },
        ],
        [
          "/property",
          {
            method: "POST",
            headers: { "API-KEY": apiKey, TOKEN: token, ...json },
            body: JSON.stringify({ ...VALID_PROPERTY, description: "x".repeat(64 * 1024) }),
          },
        ],
        ["/property/1", { method: "PUT", headers: { "API-KEY": apiKey, TOKEN: token, ...json }, body: "" }],
        [
          "/properties/1",
          {
            method: "DELETE",
            headers: { "API-KEY": apiKey, TOKEN: token },
            body: null,
            redirect: "manual",
            signal: AbortSignal.timeout(60_000),
          },
        ],
      ];
      // The answers compared apart from each instance's own address and its auto-login tokens.
      const read = async (response: Response, service: IndependentService) => ({
        status: response.status,
        type: response.headers.get("content-type"),
        text: (await response.text())
          .split(service.url)
          .join("{base}")
          .replace(/\/autologin\/[^"]+/g, "/autologin/…"),
      });
      for (const [path, init] of calls) {
        const inProcess = await read(await viaFetch.fetch(`${viaFetch.url}/api/v1/object${path}`, init), viaFetch);
        const overSocket = await read(await fetch(`${viaSocket.url}/api/v1/object${path}`, init), viaSocket);
        expect(inProcess, `${init.method ?? "GET"} ${path}`).toEqual(overSocket);
      }
      // A body with a lone surrogate, sent as UTF-8 (where it becomes U+FFFD), edited into a property and read back.
      const loneSurrogate = `{"title":"Lone \ud800 surrogate"}`;
      const readBack = async (service: IndependentService, send: typeof fetch) => {
        const headers = { "API-KEY": apiKey, TOKEN: token, ...json };
        const created = JSON.parse(
          await (
            await send(`${service.url}/api/v1/object/property`, {
              method: "POST",
              headers,
              body: JSON.stringify(VALID_PROPERTY),
            })
          ).text(),
        ) as { nid: string };
        expect(
          (
            await send(`${service.url}/api/v1/object/property/${created.nid}`, {
              method: "PUT",
              headers,
              body: loneSurrogate,
            })
          ).status,
        ).toBe(200);
        return read(await send(`${service.url}/api/v1/object/property/${created.nid}`, { headers }), service);
      };
      const shown = await readBack(viaFetch, viaFetch.fetch);
      expect(shown.text).toContain('"title":"Lone \ufffd surrogate"');
      expect(shown).toEqual(await readBack(viaSocket, fetch));
      const whole = new Request(`${viaFetch.url}/api/v1/object/property/1`, {
        headers: { "API-KEY": apiKey, TOKEN: token },
      });
      expect(await read(await viaFetch.fetch(whole), viaFetch)).toEqual(
        await read(
          await fetch(`${viaSocket.url}/api/v1/object/property/1`, { headers: { "API-KEY": apiKey, TOKEN: token } }),
          viaSocket,
        ),
      );
      // What a Request refuses, the in-process fetch refuses too.
      await expect(
        viaFetch.fetch(`${viaFetch.url}/api/v1/object/property/1`, { headers: { TOKEN: "a\nb" } }),
      ).rejects.toThrow(TypeError);
      await expect(viaFetch.fetch(`${viaFetch.url}/api/v1/object/property/1`, { body: "{}" })).rejects.toThrow(
        TypeError,
      );
    } finally {
      await Promise.all([viaFetch.close(), viaSocket.close()]);
    }
  });
});
