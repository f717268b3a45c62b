import { uniqueEmail, type StartIds } from "./start-records.ts";
import type { UsageInteraction } from "./usage-document.ts";

/** What a replay knows while it replays one test: the service's answers so far and the ids it gave. */
export interface Rebinding {
  /** The start records made on the service, by `collection:mock id`. */
  start: StartIds;
  /** The body of each earlier interaction's answer on the service, by index; undefined where none came. */
  answers: unknown[];
  /** Each role's uid on the service. */
  uids: Map<string, string>;
  /** The run's tag: external ids and emails the client invented are made unique to the run with it. */
  tag: string;
  /** A mock id the client saw → the service's id for the same record (a start record, one the test made or read). */
  ids: Map<string, string>;
  /** The test's recorded interactions: what the client got from the mock, where a bound id came from. */
  recorded: readonly UsageInteraction[];
}

/** A request ready to send on the service, or why it cannot be: an id it rests on never came. */
export type ReboundRequest = { path: string; body?: unknown } | { missing: string };

/**
 * The request of an interaction with every bound id replaced by the service's (an earlier answer's value, the
 * account's uid, a start record's new id), and the values that must be unique on the service made unique to the
 * run (an external id, section 4.1, endpoint 2; an agent's email, section 2.2), the same way each time so that a
 * test that sends one twice still does. The path is built from the operation's template and the parameters.
 */
export function rebindRequest(
  interaction: UsageInteraction,
  pathTemplate: string,
  rebinding: Rebinding,
  index: number,
): ReboundRequest {
  const request = {
    params: { ...interaction.request.params },
    body: structuredClone<unknown>(interaction.request.body),
  };
  const bound = new Set<string>();
  for (const binding of interaction.bindings) {
    let value: unknown;
    if (binding.from === "answer") {
      const source = rebinding.recorded[binding.interaction];
      if (source && inCollection(source, binding.pointer)) {
        // An id the client took from a list (an entry's nid, a key of the agent list) is bound by identity: the
        // record the test made or read with that id on the mock, never the entry at the same place of the
        // service's list, which on a reused account may be a leftover of another run.
        const mockId = valueAt(source.response.body, binding.pointer);
        value = mockId === undefined || mockId === null ? undefined : rebinding.ids.get(String(mockId));
        if (value === undefined)
          return {
            missing:
              `interaction #${index} takes ${binding.at} from an entry of the list answered to interaction ` +
              `#${binding.interaction} (${binding.pointer}, ${JSON.stringify(mockId) ?? "absent"} on the ` +
              `mock), a record this test neither made nor read first; a place in a list is no identity`,
          };
      } else {
        const answer = rebinding.answers[binding.interaction];
        value = answer === undefined ? undefined : valueAt(answer, binding.pointer);
        if (value === undefined)
          return {
            missing:
              `interaction #${index} takes ${binding.at} from the answer to interaction ` +
              `#${binding.interaction} (${binding.pointer}), which the service did not give`,
          };
      }
    } else if (binding.from === "account-uid") {
      value = rebinding.uids.get(binding.account);
    } else {
      value = rebinding.start.get(`${binding.collection}:${binding.id}`);
    }
    if (value === undefined) return { missing: `interaction #${index}: no value on the service for ${binding.at}` };
    const previous = valueAt(request, binding.at);
    // A number stays a number (property_reference), a string a string (a path parameter).
    setAt(
      request,
      binding.at,
      typeof previous === "number" && /^[0-9]+$/.test(String(value))
        ? Number(value)
        : typeof previous === "string"
          ? String(value)
          : value,
    );
    bound.add(binding.at);
  }
  const body = request.body;
  if (body !== null && typeof body === "object" && !Array.isArray(body)) {
    const fields = body as Record<string, unknown>;
    if (typeof fields.external_id === "string" && fields.external_id !== "" && !bound.has("/body/external_id"))
      fields.external_id = `${fields.external_id}-${rebinding.tag}`;
    if (typeof fields.email === "string" && !bound.has("/body/email"))
      fields.email = uniqueEmail(fields.email, rebinding.tag);
  }
  if (interaction.operation === "retrievePropertyByExternalId") {
    for (const name of Object.keys(request.params))
      if (!bound.has(`/params/${name}`)) request.params[name] = `${request.params[name]}-${rebinding.tag}`;
  }
  const names = [...pathTemplate.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]!);
  const path =
    names.length === 0 || names.some((name) => request.params[name] === undefined)
      ? interaction.request.path
      : pathTemplate.replace(/\{([^}]+)\}/g, (_whole, name: string) => encodeURIComponent(request.params[name]!));
  return request.body === undefined ? { path } : { path, body: request.body };
}

/**
 * Whether a pointer into an answer reaches its value through a collection of records: an item of a list, or an
 * entry of the agent list (a map keyed by the agents' nids, section 4.2).
 */
function inCollection(source: UsageInteraction, pointer: string): boolean {
  if (source.operation === "listAgentCards" && pointer !== "") return true;
  let at: unknown = source.response.body;
  for (const token of pointer.slice(1).split("/").map(unescapeToken).slice(0, -1)) {
    if (Array.isArray(at)) return true;
    if (at === null || typeof at !== "object") return false;
    at = (at as Record<string, unknown>)[token];
  }
  return Array.isArray(at);
}

/** The value at a JSON pointer, or undefined. */
export function valueAt(value: unknown, pointer: string): unknown {
  if (pointer === "") return value;
  let at: unknown = value;
  for (const token of pointer.slice(1).split("/").map(unescapeToken)) {
    if (at === null || typeof at !== "object") return undefined;
    at = Array.isArray(at) ? at[Number(token)] : (at as Record<string, unknown>)[token];
  }
  return at;
}

function setAt(target: Record<string, unknown>, pointer: string, value: unknown): void {
  const tokens = pointer.slice(1).split("/").map(unescapeToken);
  let at: unknown = target;
  for (const token of tokens.slice(0, -1)) {
    if (at === null || typeof at !== "object") return;
    at = (at as Record<string, unknown>)[token];
  }
  if (at !== null && typeof at === "object") (at as Record<string, unknown>)[tokens.at(-1)!] = value;
}

function unescapeToken(token: string): string {
  return token.replace(/~1/g, "/").replace(/~0/g, "~");
}
