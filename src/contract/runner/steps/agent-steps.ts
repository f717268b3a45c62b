import { isDeepStrictEqual } from "node:util";
import type { Exchange } from "../http-exchange.ts";
import type { RunContext } from "../run-context.ts";
import { documented } from "./property-steps.ts";
import { API, differences, record, refused, show, type Json, type RunNames } from "./step-support.ts";

type Link = { service: string; url: string; weight: string };

/** Every field of section 2.2 but the id: what an agent create sends. */
function fullAgent(tag: string, email: string): Json {
  return {
    name: `Contract Runner ${tag}`,
    agent_first_name: "Contract",
    agent_last_name: `Runner ${tag}`,
    email,
    phone: "(555) 010-0100",
    company: "Contract Run Realty",
    professional_title: "Listing Agent",
    license: `LIC-${tag}`,
    website: `https://agents.contract-run.example/${tag}`,
    // Out of weight order, with a negative weight: they must come back ordered by weight (section 2.2).
    social_media_links: [
      { service: "linkedin", url: `https://www.linkedin.com/in/${tag}`, weight: "5" },
      { service: "instagram", url: `https://www.instagram.com/${tag}`, weight: "-2" },
      { service: "x", url: `https://x.com/${tag}`, weight: "0" },
    ],
    card_type: "agent",
    agency_profile: "3",
    headshot_url: `https://agents.contract-run.example/${tag}/headshot.jpg`,
    notes: "Created by a contract run.",
  };
}

/** Every field of section 2.2 changed: what an agent update sends. */
function fullUpdate(tag: string, email: string): Json {
  return {
    name: `Contract Updated ${tag}`,
    agent_first_name: "Contracted",
    agent_last_name: `Updated ${tag}`,
    email,
    phone: "(555) 010-0199",
    company: "Contract Run Homes",
    professional_title: "Contract tester",
    license: `LIC2-${tag}`,
    website: `https://agents.contract-run.example/${tag}/2`,
    social_media_links: [
      { service: "facebook", url: `https://facebook.com/${tag}`, weight: "3" },
      { service: "youtube", url: `https://youtube.com/@${tag}`, weight: "-10" },
    ],
    card_type: "team",
    agency_profile: "4",
    headshot_url: `https://agents.contract-run.example/${tag}/headshot-2.jpg`,
    notes: "Updated by a contract run.",
  };
}

/** Whether every key of an agent list is its value's nid (section 4.2); the wrong entries. */
function keyMismatches(list: Json): string[] {
  return Object.entries(list)
    .filter(([key, value]) => value === null || typeof value !== "object" || String((value as Json).nid) !== key)
    .map(([key, value]) => `key ${key} holds nid ${show((value as Json | null)?.nid)}`);
}

/** The same email address written with its domain in capitals: `a@x.example` → `a@X.EXAMPLE`. */
function sameAddress(email: string): string {
  const at = email.lastIndexOf("@");
  return `${email.slice(0, at)}@${email.slice(at + 1).toUpperCase()}`;
}

/** Whether an agent list entry is a record of a contract run (this one or another at the same time), which may move. */
const fromARun = (entry: unknown) => String((entry as Json | null)?.email ?? "").endsWith("@contract-run.example");

/**
 * Endpoints 6 to 10: an agent with every field, retrieved, listed, updated in every field, refused a duplicate
 * email on create and update, deleted; its email free again afterwards.
 */
