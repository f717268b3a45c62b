/** The store under the services: indexes that stay right through every change, and constant-time removal. */
import jsonServer from "json-server";
import { describe, expect, it } from "vitest";
import { MockStore } from "../../src/mock/store/mock-store.ts";
import type { Database, DocumentRecord } from "../../src/mock/store/records.ts";
import { tinyFixtures } from "../support/tiny-fixtures.ts";

const storeOf = (state: Database) => new MockStore(jsonServer.router<Database>(state).db, tinyFixtures);
const document = (id: number): DocumentRecord => ({
  id,
  uid: 1,
  created: 1,
  changed: 1,
  title: `Doc ${id}`,
  property_reference: 1001,
  file_url: `https://files.property-listing.example/${id}.pdf`,
  visible: true,
  category: "document",
  is_floorplan: false,
  Show_on_unbranded: false,
});

describe("removing records", () => {
  it("keeps every other record findable and listed, whichever records go and in whatever order", () => {
    const store = storeOf(tinyFixtures());
    const added = [2001, 2002, 2003, 2004, 2005, 2006].map((id) => store.add("documents", document(id)));
    for (const id of [2001, 2006, 2003, 1004, 2002]) store.remove("documents", store.record("documents", id)!);
    expect(store.state.documents.map((record) => record.id).sort()).toEqual([2004, 2005]);
    expect(store.record("documents", 2004)).toBe(added[3]);
    expect(
      store
        .documentsOfProperty(1001)
        .map((record) => record.id)
        .sort(),
    ).toEqual([2004, 2005]);
    store.remove("documents", store.record("documents", 2005)!); // a record that was moved into a gap
    store.remove("documents", store.record("documents", 2004)!);
    expect(store.state.documents).toEqual([]);
  });

  it("ignores a record that is not in the store, and a second removal", () => {
    const store = storeOf(tinyFixtures());
    const agent = store.record("agents", 1003)!;
    store.remove("agents", agent);
    store.remove("agents", agent);
    store.remove("documents", document(9999));
    expect(store.state.agents).toEqual([]);
    expect(store.state.documents.map((record) => record.id)).toEqual([1004]);
  });

  it("finds removal positions again after a raw write and a reindex", () => {
    const state = tinyFixtures();
    const store = storeOf(state);
    state.documents.unshift(document(3001)); // as a write through /__db would, behind the store's back
    store.refresh([{ collection: "documents", id: 3001 }]);
    store.remove("documents", store.record("documents", 1004)!);
    expect(state.documents.map((record) => record.id)).toEqual([3001]);
  });
});

