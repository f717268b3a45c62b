/**
 * The one catalogue of errors the mock can answer (RFC 9457 problem types). The spec holds every entry, with its
 * title and status: a problem an operation answers for a reason of the service as an example of
 * components/responses, one only the mock sends (its admin routes, a test's steering, its own failures) in
 * the list x-mock-problems. test/mock/problems.test.ts holds the two to each other, both ways.
 */

/** Base of every problem type URI. */
export const PROBLEM_BASE = "https://property-listing.example/problems/";

/** A kind of problem: its type URI, title and status. */
export interface ProblemType {
  type: string;
  title: string;
  status: number;
}

const problem = (slug: string, title: string, status: number): ProblemType => ({
  type: PROBLEM_BASE + slug,
  title,
  status,
});

export const PROBLEMS = {
  invalidRequest: problem("validation-error", "Invalid Request", 400),
  malformedJson: problem("malformed-json", "Malformed JSON", 400),
  unauthorized: problem("unauthorized", "Unauthorized", 401),
  /** Section 7: the account has reached its limit of agent seats. */
  notEnoughAgentSeats: problem("not-enough-agent-seats", "Not Enough Agent Seats", 402),
  /** An admin request from a foreign origin or to a host the admin routes do not answer to. */
  forbidden: problem("forbidden", "Forbidden", 403),
  notFound: problem("not-found", "Not Found", 404),
  methodNotAllowed: problem("method-not-allowed", "Method Not Allowed", 405),
  /** Section 7: an agent is created with an email that already belongs to an agent. */
  agentAlreadyExists: problem("agent-already-exists", "Agent Already Exists", 409),
  externalIdInUse: problem("external-id-in-use", "External Id Already In Use", 409),
  /** A raw write (`/__db`) adding a record under an id or API key another record has. */
  rawIdTaken: problem("raw-id-taken", "Id Already Taken", 409),
  payloadTooLarge: problem("payload-too-large", "Payload Too Large", 413),
  unsupportedMediaType: problem("unsupported-media-type", "Unsupported Media Type", 415),
  unknownPropertyReference: problem("unknown-property-reference", "Unknown Property Reference", 422),
  /** A `Prefer` header asks for something the mock cannot do (a status outside 200-599, a delay too long). */
  invalidPreference: problem("invalid-preference", "Invalid Prefer Header", 400),
  /** `POST /__admin/faults` with a rule the mock cannot apply; every offending field is listed. */
  invalidFaultRule: problem("invalid-fault-rule", "Invalid Fault Rule", 400),
  /** `POST /__admin/faults` when the mock already holds as many rules as it keeps. */
  tooManyFaultRules: problem("too-many-fault-rules", "Too Many Fault Rules", 409),
  /** `POST /__admin/state` with a state that is not a shipped name or a valid set of records. */
  invalidState: problem("invalid-state", "Invalid State", 400),
  /**
   * `POST /__admin/reset` (or `/__admin/state` with a shipped state made from the fixtures) when the fixtures
   * file, read again, now holds a record the mock cannot hold: the request is right, the file it reads changed.
   */
  seedRefused: problem("seed-refused", "Seed Refused", 409),
  /** `PUT /__admin/latency` with a latency the mock cannot apply; every offending field is listed. */
  invalidLatency: problem("invalid-latency", "Invalid Latency", 400),
  /** `GET /__admin/events` when as many consoles as the mock serves already follow the journal. */
  tooManyConsoleViewers: problem("too-many-console-viewers", "Too Many Console Viewers", 429),
  /** `POST /__admin/provider-states` (Pact's verifier) with a state the mock does not know or params it cannot use. */
  invalidProviderState: problem("invalid-provider-state", "Invalid Provider State", 400),
  /** `POST /__admin/usage/tests` with a body that is not `{"name": "<the test's name>"}`. */
  invalidUsageTest: problem("invalid-usage-test", "Invalid Usage Test", 400),
  /** `POST /__admin/usage/tests` to a mock that does not record usage (`--record-usage`, the `usage` option). */
  usageNotRecorded: problem("usage-not-recorded", "Usage Not Recorded", 409),
  /** `GET /__admin/requests` with a filter it does not know. */
  invalidJournalFilter: problem("invalid-journal-filter", "Invalid Request Journal Filter", 400),
  /**
   * An answer a test asked for (`Prefer: code=503`, a fault rule), not one of the service: its status is the
   * one asked for, so `status` here is only the default.
   */
  injectedFault: problem("injected-fault", "Injected Fault", 500),
  /** The mock's own answer broke the contract: a bug of the mock, never caused by a client. */
  responseContractViolation: problem("response-contract-violation", "Mock Response Breaks The Contract", 500),
  /** With `--db`: a change could not be written to disk (the mock's own trouble, not the service's). */
  stateNotSaved: problem("state-not-saved", "State Not Saved", 503),
  /** An unexpected exception: a bug of the mock. */
  internalError: problem("internal-error", "Internal Error", 500),
} as const satisfies Record<string, ProblemType>;

export type ProblemKey = keyof typeof PROBLEMS;

/** One offending field of a request: where it is, and what is wrong with it. */
export interface FieldError {
  in: "body" | "path" | "header" | "query";
  pointer: string;
  detail: string;
}

/** An RFC 9457 problem details body as the mock answers it. */
export interface ProblemBody {
  type: string;
  title: string;
  status: number;
  detail: string;
  instance?: string;
  errors?: FieldError[];
}

/** An expected failure, as a value: the kind of problem and what went wrong this time. */
export interface Failure {
  problem: ProblemKey;
  detail: string;
  errors?: FieldError[];
  /** Answer this status instead of the problem type's own (only `injectedFault` needs it). */
  status?: number;
  /**
   * Which situation of its problem type this is, where a service profile may tell them apart (one could answer
   * 401 for missing credentials and 403 for wrong ones): see `profile-playback.ts`.
   */
  situation?: "credentials-missing" | "credentials-wrong" | "no-route" | "foreign-record";
}

/** What a service answers: a value, or an expected failure. Exceptions are left to bugs. */
export type Outcome<T> = { ok: true; value: T } | { ok: false; failure: Failure };

export const success = <T>(value: T): Outcome<T> => ({ ok: true, value });
export const failure = (problem: ProblemKey, detail: string, errors?: FieldError[]): Outcome<never> => ({
  ok: false,
  failure: errors ? { problem, detail, errors } : { problem, detail },
});

/**
 * A failure for a record of another account: answered exactly as a record the account does not have (same status,
 * shape and detail, so nothing tells the two apart), and marked for a service profile, which may answer it otherwise.
 */
export const foreign = (outcome: Outcome<never>, isForeign: boolean): Outcome<never> =>
  isForeign && !outcome.ok ? { ok: false, failure: { ...outcome.failure, situation: "foreign-record" } } : outcome;

/** Builds the problem body of a failure. */
export function toProblemBody(failed: Failure, instance?: string): ProblemBody {
  const kind = PROBLEMS[failed.problem];
  const body: ProblemBody = {
    type: kind.type,
    title: kind.title,
    status: failed.status ?? kind.status,
    detail: failed.detail,
  };
  if (instance !== undefined) body.instance = instance;
  if (failed.errors) body.errors = failed.errors;
  return body;
}

/** A refusal as lines for people: its detail, then each offending place (a refused state, at start or per test). */
export function refusalLines(failure: Failure): string[] {
  return [
    failure.detail,
    ...(failure.errors ?? []).map((error) => `${error.pointer || "(the state)"} ${error.detail}`),
  ];
}
