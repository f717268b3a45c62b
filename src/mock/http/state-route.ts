import type { Outcome } from "../problems.ts";
import { readAdminJson } from "./read-admin-json.ts";
import { NAMED_STATES } from "../store/named-states.ts";
import type { MockStore } from "../store/mock-store.ts";
import { discardBody } from "./read-body.ts";
import type { MockRequest } from "./mock-request.ts";
import { okReply, problemReply, type Reply } from "./reply.ts";
import { whenSaved, type Durability } from "./when-saved.ts";

/** A state's records can be far larger than a fault rule; bounded all the same (the check is per record). */
export const STATE_BODY_LIMIT = 16 * 1024 * 1024;
const PATH = "/__admin/state";

/** What the state route asks of the mock. */
export interface StateControl {
  /** A reset to this state (a shipped name or records), or why it is refused. */
  use(state: unknown): Outcome<{ name: string }>;
  /** The name of the state the mock was last set to (a shipped name, or `"given"`). */
  current(): string;
}

/** Collaborators of {@link createStateRoute}. */
export interface StateRouteDeps {
  states: StateControl;
  store: MockStore;
  durability?: Durability;
}

/**
 * `/__admin/state`, for setting up a test: `GET` names the state in use and lists the shipped ones;
 * `POST {"state": "seats-full"}` or `POST {"state": {accounts, properties, agents, documents}}` resets the mock to
 * that state (fault rules and the journal emptied too), answered once saved with `--db`. A refused state is a
 * 400 listing every offending place, each under `/state`, and changes nothing.
 */
export function createStateRoute(deps: StateRouteDeps): (request: MockRequest) => Promise<Reply | undefined> {
  const answerList = () => ({
    current: deps.states.current(),
    states: Object.entries(NAMED_STATES).map(([name, state]) => ({ name, description: state.description })),
  });
  const load = async (request: MockRequest): Promise<Reply | undefined> => {
    const parsed = await readAdminJson(request, STATE_BODY_LIMIT, PATH, {
      tooLarge: `A state must be under ${STATE_BODY_LIMIT} bytes; start the mock with --state <file> for a larger one.`,
      empty: 'The body is empty; send {"state": "<name>"} or {"state": {<records>}}.',
    });
    if (!parsed.ok) return parsed.reply;
    const body = parsed.value as Record<string, unknown> | null;
    const extra =
      body !== null && typeof body === "object" && !Array.isArray(body)
        ? Object.keys(body).filter((key) => key !== "state")
        : [];
    if (body === null || typeof body !== "object" || Array.isArray(body) || !("state" in body) || extra.length > 0) {
      const errors =
        extra.length > 0
          ? extra.slice(0, 20).map((key) => ({
              in: "body" as const,
              pointer: `/${key.slice(0, 100).replace(/~/g, "~0").replace(/\//g, "~1")}`,
              detail: "is not a field of this route (state)",
            }))
          : [{ in: "body" as const, pointer: "/state", detail: "is required" }];
      return problemReply(
        {
          problem: "invalidState",
          detail:
            'Send {"state": "<a shipped name>"} or ' +
            '{"state": {"accounts": [...], "properties": [...], "agents": [...], "documents": [...]}}; ' +
            "GET /__admin/state lists the names.",
          errors,
        },
        PATH,
      );
    }
    const before = deps.durability?.version();
    const used = deps.states.use(body.state);
    if (!used.ok) {
      const errors = used.failure.errors?.map((error) => ({ ...error, pointer: `/state${error.pointer}` }));
      return problemReply({ ...used.failure, ...(errors ? { errors } : {}) }, PATH);
    }
    return (
      await whenSaved(
        deps.durability,
        before,
        okReply({ status: "state", state: used.value.name, counts: deps.store.counts() }),
        PATH,
      )
    ).reply;
  };
  return async (request) => {
    if (request.method === "POST") return load(request);
    discardBody(request);
    if (request.method === "GET" || request.method === "HEAD") return okReply(answerList());
    return problemReply(
      {
        problem: "methodNotAllowed",
        detail: `${request.method} is not a method of ${PATH}; it allows GET, HEAD, POST.`,
      },
      PATH,
      { Allow: "GET, HEAD, POST" },
    );
  };
}
