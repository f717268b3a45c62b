import { isDeepStrictEqual } from "node:util";
import type { Exchange } from "../http-exchange.ts";
import type { AccountName, Needs, RunContext } from "../run-context.ts";
import { documented } from "./property-steps.ts";
import { AGENT_SAMENESS, compareFields, normalUrl } from "./sent-value.ts";
import { API, record, refused, show, type Json, type RunNames } from "./step-support.ts";
import { linkWeightOrder } from "../answer-facts.ts";

type Link = { service: string; url: string; weight: string };

/** What the agent a run creates and the update it sends differ in; every other part of their bodies is shared. */
type AgentVersion = {
  firstName: string;
  lastName: string;
  phone: string;
  company: string;
  title: string;
  licence: string;
  site: string;
  links: (tag: string) => Link[];
  cardType: string;
  agencyProfile: string;
  headshot: string;
  notes: string;
};

/** Every field of section 2.2 but the id: what an agent create sends. */
const CREATED: AgentVersion = {
  firstName: "Contract",
  lastName: "Runner",
  phone: "(555) 010-0100",
  company: "Contract Run Realty",
  title: "Listing Agent",
  licence: "LIC",
  site: "",
  // Out of weight order, with a negative weight: they must come back ordered by weight (section 2.2).
  links: (tag) => [
    { service: "linkedin", url: `https://www.linkedin.com/in/${tag}`, weight: "5" },
    { service: "instagram", url: `https://www.instagram.com/${tag}`, weight: "-2" },
    { service: "x", url: `https://x.com/${tag}`, weight: "0" },
  ],
  cardType: "agent",
  agencyProfile: "3",
  headshot: "headshot.jpg",
  notes: "Created by a contract run.",
};

/** Every field of section 2.2 changed: what an agent update sends. */
const UPDATED: AgentVersion = {
  firstName: "Contracted",
  lastName: "Updated",
  phone: "(555) 010-0199",
  company: "Contract Run Homes",
  title: "Contract tester",
  licence: "LIC2",
  site: "/2",
  links: (tag) => [
    { service: "facebook", url: `https://facebook.com/${tag}`, weight: "3" },
    { service: "youtube", url: `https://youtube.com/@${tag}`, weight: "-10" },
  ],
  cardType: "team",
  agencyProfile: "4",
  headshot: "headshot-2.jpg",
  notes: "Updated by a contract run.",
};

/** The body of one version of the run's agent, every field of section 2.2 set. */
function agentBody(version: AgentVersion, tag: string, email: string): Json {
  return {
    // The first and last names together, so that a service that computes the name agrees (2.2: full display name).
    name: `${version.firstName} ${version.lastName} ${tag}`,
    agent_first_name: version.firstName,
    agent_last_name: `${version.lastName} ${tag}`,
    email,
    phone: version.phone,
    company: version.company,
    professional_title: version.title,
    license: `${version.licence}-${tag}`,
    website: `https://agents.contract-run.example/${tag}${version.site}`,
    social_media_links: version.links(tag),
    card_type: version.cardType,
    agency_profile: version.agencyProfile,
    headshot_url: `https://agents.contract-run.example/${tag}/${version.headshot}`,
    notes: version.notes,
  };
}

/** The same email address written with its domain in capitals: `a@x.example` → `a@X.EXAMPLE`. */
function sameAddress(email: string): string {
  const at = email.lastIndexOf("@");
  return `${email.slice(0, at)}@${email.slice(at + 1).toUpperCase()}`;
}

/** Whether an agent list entry is a record of a contract run (this one or another at the same time), which may move. */
const fromARun = (entry: unknown) => String((entry as Json | null)?.email ?? "").endsWith("@contract-run.example");

/** What an agent create came to: an agent, a refusal for want of a seat (section 8), or neither. */
export type AgentCreation =
  | { kind: "created"; nid: string; exchange: Exchange }
  | { kind: "full"; exchange: Exchange }
  | { kind: "failed"; exchange: Exchange | undefined };

const SEATS = "Not Enough Agent Seats";
const EXISTS = "Agent Already Exists";

