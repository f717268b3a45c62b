/**
 * What a handler answers: a status and the JSON text of the body. The shapes of error bodies are this
 * implementation's own choice (section 7 leaves statuses and bodies open), deliberately unlike problem+json.
 * An error reply also carries its cause and message, so that a legitimate variant can answer it in a style of
 * its own (see `restyle`).
 */
import type { Faults } from "./variants.ts";

/** Why a request was refused. */
export type ErrorCause =
  | "validation"
  | "malformed"
  | "auth-missing"
  | "auth-mismatch"
  | "forbidden"
  | "not-found"
  | "agent"
  | "other";

export interface Reply {
  status: number;
  /** Already serialised, so that a handler can fix the order of numeric-looking keys (see agent list). */
  json: string;
  error?: { cause: ErrorCause; message: string };
}

/** A success answer (section 4: 200 for every endpoint). */
export function ok(body: unknown, status = 200): Reply {
  return { status, json: JSON.stringify(body) };
}

/** A body that was refused: 422 `{"error": ...}`. */
export function invalid(message: string): Reply {
  return {
    status: 422,
    json: JSON.stringify({ error: message, kind: "validation" }),
    error: { cause: "validation", message },
  };
}

/** A request that is not JSON, or a path parameter that is not a number: 400. */
export function malformed(message: string): Reply {
  return { status: 400, json: JSON.stringify({ error: message }), error: { cause: "malformed", message } };
}

/** Missing or mismatched credentials, or another account's records: 403. */
export function denied(message: string, cause: ErrorCause = "forbidden"): Reply {
  return { status: 403, json: JSON.stringify({ error: message, kind: "auth" }), error: { cause, message } };
}

/** Nothing there for this caller: 404 `{"message": ...}`. */
export function notFound(message: string): Reply {
  return { status: 404, json: JSON.stringify({ message }), error: { cause: "not-found", message } };
}

/** The two named agent errors of section 7. */
export type AgentErrorValue = "Not Enough Agent Seats" | "Agent Already Exists";

/** A named agent error: 402 for seats (they must be bought), 409 for an existing email. */
export function agentError(value: AgentErrorValue): Reply {
  return {
    status: value === "Not Enough Agent Seats" ? 402 : 409,
    json: JSON.stringify({ error: value, kind: "agent" }),
    error: { cause: "agent", message: value },
  };
}

/** A generic refusal (used by the broken seat-limit variant, which does not name the error). */
export function refused(status: number, message: string): Reply {
  return { status, json: JSON.stringify({ error: message }), error: { cause: "other", message } };
}

/**
 * An error reply in the style a legitimate variant chooses (section 7 shows no statuses and no body shape):
 * everything 400 with `{"errors": [...]}`, or 401 for missing credentials. Success replies pass unchanged.
 */
export function restyle(reply: Reply, faults: Faults): Reply {
  const { error } = reply;
  if (error === undefined) return reply;
  if (faults.chooses("errors-all-400-list-body")) {
    const code = error.cause === "agent" ? error.message : error.cause;
    return { ...reply, status: 400, json: JSON.stringify({ errors: [{ code, detail: error.message }] }) };
  }
  if (faults.chooses("auth-401-then-403") && error.cause === "auth-missing") return { ...reply, status: 401 };
  return reply;
}
