/**
 * The fixed accounts of the independent service and the authentication of section 5: `API-KEY` and `TOKEN`
 * must both be present and belong to the SAME account.
 */
import type { IncomingHttpHeaders } from "node:http";
import { denied, type Reply } from "./reply.ts";

/** One account: its credentials, its user id and how many agents it may have (section 8). */
export interface Account {
  apiKey: string;
  token: string;
  uid: number;
  agentSeats: number;
}

/** The accounts every instance starts with. */
export interface Accounts {
  /** The account a contract run uses: seats enough for a run. */
  primary: Account;
  /** A second account: the primary account's records are invisible or forbidden to it. */
  other: Account;
  /** No agents at start and a seat limit of 2, to reach the limit quickly. */
  fresh: Account;
}

/** Fresh copies, so that a test cannot change another instance's accounts. */
export function fixedAccounts(): Accounts {
  return {
    primary: { apiKey: "ik-primary-5e1d0c", token: "tk-primary-a93f27", uid: 730117, agentSeats: 20 },
    other: { apiKey: "ik-other-8b4411", token: "tk-other-0d6c95", uid: 730911, agentSeats: 10 },
    fresh: { apiKey: "ik-fresh-2f7e60", token: "tk-fresh-c18b3a", uid: 731707, agentSeats: 2 },
  };
}

/** Holes that a broken variant opens in authentication (each for one endpoint only). */
export interface AuthHoles {
  /** No API-KEY, but a known TOKEN: the token's account. */
  noKey?: boolean;
  /** No TOKEN, but a known API-KEY: the key's account. */
  noToken?: boolean;
  /** A known API-KEY with a token of no account: the key's account. */
  wrongToken?: boolean;
  /** A known API-KEY with another account's token: the key's account. */
  foreignToken?: boolean;
}

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return typeof value === "string" && value !== "" ? value : undefined;
}

/** The calling account, or a 403 reply. */
export function authenticate(headers: IncomingHttpHeaders, accounts: Accounts, holes: AuthHoles = {}): Account | Reply {
  const all = Object.values(accounts);
  const key = header(headers, "api-key");
  const token = header(headers, "token");
  const byKey = all.find((a) => a.apiKey === key);
  const byToken = all.find((a) => a.token === token);
  if (key === undefined) {
    return holes.noKey && byToken ? byToken : denied("API-KEY header is required", "auth-missing");
  }
  if (token === undefined) {
    return holes.noToken && byKey ? byKey : denied("TOKEN header is required", "auth-missing");
  }
  if (byKey === undefined) return denied("unknown API-KEY", "auth-mismatch");
  if (byToken === byKey) return byKey;
  if (byToken === undefined) return holes.wrongToken ? byKey : denied("TOKEN does not match API-KEY", "auth-mismatch");
  return holes.foreignToken ? byKey : denied("TOKEN does not match API-KEY", "auth-mismatch");
}