/**
 * Creates an agent that the account may have no seat for: the seats per account are limited with no number
 * given (section 8), so a refusal naming Not Enough Agent Seats is a conforming answer, not a failure. Any other
 * answer but 200 fails the documented success status.
 */
export async function createAgent(
  ctx: RunContext,
  step: string,
  body: Json,
  as: AccountName = "primary",
): Promise<AgentCreation> {
  const exchange = await ctx.call(step, "createAgentCard", `${API}/agent_card/`, { body, as, expect: "any" });
  const nid = record(exchange)?.nid;
  if (exchange && typeof nid === "string") {
    ctx.check("status_code_conformance", {
      step,
      passed: exchange.status === 200,
      exchange,
      operation: "createAgentCard",
      section: "4",
      message: `answered ${exchange.status}`,
    });
    return { kind: "created", nid, exchange };
  }
  if (exchange && refused(exchange) && exchange.text.includes(SEATS)) return { kind: "full", exchange };
  if (exchange) {
    ctx.check("status_code_conformance", {
      step,
      passed: exchange.status === 200,
      exchange,
      operation: "createAgentCard",
      section: "4",
      message:
        `the operation should have succeeded with 200 (section 4) or been refused for want of a seat ` +
        `(${SEATS}), got ${exchange.status}: ${exchange.text.slice(0, 200)}`,
      expected: `200, or a refusal naming ${SEATS}`,
      actual: `${exchange.status}`,
    });
  }
  return { kind: "failed", exchange };
}

/**
 * A create with an email that belongs to an agent, judged once the run knows whether the account had a free
 * seat at the time (section 7 gives no precedence): with a seat free, only Agent Already Exists is right; on a
 * full account either named error is.
 */
export function judgeDuplicate(
  ctx: RunContext,
  step: string,
  exchange: Exchange | undefined,
  seatWasFree: boolean,
  tier: "fact" | "assumption" = "fact",
): void {
  if (!exchange) return;
  const answer = `${exchange.status} ${exchange.text.slice(0, 200)}`;
  ctx.check("duplicate_agent_rejected", {
    step,
    passed: refused(exchange),
    exchange,
    operation: "createAgentCard",
    tier,
    section: "7",
    message: `a create with an email that belongs to an agent should have been refused, got ${answer}`,
    expected: "a refusal (any status but 2xx)",
    actual: answer,
  });
  if (!refused(exchange) || tier === "assumption") return;
  const named = seatWasFree
    ? exchange.text.includes(EXISTS)
    : exchange.text.includes(EXISTS) || exchange.text.includes(SEATS);
  ctx.check("duplicate_agent_rejected", {
    step,
    passed: named,
    exchange,
    operation: "createAgentCard",
    section: "7",
    message: seatWasFree
      ? `the refusal does not name the error value ${EXISTS} (the account had a free seat)`
      : `the refusal names neither ${EXISTS} nor ${SEATS} (the account was full and the email taken: either is right)`,
    expected: seatWasFree ? `a refusal naming ${EXISTS}` : `a refusal naming ${EXISTS} or ${SEATS}`,
    actual: answer,
  });
}

/**
 * Endpoints 6 to 10: an agent with every field, retrieved, listed, updated in every field, refused a duplicate
 * email on create and update, deleted; its email free again afterwards. An account without a free seat is a
 * conforming account (section 8): what needs one is skipped with the reason, and the rest is checked.
 */
