/**
 * PropertyService without HTTP (section 4.1): what a create stores, external ids unique within an account, each
 * account seeing and changing only its own properties, and the choices a service profile may change.
 */
import { expectNotFoundForOthers } from "../../support/not-found-for-others.ts";
import { describe, expect, it } from "vitest";
import { AutologinTokens } from "../../../src/mock/services/autologin-tokens.ts";
import { PropertyService, type PropertyServiceDeps } from "../../../src/mock/services/property-service.ts";
import type { AccountRecord } from "../../../src/mock/store/records.ts";
import { accountsOf, inMemoryStore } from "../../support/in-memory-store.ts";

/** 1001 belongs to the demo account (external id crm-1001), 1002 to the other account (crm-1002). */
function setUp(options: Partial<PropertyServiceDeps> = {}) {
  const store = inMemoryStore();
  const properties = new PropertyService({
    store,
    tokens: new AutologinTokens({ secret: "a-test-secret" }),
    autologinUrl: (token, host) => `http://${host ?? "mock.example"}/autologin/${token}`,
    ...options,
  });
  return { store, properties, ...accountsOf(store) };
}
const address = { street: "7 Birch Rd", city: "Austin", state: "TX", zip: "78701" };
const nidOf = (outcome: { ok: boolean; value?: { nid: string } }) => Number(outcome.value!.nid);

describe("PropertyService.create", () => {
  it("stores the body's numbers as numeric strings, null for what it does not say; answers an auto-login uri", () => {
    const { store, properties, demo } = setUp();
    const outcome = properties.create(
      demo,
      { ...address, list_price: 1e21, bedrooms: 3, garage: "Detached", property_type: "Single Family" },
      "127.0.0.1:4010",
    );
    expect(outcome.ok).toBe(true);
    const nid = nidOf(outcome);
    expect(outcome.ok && outcome.value.uri).toMatch(
      new RegExp(`^http://127\\.0\\.0\\.1:4010/autologin/1-${nid}-[0-9a-f]+$`),
    );
    expect(store.record("properties", nid)).toEqual(
      expect.objectContaining({
        uid: demo.id,
        title: "7 Birch Rd",
        list_price: "1000000000000000000000",
        bedrooms: "3",
        baths: null,
        garage: "1",
        property_type: "SingleFamily",
        external_id: null,
        template: "rubik_v2",
        subdomain: `7-birch-rd-${nid}`,
        website_url: `https://7-birch-rd-${nid}.sites.property-listing.example`,
      }),
    );
  });

  it.each([
    { case: "the account's own external id", account: "demo", external_id: "crm-1001", taken: true },
    { case: "another account's external id", account: "other", external_id: "crm-1001", taken: false },
    { case: "a new external id", account: "demo", external_id: "crm-new", taken: false },
  ] as const)("external id: $case", ({ account, external_id, taken }) => {
    const setup = setUp();
    const before = setup.store.counts().properties;
    const outcome = setup.properties.create(setup[account], { ...address, external_id });
    if (taken) {
      expect(outcome).toEqual({
        ok: false,
        failure: { problem: "externalIdInUse", detail: 'The external id "crm-1001" already belongs to property 1001.' },
      });
      expect(setup.store.counts().properties).toBe(before);
    } else expect(setup.store.record("properties", nidOf(outcome))!.external_id).toBe(external_id);
  });

  it("lets a property take another's external id when a service profile allows it; the lookup finds the last", () => {
    const { properties, demo } = setUp({ sharedExternalIds: true });
    const nid = nidOf(properties.create(demo, { ...address, external_id: "crm-1001" }));
    const found = properties.retrieveByExternalIdJson(demo, "crm-1001");
    expect(found.ok && (found.value.value() as { nid: string }).nid).toBe(String(nid));
  });
});

