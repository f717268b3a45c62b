import type { ProviderStates } from "../services/provider-states.ts";
import { readAdminJson } from "./read-admin-json.ts";
import type { FieldError, Outcome } from "../problems.ts";
import { discardBody } from "./read-body.ts";
import type { MockRequest } from "./mock-request.ts";
import { okReply, problemReply, type Reply } from "./reply.ts";
import { whenSaved, type Durability } from "./when-saved.ts";

/** The path Pact's verifier is pointed at (`providerStatesSetupUrl`). */
export const PROVIDER_STATES_PATH = "/__admin/provider-states";
/** A state's params are a record's fields: far below this. */
export const PROVIDER_STATE_BODY_LIMIT = 64 * 1024;
const FIELDS = ["state", "params", "action"];

/** Collaborators of {@link createProviderStatesRoute}. */
export interface ProviderStatesRouteDeps {
  states: ProviderStates;
  durability?: Durability;
}

/**
 * `POST /__admin/provider-states`: Pact's state change call, with the body its verifier sends
 * (`{ "state", "params", "action": "setup" | "teardown" }`). A set-up answers the ids it made as a JSON object,
 * which the verifier injects where the pact says `${key}`; a teardown answers `{}` once the mock is back to its
 * seeded state. Anything else (another method, a body that is not such an object, an unknown state, params it
 * cannot use) is a 4xx problem, and changes nothing.
 */
export function createProviderStatesRoute(
  deps: ProviderStatesRouteDeps,
): (request: MockRequest) => Promise<Reply | undefined> {
  const refuse = (detail: string, errors?: FieldError[]) =>
    problemReply({ problem: "invalidProviderState", detail, ...(errors ? { errors } : {}) }, PROVIDER_STATES_PATH);
  return async (request) => {
    if (request.method !== "POST") {
      discardBody(request);
      return problemReply(
        {
          problem: "methodNotAllowed",
          detail:
            `${request.method} is not a method of ${PROVIDER_STATES_PATH}; ` +
            "Pact's verifier POSTs { state, params, action }.",
        },
        PROVIDER_STATES_PATH,
        { Allow: "POST" },
      );
    }
    const parsed = await readAdminJson(request, PROVIDER_STATE_BODY_LIMIT, PROVIDER_STATES_PATH, {
      tooLarge: `A provider state must be under ${PROVIDER_STATE_BODY_LIMIT} bytes.`,
      empty: 'The body is empty; Pact\'s verifier sends {"state": "<name>", "params": {...}, "action": "setup"}.',
    });
    if (!parsed.ok) return parsed.reply;
    const body = parsed.value;
    if (body === null || typeof body !== "object" || Array.isArray(body))
      return refuse('Send {"state": "<name>", "params": {...}, "action": "setup" | "teardown"}.', [
        { in: "body", pointer: "", detail: "must be an object" },
      ]);
    const fields = body as Record<string, unknown>;
    const errors: FieldError[] = Object.keys(fields)
      .filter((key) => !FIELDS.includes(key))
      .slice(0, 20)
      .map((key) => ({
        in: "body",
        pointer: `/${key.slice(0, 100).replace(/~/g, "~0").replace(/\//g, "~1")}`,
        detail: "is not a field of a provider state (state, params, action)",
      }));
    // An interaction without a state is set up with an empty name (Pact's verifier): nothing to make.
    const stateName = fields.state ?? "";
    if (typeof stateName !== "string" || stateName.length > 200)
      errors.push({ in: "body", pointer: "/state", detail: "must be the state's name, at most 200 characters" });
    const params = fields.params ?? {};
    if (params === null || typeof params !== "object" || Array.isArray(params))
      errors.push({ in: "body", pointer: "/params", detail: "must be an object" });
    const action = fields.action ?? "setup";
    if (action !== "setup" && action !== "teardown")
      errors.push({ in: "body", pointer: "/action", detail: 'must be "setup" or "teardown"' });
    if (errors.length > 0) return refuse("This is not a provider state as Pact's verifier sends it.", errors);
    const before = deps.durability?.version();
    const done: Outcome<Record<string, string>> =
      action === "teardown"
        ? tornDown(deps.states)
        : deps.states.setUp(stateName as string, params as Record<string, unknown>);
    if (!done.ok) return problemReply(done.failure, PROVIDER_STATES_PATH);
    return (await whenSaved(deps.durability, before, okReply(done.value), PROVIDER_STATES_PATH)).reply;
  };
}

/** A teardown injects nothing: its answer is an empty object. */
function tornDown(states: ProviderStates): Outcome<Record<string, string>> {
  const done = states.tearDown();
  return done.ok ? { ok: true, value: {} } : done;
}