export async function agentSteps(ctx: RunContext, names: RunNames): Promise<void> {
  const email = `agent-${names.tag}@contract-run.example`.toLowerCase();
  const before = record(
    await ctx.call("list the agents", "listAgentCards", `${API}/agent_cards`, { expect: "success" }),
  );
  const agent = agentBody(CREATED, names.tag, email);
  const created = await createAgent(ctx, "create an agent with every field", agent);
  if (created.kind !== "created") {
    const reason =
      created.kind === "full"
        ? `the account has no free agent seat (${SEATS}, section 8: the number of seats is not stated); give ` +
          `an account with a free seat to check them`
        : "the agent could not be created";
    for (const check of [
      "create_round_trip",
      "edit_visible",
      "duplicate_agent_rejected",
      "use_after_free",
      "list_consistency",
      "documented_representation",
    ] as const)
      ctx.skip(check, "agent steps", reason);
    if (created.kind === "full" && before) await retrieveListed(ctx, before);
    return;
  }
  const { nid } = created;

  let step = "retrieve the agent";
  const fetched = await ctx.call(step, "retrieveAgentCard", `${API}/agent_card/${nid}`, { expect: "success" });
  const card = record(fetched);
  ctx.check("ensure_resource_availability", {
    step,
    passed: card?.id === nid,
    exchange: fetched,
    operation: "retrieveAgentCard",
    section: "2.2",
    message: `agent ${nid} answered id ${show(card?.id)}`,
    expected: show(nid),
    actual: show(card?.id),
  });
  if (card) checkAgent(ctx, step, fetched!, card, agent, "create_round_trip");

  step = "list the agents with the new one";
  const listed = await ctx.call(step, "listAgentCards", `${API}/agent_cards`, { expect: "success" });
  const list = record(listed);
  if (list) {
    const entry = list[nid] as Json | undefined;
    ctx.check("ensure_resource_availability", {
      step,
      passed: entry?.email === email,
      exchange: listed,
      operation: "listAgentCards",
      section: "4.2",
      message: `agent ${nid} is not listed under its nid with its email: ${show(entry)}`,
    });
    if (before) {
      const entry = (value: unknown) => documented(value, ["email", "nid"]);
      const moved = Object.entries(before)
        .filter(([key, value]) => !fromARun(value) && !isDeepStrictEqual(entry(list[key]), entry(value)))
        .map(([key, value]) => {
          const change = `changed from ${JSON.stringify(entry(value))} to ${JSON.stringify(entry(list[key]))}`;
          return `agent ${key} ${key in list ? change : "is no longer listed"}`;
        });
      ctx.check("list_consistency", {
        step,
        passed: moved.length === 0,
        exchange: listed,
        operation: "listAgentCards",
        section: "4.2",
        message: `creating agent ${nid} moved other entries: ${moved.slice(0, 5).join("; ")}`,
      });
    }
  }

  // Duplicates of the agent's email. Whether the account still had a free seat is known only once a second
  // agent is created (below): then only the email rule applied; otherwise both did (section 7: no precedence).
  const duplicates: Array<[string, Exchange | undefined, "fact" | "assumption"]> = [];
  const duplicate = async (label: string, address: string, tier: "fact" | "assumption") => {
    const answer = await ctx.call(label, "createAgentCard", `${API}/agent_card/`, {
      body: { agent_first_name: "Duplicate", agent_last_name: names.tag, email: address },
      expect: "any",
    });
    duplicates.push([label, answer, tier]);
  };
  await duplicate("create a second agent with the same email", email, "fact");
  // The same address with its domain in capitals: domain names are case-insensitive (RFC 5321, section 2.4), so
  // this email already belongs to an agent. Capitals in the local part are only our reading (a warning).
  await duplicate("create a second agent with the same email, its domain in capitals", sameAddress(email), "fact");
  await duplicate("create a second agent with the same email in upper case", email.toUpperCase(), "assumption");

  const secondEmail = `second-${names.tag}@contract-run.example`.toLowerCase();
  const second = await createAgent(ctx, "create a second agent", {
    agent_first_name: "Second",
    agent_last_name: names.tag,
    email: secondEmail,
  });
  for (const [label, answer, tier] of duplicates) judgeDuplicate(ctx, label, answer, second.kind === "created", tier);
  if (second.kind === "full")
    ctx.skip(
      "duplicate_agent_rejected",
      "an email that belongs to an agent, on an account with a free seat",
      `the account had no seat left after one agent (${SEATS}), so both refusals applied; the email rule ` +
        `alone is checked on the fresh account`,
    );
  if (second.kind === "created") {
    await secondAgentSeen(ctx, second.nid, { nid, email }, { nid: second.nid, email: secondEmail });
  } else {
    ctx.skip(
      "list_consistency",
      "list the agents holding two of the run's own",
      "the account has no seat for a second agent",
    );
    ctx.skip(
      "documented_representation",
      "retrieve the agent created without a name",
      "the account has no seat for a second agent",
    );
  }

  const newEmail = `agent-${names.tag}-updated@contract-run.example`.toLowerCase();
  const update = agentBody(UPDATED, names.tag, newEmail);
  step = "update every field of the agent";
  const updateAnswer = await ctx.call(step, "updateAgentCard", `${API}/agent_card/${nid}`, {
    body: update,
    expect: "success",
  });
  const updated = record(updateAnswer);
  if (updated)
    ctx.check("edit_visible", {
      step,
      passed: updated.nid === nid,
      operation: "updateAgentCard",
      section: "4.2",
      message: `the update answered nid ${show(updated.nid)}`,
      expected: show(nid),
      actual: show(updated.nid),
    });
  step = "retrieve the updated agent";
  const after = await ctx.call(step, "retrieveAgentCard", `${API}/agent_card/${nid}`, {
    expect: "success",
    needs: [updateAnswer],
  });
  if (record(after)) checkAgent(ctx, step, after!, record(after)!, update, "edit_visible");

  if (second.kind === "created") await duplicateOnUpdate(ctx, second.nid, newEmail, [updateAnswer]);
  else
    ctx.skip(
      "duplicate_agent_rejected",
      "update the second agent to the first agent's email",
      "the account has no seat for a second agent",
    );
  await weightNearMiss(ctx, names);

  const deleted = await ctx.call("delete the agent", "deleteAgentCard", `${API}/agent_card/${nid}`, {
    expect: "success",
  });
  await ctx.call("retrieve the deleted agent", "retrieveAgentCard", `${API}/agent_card/${nid}`, {
    expect: { refusal: "use_after_free", section: "4.2", rule: "the agent was deleted" },
    needs: [deleted],
  });
  step = "list the agents without the deleted one";
  const relisted = await ctx.call(step, "listAgentCards", `${API}/agent_cards`, {
    expect: "success",
    needs: [deleted],
  });
  const remaining = record(relisted);
  if (remaining)
    ctx.check("use_after_free", {
      step,
      passed: !(nid in remaining),
      exchange: relisted,
      operation: "listAgentCards",
      section: "4.2",
      message: `the deleted agent ${nid} is still listed`,
    });

  step = "create an agent with the deleted agent's email";
  const again = await ctx.call(step, "createAgentCard", `${API}/agent_card/`, {
    body: { agent_first_name: "Again", agent_last_name: names.tag, email: newEmail },
    expect: "any",
    needs: [updateAnswer, deleted],
  });
  ctx.check("duplicate_agent_rejected", {
    step,
    passed: again?.status === 200,
    exchange: again,
    operation: "createAgentCard",
    section: "7",
    message: "the email of a deleted agent is still refused: it no longer belongs to an agent",
    expected: "200",
    actual: again ? `${again.status} ${again.text.slice(0, 200)}` : "no answer",
  });
  const againNid = record(again)?.nid;
  if (typeof againNid === "string")
    await ctx.call("delete the agent with the reused email", "deleteAgentCard", `${API}/agent_card/${againNid}`, {
      expect: "success",
    });
}

