/**
 * What every service answers another account calling on a record it does not own: not found, told apart as foreign
 * when the record exists; not found, plainly, for a nid no record has or one of another collection; and the record
 * left as it was. The services' tests (test/mock/services) hold each operation on an owned record to it.
 */
import { expect } from "vitest";
import type { MockStore } from "../../src/mock/store/mock-store.ts";
import type { CollectionName } from "../../src/mock/store/records.ts";

export interface NotFoundForOthers {
  store: MockStore;
  collection: CollectionName;
  /** How the answer names a record of the collection: `property`, `agent card`, `document`. */
  noun: string;
  /** The operation, called as the other account on a nid. */
  call: (nid: number) => unknown;
  /** A nid of the collection that the other account does not own. */
  foreign: number;
  /** A nid of another collection. */
  otherKind: number;
}

export function expectNotFoundForOthers({
  store,
  collection,
  noun,
  call,
  foreign,
  otherKind,
}: NotFoundForOthers): void {
  const before = structuredClone(store.record(collection, foreign));
  expect(call(foreign)).toEqual({
    ok: false,
    failure: {
      problem: "notFound",
      detail: `No ${noun} with nid ${foreign} for this account.`,
      situation: "foreign-record",
    },
  });
  for (const nid of [999_999, otherKind])
    expect(call(nid)).toEqual({
      ok: false,
      failure: { problem: "notFound", detail: `No ${noun} with nid ${nid} for this account.` },
    });
  expect(store.record(collection, foreign)).toEqual(before);
}