export async function agentSteps(ctx: RunContext, names: RunNames): Promise<void> {
  const email = `agent-${names.tag}@contract-run.example`.toLowerCase();
  const before = record(await ctx.call("list the agents", "listAgentCards", `${API}/agent_cards`, { expect: "success" }));
  const agent = fullAgent(names.tag, email);
  const createdExchange = await ctx.call("create an agent with every field", "createAgentCard", `${API}/agent_card/`, { body: agent, expect: "success" });
  const nid = typeof record(createdExchange)?.nid === "string" ? (record(createdExchange)!.nid as string) : undefined;
  if (!nid) {
    const reason = createdExchange?.text.includes("Not Enough Agent Seats") ? "the account has no free agent seat (Not Enough Agent Seats)" : "the agent could not be created";
    for (const check of ["create_round_trip", "edit_visible", "duplicate_agent_rejected", "use_after_free", "list_consistency"] as const) ctx.skip(check, "agent steps", reason);
    return;
  }

  let step = "retrieve the agent";
  const fetched = await ctx.call(step, "retrieveAgentCard", `${API}/agent_card/${nid}`, { expect: "success" });
  const card = record(fetched);
  ctx.check("ensure_resource_availability", { step, passed: card?.id === nid, exchange: fetched, operation: "retrieveAgentCard", section: "2.2", message: `agent ${nid} answered id ${show(card?.id)}`, expected: show(nid), actual: show(card?.id) });
  if (card) checkAgent(ctx, step, fetched!, card, agent, "create_round_trip");

  step = "list the agents with the new one";
  const listed = await ctx.call(step, "listAgentCards", `${API}/agent_cards`, { expect: "success" });
  const list = record(listed);
  if (list) {
    const entry = list[nid] as Json | undefined;
    ctx.check("ensure_resource_availability", { step, passed: entry?.email === email, exchange: listed, operation: "listAgentCards", section: "4.2", message: `agent ${nid} is not listed under its nid with its email: ${show(entry)}` });
    const wrong = keyMismatches(list);
    ctx.check("list_consistency", { step, passed: wrong.length === 0, exchange: listed, operation: "listAgentCards", section: "4.2", message: `every key of the agent list must be its value's nid: ${wrong.slice(0, 5).join("; ")}` });
    if (before) {
      const entry = (value: unknown) => documented(value, ["email", "nid"]);
      const moved = Object.entries(before).filter(([key, value]) => !fromARun(value) && !isDeepStrictEqual(entry(list[key]), entry(value))).map(([key, value]) => `agent ${key} ${key in list ? `changed from ${JSON.stringify(entry(value))} to ${JSON.stringify(entry(list[key]))}` : "is no longer listed"}`);
      ctx.check("list_consistency", { step, passed: moved.length === 0, exchange: listed, operation: "listAgentCards", section: "4.2", message: `creating agent ${nid} moved other entries: ${moved.slice(0, 5).join("; ")}` });
    }
  }

  const duplicate = await ctx.call("create a second agent with the same email", "createAgentCard", `${API}/agent_card/`, {
    body: { agent_first_name: "Duplicate", agent_last_name: names.tag, email },
    expect: { refusal: "duplicate_agent_rejected", section: "7", rule: "the email belongs to an agent" },
  });
  if (refused(duplicate)) {
    ctx.check("duplicate_agent_rejected", { step: "create a second agent with the same email", passed: duplicate!.text.includes("Agent Already Exists"), exchange: duplicate, operation: "createAgentCard", section: "7",
      message: "the refusal does not name the error value Agent Already Exists", expected: "a refusal naming Agent Already Exists", actual: `${duplicate!.status} ${duplicate!.text.slice(0, 200)}` });
  }
  // The same address with its domain in capitals: domain names are case-insensitive (RFC 5321, section 2.4), so
  // this email already belongs to an agent. Capitals in the local part are only our reading (a warning).
  await ctx.call("create a second agent with the same email, its domain in capitals", "createAgentCard", `${API}/agent_card/`, {
    body: { agent_first_name: "Duplicate", agent_last_name: names.tag, email: sameAddress(email) },
    expect: { refusal: "duplicate_agent_rejected", section: "7", rule: "the same address (domains are case-insensitive, RFC 5321 section 2.4) belongs to an agent" },
  });
  await ctx.call("create a second agent with the same email in upper case", "createAgentCard", `${API}/agent_card/`, {
    body: { agent_first_name: "Duplicate", agent_last_name: names.tag, email: email.toUpperCase() },
    expect: { refusal: "duplicate_agent_rejected", tier: "assumption", rule: "we compare emails without regard to case" },
  });

  const newEmail = `agent-${names.tag}-updated@contract-run.example`.toLowerCase();
  const update = fullUpdate(names.tag, newEmail);
  step = "update every field of the agent";
  const updated = record(await ctx.call(step, "updateAgentCard", `${API}/agent_card/${nid}`, { body: update, expect: "success" }));
  if (updated) ctx.check("edit_visible", { step, passed: updated.nid === nid, operation: "updateAgentCard", section: "4.2", message: `the update answered nid ${show(updated.nid)}`, expected: show(nid), actual: show(updated.nid) });
  step = "retrieve the updated agent";
  const after = await ctx.call(step, "retrieveAgentCard", `${API}/agent_card/${nid}`, { expect: "success" });
  if (record(after)) checkAgent(ctx, step, after!, record(after)!, update, "edit_visible");

  await duplicateOnUpdate(ctx, names, newEmail);
  await weightNearMiss(ctx, names);

  await ctx.call("delete the agent", "deleteAgentCard", `${API}/agent_card/${nid}`, { expect: "success" });
  await ctx.call("retrieve the deleted agent", "retrieveAgentCard", `${API}/agent_card/${nid}`, { expect: { refusal: "use_after_free", section: "4.2", rule: "the agent was deleted" } });
  step = "list the agents without the deleted one";
  const relisted = await ctx.call(step, "listAgentCards", `${API}/agent_cards`, { expect: "success" });
  const remaining = record(relisted);
  if (remaining) ctx.check("use_after_free", { step, passed: !(nid in remaining), exchange: relisted, operation: "listAgentCards", section: "4.2", message: `the deleted agent ${nid} is still listed` });

  step = "create an agent with the deleted agent's email";
  const again = await ctx.call(step, "createAgentCard", `${API}/agent_card/`, { body: { agent_first_name: "Again", agent_last_name: names.tag, email: newEmail }, expect: "any" });
  ctx.check("duplicate_agent_rejected", { step, passed: again?.status === 200, exchange: again, operation: "createAgentCard", section: "7", message: "the email of a deleted agent is still refused: it no longer belongs to an agent", expected: "200", actual: again ? `${again.status} ${again.text.slice(0, 200)}` : "no answer" });
  const againNid = record(again)?.nid;
  if (typeof againNid === "string") await ctx.call("delete the agent with the reused email", "deleteAgentCard", `${API}/agent_card/${againNid}`, { expect: "success" });
}

