import { failure, success, type Outcome } from "../problems.ts";
import type { MockStore } from "../store/mock-store.ts";
import type { AccountRecord } from "../store/records.ts";

const missing = (detail: string): Outcome<never> => ({
  ok: false,
  failure: { problem: "unauthorized", detail, situation: "credentials-missing" },
});
const wrong = (detail: string): Outcome<never> => ({
  ok: false,
  failure: { problem: "unauthorized", detail, situation: "credentials-wrong" },
});

/** Accounts the mock opens on first use unless configured: enough for any test suite, a bound on memory. */
export const DEFAULT_MAX_ACCOUNTS = 10_000;

/** What {@link AccountService} works with: the store, and how accounts open. */
export interface AccountServiceDeps {
  store: MockStore;
  /** Open a new, empty account for an API key seen for the first time (the default); false admits known keys only. */
  openOnFirstUse: boolean;
  /** Agent seats of an account opened on first use. */
  defaultAgentSeats: number;
  /** No account is opened on first use once the store holds this many (seeded and raw ones count). */
  maxAccounts?: number;
}

/**
 * Authentication (section 5: the API-KEY and TOKEN headers). A key seen for the first time opens its own empty
 * account bound to the token it came with, so test suites that use their own keys never see each other's data;
 * from then on the key answers only to that token. Every key a client invents costs memory, so the accounts
 * opened this way are bounded.
 */
export class AccountService {
  readonly #deps: AccountServiceDeps;

  constructor(deps: AccountServiceDeps) {
    this.#deps = deps;
  }

  /** The account the two headers open, or `unauthorized` saying which header is wrong. */
  authenticate(apiKey: string | undefined, token: string | undefined): Outcome<AccountRecord> {
    if (!apiKey) return missing("The API-KEY header is missing.");
    if (!token) return missing("The TOKEN header is missing.");
    const known = this.#deps.store.accountByKey(apiKey);
    if (known) {
      return known.token === token ? success(known) : wrong("The TOKEN does not belong to this API-KEY.");
    }
    if (!this.#deps.openOnFirstUse) return wrong("The API-KEY is not known to this service.");
    const limit = this.#deps.maxAccounts ?? DEFAULT_MAX_ACCOUNTS;
    if (this.#deps.store.accountCount() >= limit) {
      return failure(
        "unauthorized",
        `The API-KEY is new, and this mock already holds ${limit} accounts, its limit for accounts opened on ` +
          `first use (--max-accounts). Use a known key, reset the mock, or start it with a higher ` +
          `--max-accounts.`,
      );
    }
    return success(
      this.#deps.store.addAccount({
        apiKey,
        token,
        agentSeats: this.#deps.defaultAgentSeats,
        name: `Opened on first use of ${apiKey}`,
      }),
    );
  }
}
