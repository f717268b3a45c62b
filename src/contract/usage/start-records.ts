import type { RunContext } from "../runner/run-context.ts";
import type { AccountName } from "../runner/sender.ts";
import { SEAT_PROBE_LIMIT } from "../runner/steps/seat-steps.ts";
import { API, record } from "../runner/steps/step-support.ts";
import { startPropertyBody, startPropertyEdit } from "./start-property-body.ts";
import type { UsageTest } from "./usage-document.ts";

/** A start record of a test as the service holds it: `properties:1001` → the nid the service gave it. */
export type StartIds = Map<string, string>;

type Json = Record<string, unknown>;

const text = (value: unknown, otherwise: string): string =>
  typeof value === "string" && value.trim() !== "" ? value : otherwise;

/**
 * Makes on the service, through the API, the records of a test's start state that its requests name by id (every
 * record the usage keeps), from the records as the mock had them: a property from every field endpoint 3 takes,
 * then edited (endpoint 4) with the fields create cannot take (start-property-body.ts), an agent from
 * its names and an email made unique to the run (emails are unique, section 2.2), a document on the property it
 * belongs to (made first when the test did not name it). Each is the runner's own, labelled or deleted at the
 * end (docs/runner-in-ci.md, What a run leaves). Returns each record's id on the service, or why the test cannot be
 * replayed.
 */
export async function makeStartRecords(
  ctx: RunContext,
  test: UsageTest,
  as: AccountName,
  tag: string,
): Promise<{ ids: StartIds } | { failed: string }> {
  const ids: StartIds = new Map();
  const named = new Set<string>();
  for (const interaction of test.interactions) {
    for (const binding of interaction.bindings)
      if (binding.from === "start-record") named.add(`${binding.collection}:${binding.id}`);
  }
  // A record the client reached through an earlier answer (the first of a list) was read from the start state too.
  for (const collection of ["properties", "agents", "documents"] as const)
    for (const id of Object.keys(test.records[collection] ?? {})) named.add(`${collection}:${id}`);
  const step = (what: string) => `${test.name} › start: ${what}`;
  /** Creates a record on the service as the account of the role; its nid as a string, or undefined. */
  const create = async (
    what: string,
    operationId: "createProperty" | "createAgentCard" | "createDocument",
    path: string,
    body: Json,
  ): Promise<string | undefined> => {
    const nid = record(
      await ctx.call(step(`make ${what} of the start state`), operationId, path, { as, body, expect: "success" }),
    )?.nid;
    return typeof nid === "string" || typeof nid === "number" ? String(nid) : undefined;
  };
  const makeProperty = async (mockId: string, source: Json | undefined): Promise<string | undefined> => {
    const known = ids.get(`properties:${mockId}`);
    if (known) return known;
    const nid = await create(`property ${mockId}`, "createProperty", `${API}/property`, startPropertyBody(source));
    if (nid === undefined) return undefined;
    ids.set(`properties:${mockId}`, nid);
    const edit = startPropertyEdit(source, tag);
    if (
      edit &&
      !record(
        await ctx.call(
          step(`give property ${mockId} of the start state the fields create cannot take`),
          "editProperty",
          `${API}/property/${nid}`,
          { as, body: edit, expect: "success" },
        ),
      )
    )
      return undefined;
    return nid;
  };
  for (const key of [...named].sort(byCollection)) {
    const [collection, mockId] = key.split(":") as ["properties" | "agents" | "documents", string];
    if (ids.has(key)) continue;
    const source = test.records[collection]?.[mockId];
    if (collection === "properties") {
      if (!(await makeProperty(mockId, source)))
        return { failed: `property ${mockId} of the start state could not be made on the service` };
      continue;
    }
    if (collection === "agents") {
      const email = uniqueEmail(text(source?.email, `agent-${mockId}@replay.example`), tag);
      const body = {
        agent_first_name: text(source?.agent_first_name, "Replay"),
        agent_last_name: text(source?.agent_last_name, `Agent ${mockId}`),
        email,
      };
      const nid = await create(`agent ${mockId}`, "createAgentCard", `${API}/agent_card/`, body);
      if (nid === undefined) return { failed: `agent ${mockId} of the start state could not be made on the service` };
      ids.set(key, nid);
      continue;
    }
    const ownerId = String(source?.property_reference ?? "");
    const owner = await makeProperty(ownerId, test.records.properties?.[ownerId]);
    if (!owner)
      return { failed: `the property of document ${mockId} of the start state could not be made on the service` };
    const body: Json = {
      title: text(source?.title, `Document ${mockId}`),
      property_reference: Number(owner),
      file_url: text(source?.file_url, "https://files.replay.example/document.pdf"),
    };
    if (typeof source?.is_floorplan === "boolean") body.is_floorplan = source.is_floorplan;
    const nid = await create(`document ${mockId}`, "createDocument", `${API}/document/`, body);
    if (nid === undefined) return { failed: `document ${mockId} of the start state could not be made on the service` };
    ids.set(key, nid);
  }
  return { ids };
}

