/**
 * The provider states a pact written from a usage names (`--write-pact`), shared by the writer and by the mock,
 * which sets them up (`POST /__admin/provider-states`). A provider team implements the same names against its
 * own service (docs/pact.md). Each that makes a record takes `{ key, account, fields }` and answers
 * `{ [key]: "<the id it made>" }`, which the verifier injects where the pact says `${key}`.
 */
export const PROVIDER_STATES = {
  /** `{ key, account, fields }`: a property of the account with these fields (section 2.1, or a create's body). */
  property: "a property exists",
  /**
   * `{ key, account, fields }`: an agent card of the account with these fields (its email, as given, reused if held).
   */
  agent: "an agent card exists",
  /**
   * `{ key, account, fields, property }`: a document on a property of the account (the property made from `property`).
   */
  document: "a document exists",
  /** `{ key, account }`: answers the account's uid (section 2.1's `uid`), for the list-by-user path. */
  accountUid: "the account's uid is known",
  /** `{ account }`: every agent seat of the account is taken (section 8), so creating an agent card is refused. */
  seatsFull: "the account's seats are full",
} as const;

/**
 * The mock's demo credentials for an account role of a usage: the pact carries these, never a value from the
 * recording (which holds none). `primary` and any role beyond the two demo accounts use the first.
 */
export function demoCredentialsOf(role: string): { apiKey: string; token: string } {
  return pactRoleOf(role) === "other"
    ? { apiKey: "broker-key", token: "broker-token" }
    : { apiKey: "demo-key", token: "demo-token" };
}

/**
 * The role whose demo credentials a pact's request carries for a role of the usage: `other` is itself, every other
 * role (`fresh`, `account-3`) opens the primary demo account. A provider state names this role, so that it sets up
 * the account the request's credentials open (the seats of a `fresh` account are filled on the primary one).
 */
export function pactRoleOf(role: string): "primary" | "other" {
  return role === "other" ? "other" : "primary";
}
