import { ERROR_VALUES } from "./judge-answer.ts";
import { pactRoleOf, PROVIDER_STATES } from "./provider-state-names.ts";
import type { UsageBinding, UsageInteraction, UsageTest } from "./usage-document.ts";

/** A provider state of a Pact v4 interaction. */
export interface PactProviderState {
  name: string;
  params?: Record<string, unknown>;
}

/** A `fromProviderState` generator: the verifier puts the value the state set-up answered for `${key}` here. */
export interface ProviderStateGenerator {
  type: "ProviderState";
  expression: string;
  dataType: "STRING" | "INTEGER";
}

/** What one interaction needs from the provider before it is sent: its states, and where their ids go. */
export interface InteractionNeeds {
  states: PactProviderState[];
  /** The path with `${key}` where an id was bound; undefined when no id of the path was. */
  pathExpression?: string;
  /** Body generators by Pact JSON path. */
  bodyGenerators: Record<string, ProviderStateGenerator>;
}

type Collection = "properties" | "agents" | "documents";
const SINGULAR: Record<Collection, string> = { properties: "property", agents: "agent", documents: "document" };
const STATE_OF: Record<Collection, string> = {
  properties: PROVIDER_STATES.property,
  agents: PROVIDER_STATES.agent,
  documents: PROVIDER_STATES.document,
};
const CREATES: Record<Collection, string> = {
  properties: "createProperty",
  agents: "createAgentCard",
  documents: "createDocument",
};

/** How far a chain of answers is followed back to where its id was made. */
const MAX_CHAIN = 50;

/**
 * The provider states one interaction of a test needs when it is verified alone, as Pact verifies it: the test's
 * start (`seats-full`), the account uid a path names, for every id the client took from an earlier answer or
 * from a record of the start state a state that makes such a record (from the record as the mock held it, or
 * from the body of the create that made it) and answers its id under a key the request refers to as `${key}`,
 * and for a refusal naming `Agent Already Exists` the agent that already holds the email. Every state is for the
 * account the request's credentials open (`pactRoleOf`), whatever role the usage gave it.
 *
 * @param pathTemplate the operation's path template (`/api/v1/object/property/{nid}`).
 */
export function interactionNeeds(test: UsageTest, index: number, pathTemplate: string): InteractionNeeds {
  const interaction = test.interactions[index]!;
  const account = pactRoleOf(interaction.request.account ?? "primary");
  const states: PactProviderState[] = [];
  const seen = new Set<string>();
  const addState = (state: PactProviderState) => {
    const id = JSON.stringify(state);
    if (!seen.has(id)) {
      seen.add(id);
      states.push(state);
    }
  };
  const pathKeys: Record<string, string> = {};
  const bodyGenerators: Record<string, ProviderStateGenerator> = {};
  for (const binding of interaction.bindings) {
    const key = bindingKey(test, interaction, binding, account, addState);
    if (key === undefined) continue;
    if (binding.at.startsWith("/params/")) {
      const name = decodePointerToken(binding.at.slice("/params/".length));
      if (name !== "external-id") pathKeys[name] = key;
    } else if (binding.at.startsWith("/body")) {
      const value = valueAt(interaction.request.body, binding.at.slice("/body".length));
      bodyGenerators[pactPathOf(binding.at.slice("/body".length))] = {
        type: "ProviderState",
        expression: `\${${key}}`,
        dataType: typeof value === "number" ? "INTEGER" : "STRING",
      };
    }
  }
  const duplicate = duplicateOf(interaction);
  if (duplicate) {
    addState({
      name: PROVIDER_STATES.agent,
      params: { key: `agent_${safeKey(String(duplicate.email))}`, account, fields: duplicate },
    });
  }
  // Last: the records the interaction needs are made first, then the seats left are filled (an agent card it needs
  // takes one).
  if (test.start.kind === "named" && test.start.name === "seats-full")
    addState({ name: PROVIDER_STATES.seatsFull, params: { account } });
  const needs: InteractionNeeds = { states, bodyGenerators };
  if (Object.keys(pathKeys).length > 0)
    needs.pathExpression = pathWithKeys(pathTemplate, interaction.request.path, pathKeys);
  return needs;
}

/** The key a binding's value is answered under, its state added; undefined when the value stays as recorded. */
function bindingKey(
  test: UsageTest,
  interaction: UsageInteraction,
  binding: UsageBinding,
  account: string,
  addState: (state: PactProviderState) => void,
): string | undefined {
  if (binding.from === "account-uid" || (binding.from === "answer" && binding.at === "/params/uid")) {
    const role = binding.from === "account-uid" ? pactRoleOf(binding.account) : account;
    const key = `uid_${safeKey(role)}`;
    addState({ name: PROVIDER_STATES.accountUid, params: { key, account: role } });
    return key;
  }
  const collection =
    binding.from === "start-record" ? binding.collection : collectionOf(interaction.operation, binding.at);
  const origin =
    binding.from === "start-record"
      ? { kind: "record" as const, id: binding.id }
      : originOf(test, binding.interaction, binding.pointer, collection);
  const key =
    origin.kind === "record"
      ? `${SINGULAR[collection]}_${safeKey(origin.id)}`
      : origin.kind === "create"
        ? `${SINGULAR[collection]}_of_step_${origin.step + 1}`
        : `${SINGULAR[collection]}_${safeKey(origin.id)}`;
  const fields =
    origin.kind === "record"
      ? recordFields(test, collection, origin.id)
      : origin.kind === "create"
        ? plainObject(test.interactions[origin.step]!.request.body)
        : {};
  const params: Record<string, unknown> = { key, account, fields };
  if (collection === "documents") params.property = propertyOfDocument(test, fields);
  addState({ name: STATE_OF[collection], params });
  return key;
}

