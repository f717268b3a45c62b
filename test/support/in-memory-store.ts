/**
 * The store the services run over, held in memory as the mock's core holds it (create-mock-core.ts), seeded with
 * the tiny fixtures unless told otherwise: for tests that call a service directly, without HTTP.
 */
import { MockStore } from "../../src/mock/store/mock-store.ts";
import type { AccountRecord, Database } from "../../src/mock/store/records.ts";
import { SharedState } from "../../src/mock/store/shared-state.ts";
import { DEMO, OTHER, tinyFixtures } from "./tiny-fixtures.ts";

export function inMemoryStore(seed: () => Database = tinyFixtures): MockStore {
  return new MockStore(new SharedState(seed()), seed);
}

/** The tiny fixtures' two accounts, as a service is given them once authenticated. */
export function accountsOf(store: MockStore): { demo: AccountRecord; other: AccountRecord } {
  return { demo: store.accountByKey(DEMO["API-KEY"])!, other: store.accountByKey(OTHER["API-KEY"])! };
}
