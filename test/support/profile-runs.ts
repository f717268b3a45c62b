/**
 * Runs of the contract runner in this process for the service-profile tests (test/profile): against the
 * independent service or the mock, recording a profile or holding one, with one compiled contract for all.
 */
import { createContract } from "../../src/contract/create-contract.ts";
import type { ServiceProfile } from "../../src/contract/profile/service-profile.ts";
import { runContract } from "../../src/contract/runner/run-contract.ts";
import type { IndependentService } from "./independent-service/index.ts";
import { HANG_MS } from "./deadlines.ts";

const contract = createContract();
const closedContract = createContract({ closed: true });

/** The three accounts a run uses. */
export type Accounts = {
  apiKey: string;
  token: string;
  other: { apiKey: string; token: string };
  fresh: { apiKey: string; token: string; seats?: number };
};

/** One run; its outcome carries the profile when `recordProfile` is set. A run that gives no verdict throws. */
export async function run(
  baseUrl: string,
  accounts: Accounts,
  extra: { profile?: ServiceProfile; recordProfile?: boolean; runId: string; fetch?: typeof globalThis.fetch },
) {
  const outcome = await runContract({ baseUrl, ...accounts, contract, closedContract, timeoutMs: HANG_MS, ...extra });
  if (outcome.kind !== "report") throw new Error(outcome.message);
  return outcome;
}

/** The independent service's accounts, the fresh one with its seats. */
export const serviceAccounts = (service: IndependentService): Accounts => ({
  apiKey: service.accounts.primary.apiKey,
  token: service.accounts.primary.token,
  other: service.accounts.other,
  fresh: { ...service.accounts.fresh, seats: service.accounts.fresh.agentSeats },
});

/** The closed contract (no unlisted fields), for a mock that checks its own answers. */
export { closedContract };