/**
 * The agent a refusal naming `Agent Already Exists` (section 7) needs to exist first: one holding the email the
 * request sent, with its names. On a create it is another card; on an update, a card other than the one updated.
 */
function duplicateOf(interaction: UsageInteraction): Record<string, unknown> | undefined {
  if (interaction.operation !== "createAgentCard" && interaction.operation !== "updateAgentCard") return undefined;
  if (interaction.response.status < 400 || !JSON.stringify(interaction.response.body ?? "").includes(ERROR_VALUES[1]))
    return undefined;
  const body = plainObject(interaction.request.body);
  if (typeof body.email !== "string" || body.email === "") return undefined;
  return { agent_first_name: "Existing", agent_last_name: "Agent", email: body.email };
}

type Origin = { kind: "record"; id: string } | { kind: "create"; step: number } | { kind: "unknown"; id: string };

/** Where an id an answer gave was made: a record of the start state, a create of the test, or neither known. */
function originOf(test: UsageTest, step: number, pointer: string, collection: Collection): Origin {
  for (let hops = 0; hops < MAX_CHAIN; hops += 1) {
    const earlier = test.interactions[step];
    if (!earlier) break;
    const value = String(valueAt(earlier.response.body, pointer));
    if (test.records[collection]?.[value] !== undefined) return { kind: "record", id: value };
    if (earlier.operation === CREATES[collection]) return { kind: "create", step };
    // An answer that repeats the id its request named (an edit answers the nid it was sent): follow that id back.
    const named = earlier.bindings.find(
      (binding) => binding.at.startsWith("/params/") && String(valueAt(earlier.request, binding.at)) === value,
    );
    if (!named) return { kind: "unknown", id: value };
    if (named.from === "start-record") return { kind: "record", id: named.id };
    if (named.from !== "answer") return { kind: "unknown", id: value };
    step = named.interaction;
    pointer = named.pointer;
  }
  return { kind: "unknown", id: "0" };
}

/** The collection an id of a request belongs to: a document's `property_reference` is a property's nid. */
function collectionOf(operation: string, at: string): Collection {
  if (at === "/body/property_reference") return "properties";
  if (/Agent/.test(operation)) return "agents";
  if (/Document/.test(operation)) return "documents";
  return "properties";
}

/** A start record's fields, less the mock's own keys (`id`, the owner's `uid`), which the provider makes anew. */
function recordFields(test: UsageTest, collection: Collection, id: string): Record<string, unknown> {
  const { id: _id, uid: _uid, nid: _nid, ...fields } = test.records[collection]?.[id] ?? {};
  return fields;
}

/** The fields of the property a document refers to, from the test's records or the create that made it. */
function propertyOfDocument(test: UsageTest, fields: Record<string, unknown>): Record<string, unknown> {
  const reference = fields.property_reference;
  if (reference === undefined || reference === null) return {};
  const id = String(reference);
  if (test.records.properties?.[id] !== undefined) return recordFields(test, "properties", id);
  const made = test.interactions.find(
    (interaction) =>
      interaction.operation === "createProperty" && String(valueAt(interaction.response.body, "/nid")) === id,
  );
  return made ? plainObject(made.request.body) : {};
}

/** The recorded path with each bound parameter's segment replaced by `${key}`. */
function pathWithKeys(template: string, path: string, keys: Record<string, string>): string {
  const templateSegments = template.split("/");
  const segments = path.split("?")[0]!.split("/");
  if (templateSegments.length !== segments.length) return segments.join("/");
  return segments
    .map((segment, at) => {
      const name = /^\{(.+)\}$/.exec(templateSegments[at]!)?.[1];
      return name !== undefined && keys[name] !== undefined ? `\${${keys[name]}}` : segment;
    })
    .join("/");
}

/** A Pact JSON path from a JSON pointer into a body: `/property_reference` → `$.property_reference`. */
export function pactPathOf(pointer: string): string {
  let path = "$";
  for (const token of pointer.split("/").slice(1).map(decodePointerToken)) {
    path = /^[0-9]+$/.test(token)
      ? `${path}[${token}]`
      : /^[A-Za-z_][A-Za-z0-9_]*$/.test(token)
        ? `${path}.${token}`
        : `${path}['${token.replace(/\\/g, "\\\\").replace(/'/g, "\\'")}']`;
  }
  return path;
}

/** The value at a JSON pointer, or undefined. */
export function valueAt(value: unknown, pointer: string): unknown {
  let node = value;
  for (const token of pointer.split("/").slice(1).map(decodePointerToken)) {
    if (node === null || typeof node !== "object" || !Object.hasOwn(node, token)) return undefined;
    node = (node as Record<string, unknown>)[token];
  }
  return node;
}

function decodePointerToken(token: string): string {
  return token.replace(/~1/g, "/").replace(/~0/g, "~");
}

/** A state key is an identifier a `${…}` expression can name. */
function safeKey(text: string): string {
  return text.replace(/[^A-Za-z0-9_]/g, "_").slice(0, 40);
}

function plainObject(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value)
    ? { ...(value as Record<string, unknown>) }
    : {};
}
