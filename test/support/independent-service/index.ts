/**
 * A second, small implementation of the Property Listing Service, written from `service-interface.md` alone
 * (issue 8, item 4), to check the contract runner with something we did not write as the mock. Where the
 * document is silent it deliberately chooses otherwise than the mock: null for unset fields, its own error
 * statuses and bodies, extra fields, sparse nids, newest-first lists, a charset parameter, odd header case.
 * `VARIANTS` break one documented rule each (issue 8, item 12).
 *
 * @example
 * const service = await startIndependentService({ variant: "garage-as-word" });
 * // run the contract runner against service.url with service.accounts.primary
 * await service.close();
 */
import type { AddressInfo } from "node:net";
import { fixedAccounts, type Account } from "./accounts.ts";
import { agentBook } from "./agent-book.ts";
import { documentBook } from "./document-book.ts";
import { createHttpServer, createServiceFetch } from "./http-server.ts";
import { propertyBook } from "./property-book.ts";
import { faultsOf } from "./variants.ts";

export { VARIANTS, type Variant } from "./variants.ts";
export { LEGITIMATE_VARIANTS, type LegitimateVariant } from "./legitimate-variants.ts";

/** The credentials and limits of one account of the service. */
export interface IndependentAccount {
  apiKey: string;
  token: string;
  uid: number;
  agentSeats: number;
}

/** A running instance. */
export interface IndependentService {
  /** Base URL, without a path: the endpoints live under `${url}/api/v1/object/`. */
  url: string;
  /**
   * The same instance as a `fetch` answering in this process, for a run that judges answers rather than the network.
   */
  fetch: typeof globalThis.fetch;
  accounts: { primary: IndependentAccount; other: IndependentAccount; fresh: IndependentAccount };
  close(): Promise<void>;
}

const copy = (a: Account): IndependentAccount => ({
  apiKey: a.apiKey,
  token: a.token,
  uid: a.uid,
  agentSeats: a.agentSeats,
});

/**
 * Starts an instance on 127.0.0.1 (a free port): the plain conforming one, one broken by a defect of
 * `VARIANTS`, or one taking an open choice of `LEGITIMATE_VARIANTS`. It starts with one
 * property and one agent on the primary and other accounts each, and nothing on the fresh account.
 */
export async function startIndependentService(options: { variant?: string } = {}): Promise<IndependentService> {
  const faults = faultsOf(options.variant);
  const accounts = fixedAccounts();
  // Seats are limited and their number is not stated (section 8): legitimate variants hand out fewer.
  if (faults.chooses("primary-one-free-seat")) accounts.primary.agentSeats = 2;
  if (faults.chooses("primary-no-free-seat")) accounts.primary.agentSeats = 1;
  if (faults.chooses("fresh-one-seat")) accounts.fresh.agentSeats = 1;
  let url = "";
  const documents = documentBook({ faults, ownsProperty: (caller, nid) => properties.owns(caller, nid) });
  const properties = propertyBook({ faults, baseUrl: () => url, floorplansOf: (nid) => documents.floorplansOf(nid) });
  const agents = agentBook({ faults });

  // What an account holds when it is handed out is not shown: a legitimate variant starts them empty.
  if (!faults.chooses("empty-accounts")) {
    properties.seed(accounts.primary, {
      street: "12 Harbour Row",
      city: "Portland",
      state: "ME",
      zip: "04101",
      title: "Harbour Row loft",
      external_id: "seed-primary-1",
      list_price: "415000",
    });
    properties.seed(accounts.other, {
      street: "9 Elm Court",
      city: "Austin",
      state: "TX",
      zip: "73301",
      title: "Elm Court",
      external_id: "seed-other-1",
    });
  }
  // An account may start with no agents (agent-list-values-shifted hides its fault behind a list of one).
  if (!faults.on("agent-list-values-shifted") && !faults.chooses("empty-accounts")) {
    agents.seed(accounts.primary, "seed.agent@primary.example", "Seeded Agent");
    agents.seed(accounts.other, "seed.agent@other.example", "Other Agent");
  }

  const parts = { accounts, properties, agents, documents, faults };
  const server = createHttpServer(parts);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    fetch: createServiceFetch(parts),
    accounts: { primary: copy(accounts.primary), other: copy(accounts.other), fresh: copy(accounts.fresh) },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