/** On a full account: an agent already listed can still be retrieved under its key (read only; nothing is changed). */
async function retrieveListed(ctx: RunContext, list: Json): Promise<void> {
  const key = Object.keys(list)[0];
  if (key === undefined) return;
  const step = "retrieve an agent the list holds";
  const fetched = await ctx.call(step, "retrieveAgentCard", `${API}/agent_card/${encodeURIComponent(key)}`, {
    expect: "success",
  });
  const card = record(fetched);
  ctx.check("ensure_resource_availability", {
    step,
    passed: card?.id === key,
    exchange: fetched,
    operation: "retrieveAgentCard",
    section: "2.2",
    message: `the list holds agent ${key}, which answered id ${show(card?.id)}`,
    expected: show(key),
    actual: show(card?.id),
  });
}

/**
 * The second agent, created without a name: its name is a full display name (section 2.2), so it holds its
 * first and last names; and the list holds both of the run's agents under their own nids with their own emails.
 */
async function secondAgentSeen(
  ctx: RunContext,
  secondNid: string,
  first: { nid: string; email: string },
  second: { nid: string; email: string },
): Promise<void> {
  let step = "retrieve the agent created without a name";
  const fetched = await ctx.call(step, "retrieveAgentCard", `${API}/agent_card/${secondNid}`, { expect: "success" });
  const card = record(fetched);
  if (card) {
    // A name never given may come back null (the reading of section 2.1's absent values; a warning, below);
    // a name given back is a full display name.
    const name = card.name;
    const full =
      typeof name === "string" &&
      [card.agent_first_name, card.agent_last_name].every((part) => typeof part === "string" && name.includes(part));
    ctx.check("documented_representation", {
      step,
      passed: name === null || full,
      exchange: fetched,
      operation: "retrieveAgentCard",
      section: "2.2",
      message:
        `name is ${show(name)} for ${show(card.agent_first_name)} ${show(card.agent_last_name)}: a full ` +
        `display name holds the first and last names`,
      expected: "a name holding the first and last names",
      actual: show(name),
    });
    ctx.check("documented_representation", {
      step: `${step} (our reading of a name never given)`,
      passed: name !== null,
      exchange: fetched,
      operation: "retrieveAgentCard",
      tier: "assumption",
      message: "name is null: we expect the service to compose the display name from the first and last names",
    });
  }
  step = "list the agents holding two of the run's own";
  const listed = await ctx.call(step, "listAgentCards", `${API}/agent_cards`, { expect: "success" });
  const list = record(listed);
  if (list) {
    const wrong = [first, second]
      .filter(({ nid, email }) => (list[nid] as Json | undefined)?.email !== email)
      .map(({ nid, email }) => `key ${nid} holds ${show(list[nid])}, expected the agent with email ${email}`);
    ctx.check("list_consistency", {
      step,
      passed: wrong.length === 0,
      exchange: listed,
      operation: "listAgentCards",
      section: "4.2",
      message: `the list does not hold each of the run's agents under its own nid: ${wrong.join("; ")}`,
    });
  }
}

