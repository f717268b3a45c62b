/**
 * RawRecordService without HTTP: what json-server's router writes under /__db, checked against the stored shape
 * and the ids' rules, nothing written on a refusal, and none of the service's own rules (a raw write prepares states
 * the API would refuse).
 */
import { describe, expect, it } from "vitest";
import { RawRecordService } from "../../../src/mock/services/raw-records.ts";
import { createRawRecordValidator } from "../../../src/mock/store/create-raw-record-validator.ts";
import { sharedContract } from "../../support/mock-harness.ts";
import { inMemoryStore } from "../../support/in-memory-store.ts";
import { tinyFixtures } from "../../support/tiny-fixtures.ts";

const validate = createRawRecordValidator(sharedContract().document);
function setUp() {
  const store = inMemoryStore();
  return { store, raw: new RawRecordService(store, validate) };
}
/** A whole agent record of the other account, without an id, so that it gets the next nid. */
function agentOfOther(email: string): Record<string, unknown> {
  const { id: _id, ...fields } = tinyFixtures().agents[0]!;
  return { ...fields, uid: 2, email };
}

describe("RawRecordService.find: ids as json-server compares them, as text", () => {
  it.each([
    { id: 1001, found: true },
    { id: "1001", found: true },
    { id: "01001", found: false },
    { id: "1001.0", found: false },
    { id: "1e3", found: false },
    { id: -1001, found: false },
    { id: "9007199254740992", found: false },
    { id: null, found: false },
    { id: { id: 1001 }, found: false },
  ])("$id: found $found", ({ id, found }) => {
    expect(setUp().raw.find("properties", id)?.id).toBe(found ? 1001 : undefined);
  });
});

describe("RawRecordService writes", () => {
  it("adds a record without an id under the next nid, and an account under the next uid", () => {
    const { store, raw } = setUp();
    const next = store.sequences().nextId;
    const agent = raw.create("agents", agentOfOther("raw@b.example"));
    expect(agent.ok && agent.value.id).toBe(next);
    expect(store.record("agents", next)!.email).toBe("raw@b.example");
    const account = raw.create("accounts", { apiKey: "raw-key", token: "raw-token", agentSeats: 1, name: "Raw" });
    expect(account.ok && store.accountByKey("raw-key")!.id).toBe(account.ok ? account.value.id : undefined);
  });

  it.each([
    {
      case: "a taken id",
      collection: "agents",
      body: { ...agentOfOther("x@b.example"), id: 1003 },
      problem: "rawIdTaken",
      pointer: "/id",
    },
    {
      case: "an apiKey another account has",
      collection: "accounts",
      body: { apiKey: "demo-key", token: "t", agentSeats: 1, name: "Twin" },
      problem: "rawIdTaken",
      pointer: "/apiKey",
    },
    {
      case: "an array",
      collection: "agents",
      body: [agentOfOther("x@b.example")],
      problem: "invalidRequest",
      pointer: "",
    },
    {
      case: "a record missing a field",
      collection: "agents",
      body: { uid: 2, email: "x@b.example" },
      problem: "invalidRequest",
      pointer: undefined,
    },
    {
      case: "an id past 2^53-1",
      collection: "agents",
      body: { ...agentOfOther("x@b.example"), id: 2 ** 53 },
      problem: "invalidRequest",
      pointer: "/id",
    },
  ] as const)("refuses $case, naming the field, and writes nothing", ({ collection, body, problem, pointer }) => {
    const { store, raw } = setUp();
    const before = JSON.stringify(store.state);
    const outcome = raw.create(collection, body);
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) {
      expect(outcome.failure.problem).toBe(problem);
      if (pointer !== undefined) expect(outcome.failure.errors?.map((error) => error.pointer)).toContain(pointer);
      else expect(outcome.failure.errors?.length).toBeGreaterThan(0);
    }
    expect(JSON.stringify(store.state)).toBe(before);
  });

  it("checks what a PATCH leaves, not only what it sends, and keeps the record's id", () => {
    const { store, raw } = setUp();
    const refused = raw.patch("properties", "1001", { uid: "one" });
    expect(!refused.ok && refused.failure.errors?.map((error) => error.pointer)).toEqual(["/uid"]);
    expect(store.record("properties", 1001)!.uid).toBe(1);
    const patched = raw.patch("properties", "1001", { title: "Raw title", id: 5 });
    expect(patched.ok && patched.value.id).toBe(1001);
    expect(store.record("properties", 1001)!.title).toBe("Raw title");
    expect(store.record("properties", 5)).toBeUndefined();
  });

  it("skips the service's rules: an agent past the seats, a document on another account's property", () => {
    const { store, raw } = setUp();
    for (const email of ["a@x.example", "b@x.example", "c@x.example"])
      expect(raw.create("agents", { ...agentOfOther(email), uid: 1 }).ok).toBe(true);
    expect(store.agentCountOf(1)).toBe(4); // the demo account has 3 seats
    const { id: _id, ...plan } = tinyFixtures().documents[0]!;
    expect(raw.create("documents", { ...plan, uid: 1, property_reference: 1002 }).ok).toBe(true);
  });

  it("removes a record, says which records depend on a property, and answers not found for one not there", () => {
    const { store, raw } = setUp();
    expect(raw.dependentsOf("properties", 1001)).toEqual([{ collection: "documents", id: 1004 }]);
    expect(raw.dependentsOf("agents", 1003)).toEqual([]);
    expect(raw.remove("agents", "1003").ok).toBe(true);
    expect(store.record("agents", 1003)).toBeUndefined();
    const again = raw.remove("agents", "1003");
    expect(!again.ok && again.failure.problem).toBe("notFound");
  });
});