describe("indexes", () => {
  it("follow changes of external id, email and property reference", () => {
    const store = storeOf(tinyFixtures());
    store.update("properties", store.record("properties", 1001)!, { external_id: "crm-new" });
    expect(store.propertyByExternalId(1, "crm-1001")).toBeUndefined();
    expect(store.propertyByExternalId(1, "crm-new")?.id).toBe(1001);
    store.update("agents", store.record("agents", 1003)!, { email: "New@Harbor.example" });
    expect(store.agentByEmail(1, "dana@harbor.example")).toBeUndefined();
    expect(store.agentByEmail(1, "new@harbor.EXAMPLE")?.id).toBe(1003);
    store.update("documents", store.record("documents", 1004)!, { property_reference: 1002 });
    expect(store.documentsOfProperty(1001)).toEqual([]);
    expect(store.documentsOfProperty(1002).map((record) => record.id)).toEqual([1004]);
  });

  it("never writes a key that could reach a prototype", () => {
    const store = storeOf(tinyFixtures());
    const property = store.record("properties", 1001)!;
    store.update("properties", property, JSON.parse('{"__proto__": {"polluted": true}, "city": "Dallas"}'));
    expect(Object.getPrototypeOf(property)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(property.city).toBe("Dallas");
  });

  it("hand out nids after every nid in use, tours and videos included", () => {
    const state = tinyFixtures();
    state.properties[0]!.property_videos = {
      "5000": { nid: 5000, title: "Walkthrough", video_url: "https://videos.property-listing.example/5000" },
    };
    expect(storeOf(state).nextId()).toBe(5001);
  });
});

describe("the nid sequence", () => {
  it("is never fed by reference fields, whatever they hold", () => {
    const state = tinyFixtures();
    Object.assign(state.properties[0]!, {
      main_image: "9007199254740991",
      logo: "5000",
      edit_access: "1e300",
      show_on_property: "abc",
    });
    expect(storeOf(state).nextId()).toBe(1103);
  });

  it("ignores ids that are not positive safe integers, so it never becomes NaN or inexact", () => {
    const state = tinyFixtures();
    Object.assign(state.properties[0]!, { id: "abc" });
    Object.assign(state.agents[0]!, { id: 2 ** 60 });
    state.accounts.push({ id: Number.NaN, apiKey: "nan", token: "t", agentSeats: 0, name: "NaN" });
    const store = storeOf(state);
    expect(store.nextId()).toBe(1103);
    expect(store.nextUid()).toBe(3);
  });

  it("is not moved by ids from 2^52 up, and steps over them, so it never runs out or collides", () => {
    const state = tinyFixtures();
    state.agents[0]!.id = Number.MAX_SAFE_INTEGER;
    state.documents[0]!.id = 1103;
    const store = storeOf(state);
    expect(store.nextId()).toBe(1104); // 1101 and 1102 are a tour and a video, 1103 the document
    state.properties[0]!.property_videos = {
      "1105": { nid: 1105, title: "V", video_url: "https://videos.property-listing.example/1105" },
    };
    store.refresh([{ collection: "properties", id: 1001 }]);
    expect(store.nextId()).toBe(1106);
  });
});

describe("raw writes (putRaw, removeRaw)", () => {
  const agent = (id: number, uid: number, email: string) => ({ ...tinyFixtures().agents[0]!, id, uid, email });

  it("keep every index right without a reindex: ids, owners, emails, external ids, floorplans", () => {
    const store = storeOf(tinyFixtures());
    store.putRaw("agents", agent(2001, 1, "New@Harbor.example"));
    expect(store.agentByEmail(1, "new@harbor.example")?.id).toBe(2001);
    store.putRaw("agents", agent(1003, 2, "dana@harbor.example")); // moved to another account
    expect(store.agentsOf(1).map((record) => record.id)).toEqual([2001]);
    expect(store.agentsOf(2).map((record) => record.id)).toEqual([1003]);
    expect(store.agentByEmail(1, "dana@harbor.example")).toBeUndefined();
    expect(store.agentByEmail(2, "dana@harbor.example")?.id).toBe(1003);
    expect(store.state.agents.map((record) => record.id)).toEqual([1003, 2001]); // replaced in its place

    const property = { ...store.record("properties", 1002)!, external_id: "raw-ext" };
    store.putRaw("properties", property);
    expect(store.propertyByExternalId(2, "crm-1002")).toBeUndefined();
    expect(store.propertyByExternalId(2, "raw-ext")).toBe(property);
    store.removeRaw("properties", property);
    expect(store.propertyByExternalId(2, "raw-ext")).toBeUndefined();
    expect(store.propertiesOf(2)).toEqual([]);

    store.putRaw("documents", { ...store.record("documents", 1004)!, id: 2002, property_reference: 1001 });
    expect(store.documentsOfProperty(1001).map((record) => record.id)).toEqual([1004, 2002]);
    store.removeRaw("documents", store.record("documents", 1004)!);
    expect(store.documentsOfProperty(1001).map((record) => record.id)).toEqual([2002]);
  });

  it("keep an email two agents of one account hold (raw writes skip the rule) taken until both are gone", () => {
    const store = storeOf(tinyFixtures());
    store.putRaw("agents", agent(2001, 1, "DANA@harbor.example"));
    store.removeRaw("agents", store.record("agents", 2001)!);
    expect(store.agentByEmail(1, "dana@harbor.example")?.id).toBe(1003);
    store.putRaw("agents", agent(2002, 1, "dana@harbor.example"));
    store.removeRaw("agents", store.record("agents", 1003)!);
    expect(store.agentByEmail(1, "dana@harbor.example")?.id).toBe(2002);
  });

  it("move the sequences past a raw id and the nids of its tours and videos, and tell the listeners", () => {
    const store = storeOf(tinyFixtures());
    const changes: string[] = [];
    store.onChange((change) => changes.push(change.kind === "reset" ? "reset" : `${change.kind} ${change.collection}`));
    const videos = { "7001": { nid: 7001, title: "V", video_url: "https://videos.property-listing.example/7001" } };
    store.putRaw("properties", {
      ...store.record("properties", 1001)!,
      id: 5000,
      external_id: null,
      property_videos: videos,
    });
    expect(store.nextId()).toBe(7002);
    store.putRaw("accounts", { id: 40, apiKey: "raw", token: "t", agentSeats: 1, name: "Raw" });
    expect(store.nextUid()).toBe(41);
    store.removeRaw("accounts", store.record("accounts", 40)!);
    store.removeRaw("accounts", { id: 40, apiKey: "raw", token: "t", agentSeats: 1, name: "Raw" }); // not in the store
    expect(changes).toEqual(["put properties", "put accounts", "remove accounts"]);
  });
});

describe("reset", () => {
  it("takes a fresh seed each time, so changes made after one reset do not reach the next", () => {
    const store = storeOf(tinyFixtures());
    store.reset();
    store.remove("agents", store.record("agents", 1003)!);
    store.reset();
    expect(store.record("agents", 1003)?.email).toBe("dana@harbor.example");
  });
});