/** Section 2.2: the fields sent come back; social links with their weights, ordered by weight. */
function checkAgent(
  ctx: RunContext,
  step: string,
  exchange: Exchange,
  card: Json,
  sent: Json,
  check: "create_round_trip" | "edit_visible",
): void {
  const { social_media_links: sentLinks, ...scalars } = sent as Json & { social_media_links: Link[] };
  const { facts: wrong, readings } = compareFields(card, scalars, AGENT_SAMENESS);
  const links = Array.isArray(card.social_media_links) ? (card.social_media_links as Link[]) : [];
  // A link's URL is the same URL after normalisation (a trailing slash, host case); its text as sent is our reading.
  const key = (link: Link) => `${link?.service} ${normalUrl(link?.url) ?? link?.url} ${link?.weight}`;
  const textKey = (link: Link) => `${link?.service} ${link?.url} ${link?.weight}`;
  if (!isDeepStrictEqual(links.map(key).sort(), sentLinks.map(key).sort()))
    wrong.push(`social_media_links are ${JSON.stringify(links)}, sent ${JSON.stringify(sentLinks)}`);
  else if (!isDeepStrictEqual(links.map(textKey).sort(), sentLinks.map(textKey).sort()))
    readings.push(
      `social_media_links are ${JSON.stringify(links)}, sent ${JSON.stringify(sentLinks)} (the same URLs, in ` +
        `other text)`,
    );
  const { ascending, descending, weights } = linkWeightOrder(links);
  if (!ascending && !descending) wrong.push(`social_media_links are not ordered by weight: ${weights.join(", ")}`);
  ctx.check(check, {
    step,
    passed: wrong.length === 0,
    exchange,
    operation: "retrieveAgentCard",
    section: "2.2",
    message: wrong.join("; "),
  });
  ctx.check(check, {
    step: `${step} (our reading of the text sent)`,
    passed: readings.length === 0,
    exchange,
    operation: "retrieveAgentCard",
    tier: "assumption",
    message: `fields come back in other text than sent: ${readings.join("; ")}`,
  });
  if (wrong.length === 0) {
    ctx.check(check, {
      step: `${step} (our reading of the link order)`,
      passed: ascending,
      exchange,
      operation: "retrieveAgentCard",
      tier: "assumption",
      message: `social links come back by descending weight (${weights.join(", ")}); we expect the lightest first`,
    });
  }
}