/** Properties first: a document of the start state is made on its property. */
function byCollection(a: string, b: string): number {
  const rank = (key: string) => ["properties", "agents", "documents"].indexOf(key.split(":")[0]!);
  return rank(a) - rank(b) || a.localeCompare(b);
}

/** An email unique to the run, the same for the same email: a test that sends one email twice still does. */
export function uniqueEmail(email: string, tag: string): string {
  const at = email.lastIndexOf("@");
  return at < 1
    ? `${email}+${tag}@replay.example`.toLowerCase()
    : `${email.slice(0, at)}+${tag}${email.slice(at)}`.toLowerCase();
}

/**
 * The seat-limit state, made as the runner's seat checks make it: agents created on the fresh account until one
 * is refused naming Not Enough Agent Seats (at most its known seats, else SEAT_PROBE_LIMIT). Returns the agents
 * made, to delete when the test ends, and why the state could not be made when it could not.
 */
export async function fillSeats(
  ctx: RunContext,
  test: UsageTest,
  tag: string,
  seats: number | undefined,
): Promise<{ agents: string[]; failed?: string }> {
  const agents: string[] = [];
  const limit = seats ?? SEAT_PROBE_LIMIT;
  for (let index = 0; index <= limit; index += 1) {
    const answer = await ctx.call(
      `${test.name} › start: fill the fresh account's seats (agent ${index + 1})`,
      "createAgentCard",
      `${API}/agent_card/`,
      {
        as: "fresh",
        body: {
          agent_first_name: "Seat",
          agent_last_name: `${index + 1} ${tag}`,
          email: `seat-${index}-${tag}@contract-run.example`.toLowerCase(),
        },
        expect: "any",
      },
    );
    if (!answer) return { agents, failed: "a create filling the fresh account's seats got no answer" };
    const nid = record(answer)?.nid;
    if (answer.status === 200 && (typeof nid === "string" || typeof nid === "number")) {
      agents.push(String(nid));
      continue;
    }
    return { agents };
  }
  return {
    agents,
    failed: `the fresh account took ${limit + 1} agents without refusing one (give its limit with --fresh-seats)`,
  };
}

/** Deletes the agents a seats-full start made, so the next test finds the fresh account as it was. */
export async function freeSeats(ctx: RunContext, test: UsageTest, agents: string[]): Promise<void> {
  for (const nid of agents)
    await ctx.call(
      `${test.name} › end: free a seat of the fresh account`,
      "deleteAgentCard",
      `${API}/agent_card/${nid}`,
      { as: "fresh", expect: "any" },
    );
}

/**
 * The uid of an account on the service (section 2.1), as the scenario learns it: a property the run made on the
 * account, retrieved; one is made for it when the run has none there yet.
 */
export async function accountUid(
  ctx: RunContext,
  as: AccountName,
  known: Map<AccountName, string>,
): Promise<string | undefined> {
  const cached = known.get(as);
  if (cached) return cached;
  let nid = ctx.properties.find((property) => property.account === as)?.nid;
  if (!nid) {
    const made = record(
      await ctx.call(`learn the ${as} account's uid: create a property`, "createProperty", `${API}/property`, {
        as,
        body: { street: "1 Replay Way", city: "Austin", state: "TX", zip: "78701" },
        expect: "success",
      }),
    );
    if (typeof made?.nid !== "string" && typeof made?.nid !== "number") return undefined;
    nid = String(made.nid);
  }
  const retrieved = record(
    await ctx.call(
      `learn the ${as} account's uid: retrieve its property`,
      "retrieveProperty",
      `${API}/property/${nid}`,
      { as, expect: "success" },
    ),
  );
  const uid = retrieved?.uid;
  if (typeof uid !== "string" && typeof uid !== "number") return undefined;
  known.set(as, String(uid));
  return String(uid);
}
