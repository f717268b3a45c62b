import type { Tier } from "../contract-violation.ts";
import type { CheckName } from "./checks.ts";
import type { Exchange } from "./http-exchange.ts";
import type { AccountName, CredentialMode } from "./sender.ts";

/** The checks that demand a refusal (any status but 2xx). */
export type RefusalCheck = Extract<
  CheckName,
  "negative_data_rejection" | "ignored_auth" | "use_after_free" | "duplicate_agent_rejected" | "agent_seat_limit"
>;

/** A refusal a step demands: which check, at which tier, citing which section, for breaking which rule. */
export interface Refusal {
  refusal: RefusalCheck;
  tier?: Tier;
  section?: string;
  /** The rule the request breaks, for the message: `state is 2 characters`. */
  rule?: string;
}

/** What a step sends and expects. */
export interface CallOptions {
  body?: unknown;
  /** The account whose credentials are sent (the primary one by default). */
  as?: AccountName;
  credentials?: CredentialMode;
  /** `success`: the documented 200; a refusal: any status but 2xx; `any`: no expectation. */
  expect: "success" | Refusal | "any";
  /** The content-type header to send instead of `application/json`; null sends none (profile probes). */
  contentType?: string | null;
  /** The point of a service profile this request probes (`error.not_found`), for the profile observer. */
  point?: string;
  /** With `point: "unset.property"`: the fields the property was created without. */
  unsetFields?: readonly string[];
  /** A value the step worked out for its point, for the profile observer. */
  observed?: unknown;
  /**
   * Earlier answers this request's expectation rests on (the delete before a retrieve that must be refused): when
   * one never came, the request is not sent and its checks are skipped with the reason (see {@link Needs}).
   */
  needs?: Needs;
}

/**
 * The answers a check or a call rests on, as `ctx.call` gave them: an `undefined` among them is a request that
 * got no answer, so what rests on it cannot be judged and is skipped with the reason, never failed. The answer a
 * check is about (`exchange`) is one of them when the key is given.
 */
export type Needs = ReadonlyArray<Exchange | undefined>;

/** A check a step evaluates itself. */
export interface StepCheck {
  step: string;
  passed: boolean;
  message: string;
  exchange?: Exchange | undefined;
  operation?: string;
  tier?: Tier;
  section?: string;
  expected?: string;
  actual?: string;
  /** Earlier answers the check rests on besides `exchange` (see {@link Needs}). */
  needs?: Needs;
}