describe("PropertyService.edit", () => {
  it("changes only the fields the body names; an empty external id removes it, freeing it for another property", () => {
    const { store, properties, demo } = setUp();
    const before = structuredClone(store.record("properties", 1001)!);
    expect(properties.edit(demo, 1001, { title: "New title", external_id: "" }).ok).toBe(true);
    expect(store.record("properties", 1001)).toEqual({ ...before, title: "New title", external_id: null });
    expect(properties.create(demo, { ...address, external_id: "crm-1001" }).ok).toBe(true);
  });

  it("refuses an external id another property of the account holds, changing nothing; one may keep its own", () => {
    const { store, properties, demo } = setUp();
    const nid = nidOf(properties.create(demo, { ...address, external_id: "crm-2" }));
    const before = structuredClone(store.record("properties", nid));
    expect(properties.edit(demo, nid, { title: "Changed", external_id: "crm-1001" })).toEqual({
      ok: false,
      failure: { problem: "externalIdInUse", detail: 'The external id "crm-1001" already belongs to property 1001.' },
    });
    expect(store.record("properties", nid)).toEqual(before);
    expect(properties.edit(demo, nid, { external_id: "crm-2" }).ok).toBe(true);
    expect(properties.edit(demo, nid, { external_id: "crm-1002" }).ok).toBe(true); // the other account's
  });

  it.each([
    {
      derived: undefined,
      body: { street: "1 New St" },
      title: "Craftsman bungalow",
      website: "https://12-oak-ave-1001.sites.property-listing.example",
    },
    {
      derived: { title: "follows-street", website_url: "as-edited" },
      body: { street: "1 New St" },
      title: "1 New St",
      website: "https://12-oak-ave-1001.sites.property-listing.example",
    },
    {
      derived: undefined,
      body: { subdomain: "oak" },
      title: "Craftsman bungalow",
      website: "https://oak.sites.property-listing.example",
    },
    {
      derived: { title: "kept", website_url: "kept" },
      body: { subdomain: "oak", website_url: "https://elsewhere.example" },
      title: "Craftsman bungalow",
      website: "https://12-oak-ave-1001.sites.property-listing.example",
    },
    {
      derived: { title: "kept", website_url: "from-subdomain" },
      body: { website_url: "https://elsewhere.example" },
      title: "Craftsman bungalow",
      website: "https://12-oak-ave-1001.sites.property-listing.example",
    },
  ] as const)("derived fields as the profile says ($derived): $body", ({ derived, body, title, website }) => {
    const { store, properties, demo } = setUp(derived ? { derived } : {});
    expect(properties.edit(demo, 1001, body).ok).toBe(true);
    expect({
      title: store.record("properties", 1001)!.title,
      website: store.record("properties", 1001)!.website_url,
    }).toEqual({ title, website });
  });
});

describe("a property of another account, or of none", () => {
  const calls: Record<
    string,
    (service: PropertyService, account: AccountRecord, nid: number) => { ok: boolean; failure?: unknown }
  > = {
    retrieve: (service, account, nid) => service.retrieveJson(account, nid),
    edit: (service, account, nid) => service.edit(account, nid, { title: "Taken over" }),
  };

  it.each(Object.keys(calls))("%s: not found, told apart as foreign when it exists, and left as it was", (name) => {
    const { store, properties, other } = setUp();
    expectNotFoundForOthers({
      store,
      collection: "properties",
      noun: "property",
      call: (nid) => calls[name]!(properties, other, nid),
      foreign: 1001,
      otherKind: 1003,
    });
  });

  it("an external id is looked up in the account's own properties only", () => {
    const { properties, demo, other } = setUp();
    expect(properties.retrieveByExternalIdJson(other, "crm-1001")).toEqual({
      ok: false,
      failure: { problem: "notFound", detail: 'No property with the external id "crm-1001" for this account.' },
    });
    const found = properties.retrieveByExternalIdJson(demo, "crm-1001");
    expect(found.ok && (found.value.value() as { nid: string }).nid).toBe("1001");
  });

  it("a user's list is answered to that user only", () => {
    const { properties, demo, other } = setUp();
    expect(properties.listByUserJson(demo, other.id)).toEqual({
      ok: false,
      failure: {
        problem: "notFound",
        detail:
          `No properties of uid ${other.id} for this account: an account lists only its own, and this account ` +
          `is uid ${demo.id}.`,
      },
    });
    const own = properties.listByUserJson(demo, demo.id);
    expect(own.ok && (own.value.value() as Array<{ nid: string }>).map((item) => item.nid)).toEqual(["1001"]);
  });
});