/** Section 2.2: the fields sent come back; social links with their weights, ordered by weight. */
function checkAgent(ctx: RunContext, step: string, exchange: Exchange, card: Json, sent: Json, check: "create_round_trip" | "edit_visible"): void {
  const { social_media_links: sentLinks, ...scalars } = sent as Json & { social_media_links: Link[] };
  const wrong = differences(card, scalars);
  const links = Array.isArray(card.social_media_links) ? (card.social_media_links as Link[]) : [];
  const key = (link: Link) => `${link?.service} ${link?.url} ${link?.weight}`;
  const sentKeys = sentLinks.map(key).sort();
  if (!isDeepStrictEqual(links.map(key).sort(), sentKeys)) wrong.push(`social_media_links are ${JSON.stringify(links)}, sent ${JSON.stringify(sentLinks)}`);
  const weights = links.map((link) => Number(link?.weight));
  const ascending = weights.every((weight, index) => index === 0 || weights[index - 1]! <= weight);
  const descending = weights.every((weight, index) => index === 0 || weights[index - 1]! >= weight);
  if (!ascending && !descending) wrong.push(`social_media_links are not ordered by weight: ${weights.join(", ")}`);
  ctx.check(check, { step, passed: wrong.length === 0, exchange, operation: "retrieveAgentCard", section: "2.2", message: wrong.join("; ") });
  if (wrong.length === 0) {
    ctx.check(check, { step: `${step} (our reading of the link order)`, passed: ascending, exchange, operation: "retrieveAgentCard", tier: "assumption", message: `social links come back by descending weight (${weights.join(", ")}); we expect the lightest first` });
  }
}

/** Section 2.2: an email is unique among agents, also when an update would give an agent another's email. */
async function duplicateOnUpdate(ctx: RunContext, names: RunNames, taken: string): Promise<void> {
  const second = record(await ctx.call("create a second agent", "createAgentCard", `${API}/agent_card/`, {
    body: { agent_first_name: "Second", agent_last_name: names.tag, email: `second-${names.tag}@contract-run.example`.toLowerCase() },
    expect: "success",
  }))?.nid;
  if (typeof second !== "string") return;
  const step = "update the second agent to the first agent's email";
  const answer = await ctx.call(step, "updateAgentCard", `${API}/agent_card/${second}`, { body: { email: taken }, expect: { refusal: "duplicate_agent_rejected", section: "2.2", rule: "the email belongs to another agent" } });
  if (refused(answer)) {
    ctx.check("duplicate_agent_rejected", { step, passed: answer!.text.includes("Agent Already Exists"), exchange: answer, operation: "updateAgentCard", tier: "assumption",
      message: "the refusal does not name Agent Already Exists (section 7 names it for a create; we expect it for an update too)" });
  }
  await ctx.call("update the second agent to the first agent's email, its domain in capitals", "updateAgentCard", `${API}/agent_card/${second}`, {
    body: { email: sameAddress(taken) },
    expect: { refusal: "duplicate_agent_rejected", section: "2.2", rule: "the same address (domains are case-insensitive, RFC 5321 section 2.4) belongs to another agent" },
  });
  await ctx.call("update the second agent to the first agent's email in upper case", "updateAgentCard", `${API}/agent_card/${second}`, {
    body: { email: taken.toUpperCase() },
    expect: { refusal: "duplicate_agent_rejected", tier: "assumption", rule: "we compare emails without regard to case" },
  });
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
    agent_first_name: "Weight", agent_last_name: names.tag, email: `weight-${names.tag}@contract-run.example`.toLowerCase(),
    social_media_links: [{ service: "linkedin", url: "https://www.linkedin.com/in/weight", weight: "1.5" }],
  };
  const answer = await ctx.call(step, "createAgentCard", `${API}/agent_card/`, { body, expect: { refusal: "negative_data_rejection", tier: "assumption", section: "2.2", rule: "a weight is an integer-like string" } });
  const nid = record(answer)?.nid;
  if (typeof nid !== "string") return;
  const fetched = await ctx.call("retrieve the agent created with the weight 1.5", "retrieveAgentCard", `${API}/agent_card/${nid}`, { expect: "success" });
  const links = record(fetched)?.social_media_links;
  const weights = Array.isArray(links) ? links.map((link) => (link as Link | null)?.weight) : [];
  ctx.check("negative_data_rejection", { step: "retrieve the agent created with the weight 1.5", passed: weights.every((weight) => typeof weight === "string" && /^-?[0-9]+$/.test(weight)), exchange: fetched, operation: "retrieveAgentCard", section: "2.2",
    message: `the service accepted the weight "1.5" and answers weights ${JSON.stringify(weights)}: a weight is an integer-like string` });
  await ctx.call("delete the agent created with the weight 1.5", "deleteAgentCard", `${API}/agent_card/${nid}`, { expect: "success" });
}