/** Section 2.2: an email is unique among agents, also when an update would give an agent another's email. */
async function duplicateOnUpdate(ctx: RunContext, second: string, taken: string, needs: Needs): Promise<void> {
  const step = "update the second agent to the first agent's email";
  const answer = await ctx.call(step, "updateAgentCard", `${API}/agent_card/${second}`, {
    body: { email: taken },
    expect: { refusal: "duplicate_agent_rejected", section: "2.2", rule: "the email belongs to another agent" },
    needs,
  });
  if (refused(answer)) {
    ctx.check("duplicate_agent_rejected", {
      step,
      passed: answer!.text.includes(EXISTS),
      exchange: answer,
      operation: "updateAgentCard",
      tier: "assumption",
      message:
        "the refusal does not name Agent Already Exists (section 7 names it for a create; we expect it for " +
        "an update too)",
    });
  }
  await ctx.call(
    "update the second agent to the first agent's email, its domain in capitals",
    "updateAgentCard",
    `${API}/agent_card/${second}`,
    {
      body: { email: sameAddress(taken) },
      needs,
      expect: {
        refusal: "duplicate_agent_rejected",
        section: "2.2",
        rule: "the same address (domains are case-insensitive, RFC 5321 section 2.4) belongs to another agent",
      },
    },
  );
  await ctx.call(
    "update the second agent to the first agent's email in upper case",
    "updateAgentCard",
    `${API}/agent_card/${second}`,
    {
      body: { email: taken.toUpperCase() },
      needs,
      expect: {
        refusal: "duplicate_agent_rejected",
        tier: "assumption",
        rule: "we compare emails without regard to case",
      },
    },
  );
  await ctx.call("delete the second agent", "deleteAgentCard", `${API}/agent_card/${second}`, { expect: "success" });
}

/**
 * Section 2.2: a weight is integer-like. A create with a weight that is not must be refused; a service that
 * accepts it and gives back an integer-like weight is within the document (we warn), one that gives back the
 * bad weight breaks it.
 */
async function weightNearMiss(ctx: RunContext, names: RunNames): Promise<void> {
  const step = "create an agent with a social link weight that is not integer-like";
  const body = {
    agent_first_name: "Weight",
    agent_last_name: names.tag,
    email: `weight-${names.tag}@contract-run.example`.toLowerCase(),
    social_media_links: [{ service: "linkedin", url: "https://www.linkedin.com/in/weight", weight: "1.5" }],
  };
  const answer = await ctx.call(step, "createAgentCard", `${API}/agent_card/`, {
    body,
    expect: {
      refusal: "negative_data_rejection",
      tier: "assumption",
      section: "2.2",
      rule: "a weight is an integer-like string",
    },
  });
  const nid = record(answer)?.nid;
  if (typeof nid !== "string") return;
  const fetched = await ctx.call(
    "retrieve the agent created with the weight 1.5",
    "retrieveAgentCard",
    `${API}/agent_card/${nid}`,
    { expect: "success" },
  );
  const links = record(fetched)?.social_media_links;
  const weights = Array.isArray(links) ? links.map((link) => (link as Link | null)?.weight) : [];
  ctx.check("negative_data_rejection", {
    step: "retrieve the agent created with the weight 1.5",
    passed: weights.every((weight) => typeof weight === "string" && /^-?[0-9]+$/.test(weight)),
    exchange: fetched,
    operation: "retrieveAgentCard",
    section: "2.2",
    message:
      `the service accepted the weight "1.5" and answers weights ${JSON.stringify(weights)}: a weight is an ` +
      `integer-like string`,
  });
  await ctx.call("delete the agent created with the weight 1.5", "deleteAgentCard", `${API}/agent_card/${nid}`, {
    expect: "success",
  });
}
