/**
 * A consumer's usage: what a team's client really did against the mock, test by test, in order, and what each
 * answer it received rests on (a documented fact, an assumption of ours, or a service profile). The mock records
 * it in every host (`--record-usage`, `usage: { consumer }`); the contract runner replays it against a service
 * (`--usage --base-url`), judges it against a recorded profile (`--usage --profile`) or writes it as a Pact file
 * (`--usage --write-pact`). It is data, versioned, with a published JSON Schema (`spec/usage.schema.json`), and it
 * never holds a credential's value: a request's credentials are replaced by the role of the account they open.
 */
import type { OperationId } from "../operation-id.ts";

/**
 * The version of the usage format this kit reads and writes; a reader refuses another. Version 2 names
 * assumptions by their stable names (`seat-limit-status`); version 1 named them by a row of docs/assumptions.md.
 */
export const USAGE_VERSION = 2;

/** The whole document: one consumer's recorded suite. */
export interface UsageDocument {
  $schema?: string;
  usageVersion: typeof USAGE_VERSION;
  /** The consumer's name (`--consumer`, `usage: { consumer }`): a Pact file's consumer. */
  consumer: string;
  /** The contract the mock answered by: the spec's title, version and the SHA-256 of `spec/openapi.yaml`. */
  contract: { title: string; version: string; sha256: string };
  /** The service profile the mock played back while recording, if any (its answers' basis is `profile`). */
  profile?: { source: string; runId: string; recordedAt: string };
  /** The accounts the tests used, by role; never a key or token. */
  accounts: UsageAccount[];
  tests: UsageTest[];
  /** Set when recording stopped at a bound: the whole document, or some test, is incomplete. */
  truncated?: UsageTruncation;
}

/** An account as a role. Role `"primary"` is the first account a suite used; replay sends `CONTRACT_API_KEY` for it. */
export interface UsageAccount {
  /** `"primary"`, `"other"`, `"fresh"` (the account of a seats-full start), or `"account-<n>"` beyond those. */
  role: string;
  /** The account's uid on the mock (section 2.1's `uid`): replay rebinds it to the service's. */
  uid: string;
  /** Where the account came from on the mock: a shipped demo account, or one opened on first use. */
  source: "demo" | "configured" | "opened-on-first-use";
}

/** Why and where recording stopped. */
export interface UsageTruncation {
  /** `max-accounts`: more accounts than a usage names by role (100). */
  reason: "max-tests" | "max-interactions-per-test" | "max-bytes" | "max-accounts";
  /** The limit that was reached. */
  limit: number;
  /** The test (and interaction index in it) where the first interaction went unrecorded. */
  at: { test: string; interaction?: number };
}

/** One test of the consumer's suite. */
export interface UsageTest {
  /** As the test runner names it (`suite > test`), or as `POST /__admin/usage/tests` / `beginTest(name)` gave it. */
  name: string;
  /** The state the test started from. */
  start: UsageStartState;
  /**
   * The records of the start state the test read or wrote by id, as the mock held them when the test began, so
   * that a replay can first make them on the service. Keyed by the id the mock gave them.
   */
  records: {
    properties?: Record<string, Record<string, unknown>>;
    agents?: Record<string, Record<string, unknown>>;
    documents?: Record<string, Record<string, unknown>>;
  };
  interactions: UsageInteraction[];
  /** Set when this test's interactions were cut at a bound. */
  truncated?: true;
}

/** A named, shipped state (`fixtures`, `seats-full`, …), or records a test gave the mock itself. */
export type UsageStartState = { kind: "named"; name: string } | { kind: "own" };

/** One request the client sent and the answer it got. */
export interface UsageInteraction {
  /** The contract's operationId (`retrieveProperty`, …); the reader refuses one the contract lacks. */
  operation: OperationId;
  request: UsageRequest;
  response: UsageResponse;
  /** Where each id of this request came from; ids with no binding are literal values the client invented. */
  bindings: UsageBinding[];
  /** What the answer the client got rests on. */
  basis: UsageBasis;
}

/** The request as the client sent it, credentials replaced by the account's role. */
export interface UsageRequest {
  method: string;
  /** The path as sent, ids included (`/api/v1/object/property/12`). */
  path: string;
  /** Path parameters by name, as strings (`{ nid: "12" }`). */
  params: Record<string, string>;
  /** Headers the client sent, lower-case, less `api-key`, `token` and any other credential-looking header. */
  headers: Record<string, string>;
  /** The role of the account the credentials opened; `null` when none (missing or wrong credentials). */
  account: string | null;
  /** How the credentials were sent when they did not open an account: absent or not matching. */
  credentials?: "missing" | "wrong";
  /** The parsed JSON body, or `undefined` without one. */
  body?: unknown;
}

/** The answer the client got. */
export interface UsageResponse {
  status: number;
  /** The media type, without parameters (`application/json`, `application/problem+json`). */
  mediaType: string | null;
  body: unknown;
}

/**
 * Where a value of a request came from. `at` is a JSON pointer into the request: `/params/nid`,
 * `/body/property_reference`.
 */
export type UsageBinding =
  | { at: string; from: "answer"; interaction: number; pointer: string }
  | { at: string; from: "account-uid"; account: string }
  | { at: string; from: "start-record"; collection: "properties" | "agents" | "documents"; id: string };

/** The basis of one part of an answer. */
export type Basis =
  | { tier: "fact" }
  /**
   * `ids` are the assumptions' stable names in `docs/assumptions.md` (`seat-limit-status`); `pointers` the marked
   * places in the spec.
   */
  | { tier: "assumption"; ids: string[]; pointers: string[] }
  /** A service profile supplied it: the profile's point (`error.seats`, `order.agent_list`). */
  | { tier: "profile"; point: string };

/** What each part of an answer rests on: its status, its media type, and every field of its body the client got. */
export interface UsageBasis {
  status: Basis;
  mediaType: Basis;
  /** By JSON pointer into the body (`/nid`, `/errors/0/pointer`); the root `""` for a body that is not an object. */
  fields: Record<string, Basis>;
}
