/**
 * What a handler answers: a status and the JSON text of the body. The shapes of error bodies are this
 * implementation's own choice (section 7 leaves statuses and bodies open), deliberately unlike problem+json.
 */
export interface Reply {
  status: number;
  /** Already serialised, so that a handler can fix the order of numeric-looking keys (see agent list). */
  json: string;
}

/** A success answer (section 4: 200 for every endpoint). */
export function ok(body: unknown, status = 200): Reply {
  return { status, json: JSON.stringify(body) };
}

/** A body that was refused: 422 `{"error": ...}`. */
export function invalid(message: string): Reply {
  return { status: 422, json: JSON.stringify({ error: message, kind: "validation" }) };
}

/** A request that is not JSON, or a path parameter that is not a number: 400. */
export function malformed(message: string): Reply {
  return { status: 400, json: JSON.stringify({ error: message }) };
}

/** Missing or mismatched credentials: 403. */
export function denied(message: string): Reply {
  return { status: 403, json: JSON.stringify({ error: message, kind: "auth" }) };
}

/** Nothing there for this caller: 404 `{"message": ...}`. */
export function notFound(message: string): Reply {
  return { status: 404, json: JSON.stringify({ message }) };
}

/** The two named agent errors of section 7. */
export type AgentErrorValue = "Not Enough Agent Seats" | "Agent Already Exists";

/** A named agent error: 402 for seats (they must be bought), 409 for an existing email. */
export function agentError(value: AgentErrorValue): Reply {
  return { status: value === "Not Enough Agent Seats" ? 402 : 409, json: JSON.stringify({ error: value, kind: "agent" }) };
}

/** A generic refusal (used by the broken seat-limit variant, which does not name the error). */
export function refused(status: number, message: string): Reply {
  return { status, json: JSON.stringify({ error: message }) };
}
