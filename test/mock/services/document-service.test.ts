/**
 * DocumentService without HTTP (section 4.3): a document belongs to a property of the same account, its times
 * come from the injected clock, and each account sees and changes only its own documents.
 */
import { expectNotFoundForOthers } from "../../support/not-found-for-others.ts";
import { describe, expect, it } from "vitest";
import { DocumentService } from "../../../src/mock/services/document-service.ts";
import type { AccountRecord } from "../../../src/mock/store/records.ts";
import { accountsOf, inMemoryStore } from "../../support/in-memory-store.ts";

/**
 * Property 1001 and its floorplan 1004 (created at 1735689600) belong to the demo account; property 1002 to the other.
 */
function setUp(startAt = 1_800_000_000_500) {
  const store = inMemoryStore();
  let now = startAt;
  const documents = new DocumentService({ store, now: () => now });
  return { store, documents, ...accountsOf(store), setNow: (ms: number) => (now = ms) };
}
const plan = (property_reference: number) => ({
  title: "Upper floor",
  property_reference,
  file_url: "https://files.example/upper.pdf",
});
const refused = (nid: number) => ({
  ok: false,
  failure: {
    problem: "unknownPropertyReference",
    detail: `No property with nid ${nid} for this account.`,
    errors: [{ in: "body", pointer: "/property_reference", detail: "refers to no property of this account" }],
  },
});

describe("DocumentService.create", () => {
  it("stores a document of the account's own property, timed in seconds by the clock, with the defaults", () => {
    const { store, documents, demo } = setUp();
    const outcome = documents.create(demo, plan(1001));
    expect(outcome).toEqual({ ok: true, value: { nid: expect.any(Number) } });
    const nid = outcome.ok ? outcome.value.nid : -1;
    expect(store.record("documents", nid)).toEqual({
      id: nid,
      uid: demo.id,
      ...plan(1001),
      created: 1_800_000_000,
      changed: 1_800_000_000,
      visible: true,
      category: "document",
      is_floorplan: false,
      Show_on_unbranded: false,
    });
    expect(store.documentsOfProperty(1001).map((document) => document.id)).toContain(nid);
  });

  it("files a floorplan under the floorplan category unless the body names one", () => {
    const { store, documents, demo } = setUp();
    const floorplan = documents.create(demo, { ...plan(1001), is_floorplan: true });
    const named = documents.create(demo, { ...plan(1001), is_floorplan: true, category: "brochure" });
    expect(floorplan.ok && store.record("documents", floorplan.value.nid)!.category).toBe("floorplan");
    expect(named.ok && store.record("documents", named.value.nid)!.category).toBe("brochure");
  });

  it.each([
    { case: "another account's property", property: 1002 },
    { case: "no property", property: 999_999 },
    { case: "an agent's nid", property: 1003 },
    { case: "a document's nid", property: 1004 },
  ])("refuses $case, pointing at property_reference, and stores nothing", ({ property }) => {
    const { store, documents, demo } = setUp();
    const before = store.counts().documents;
    expect(documents.create(demo, plan(property))).toEqual(refused(property));
    expect(store.counts().documents).toBe(before);
  });
});

describe("DocumentService.update", () => {
  it("sets changed from the clock, never before created, and answers the nid as a string", () => {
    const { store, documents, demo, setNow } = setUp();
    expect(documents.update(demo, 1004, { title: "Renamed" })).toEqual({ ok: true, value: { nid: "1004" } });
    expect(store.record("documents", 1004)).toEqual(
      expect.objectContaining({ title: "Renamed", created: 1735689600, changed: 1_800_000_000 }),
    );
    setNow(1_000_000_000_000); // a clock behind the record's creation
    documents.update(demo, 1004, { title: "Again" });
    expect(store.record("documents", 1004)!.changed).toBe(1735689600);
  });

  it("moves a document to another property of the account only", () => {
    const { store, documents, demo, other } = setUp();
    const second = documents.create(other, plan(1002));
    expect(second.ok).toBe(true);
    const before = structuredClone(store.record("documents", 1004));
    expect(documents.update(demo, 1004, { property_reference: 1002 })).toEqual(refused(1002));
    expect(store.record("documents", 1004)).toEqual(before);
  });
});

describe("a document of another account, or of none", () => {
  const calls: Record<string, (service: DocumentService, account: AccountRecord, nid: number) => unknown> = {
    retrieve: (service, account, nid) => service.retrieve(account, nid),
    update: (service, account, nid) => service.update(account, nid, { title: "Taken over" }),
    remove: (service, account, nid) => service.remove(account, nid),
  };

  it.each(Object.keys(calls))("%s: not found, told apart as foreign when it exists, and left as it was", (name) => {
    const { store, documents, other } = setUp();
    expectNotFoundForOthers({
      store,
      collection: "documents",
      noun: "document",
      call: (nid) => calls[name]!(documents, other, nid),
      foreign: 1004,
      otherKind: 1001,
    });
  });

  it("remove: the owner's removal takes it out of its property's documents", () => {
    const { store, documents, demo } = setUp();
    expect(documents.remove(demo, 1004)).toEqual({ ok: true, value: [true] });
    expect(store.record("documents", 1004)).toBeUndefined();
    expect(store.documentsOfProperty(1001)).toEqual([]);
    expect(documents.retrieve(demo, 1004)).toEqual({
      ok: false,
      failure: { problem: "notFound", detail: "No document with nid 1004 for this account." },
    });
  });
});
