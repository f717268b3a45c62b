import type { Exchange } from "./http-exchange.ts";
import type { RunContext } from "./run-context.ts";

const API = "/api/v1/object";

/** Section 2.4: the access level of each template, by machine name. */
const PRO = ["icon", "eko", "lux", "north", "stak"];
const EXCLUSIVE = ["intra"];
/** Section 2.4: the twenty-three machine names of the catalogue. */
export const CATALOGUE_NAMES = [
  "rubik_v2", "icon", "air", "lnd", "focal", "mot", "rubik", "kit", "pipeline", "mak", "saren", "syd", "arlo",
  "bren", "dax", "cobi", "eko", "lux", "ryne", "north", "stak", "karr", "intra",
];

/** A create body of documented fields only (section 4.1, endpoint 3). */
export const PROPERTY = {
  street: "88 Colin P Kelly Jr St",
  city: "San Francisco",
  state: "CA",
  zip: "94107",
  "square feet": 2150,
  bedrooms: 3,
  baths: 2,
  list_price: 1250000,
  garage: "Attached",
  stories: 2,
  lot_size: "4,356",
  parking_spaces: 2,
  description: "<p>Contract run property.</p>",
  property_type: "Single Family",
  year_built: 1998,
  template: "rubik_v2",
};

/** Documented create fields and the field each comes back as, numbers as numeric strings (section 2.1). */
const ROUND_TRIP: Array<[keyof typeof PROPERTY, string]> = [
  ["street", "street"], ["city", "city"], ["state", "state"], ["zip", "zip"], ["square feet", "square_feet"],
  ["bedrooms", "bedrooms"], ["baths", "baths"], ["list_price", "list_price"], ["stories", "stories"],
  ["lot_size", "lot_size"], ["parking_spaces", "parking_spaces"], ["description", "description"],
  ["year_built", "year_built"], ["template", "template"],
];

type Json = Record<string, unknown>;
const record = (exchange: Exchange | undefined): Json | undefined =>
  exchange?.status === 200 && exchange.body !== null && typeof exchange.body === "object" && !Array.isArray(exchange.body) ? (exchange.body as Json) : undefined;

/**
 * The stateful scenario: every operation, in the order a client would use them, each answer held against the
 * contract, then the facts a schema cannot state, then invalid input and missing credentials, then clean-up.
 * `runId` makes the run's emails and external ids its own.
 */
export async function runScenario(ctx: RunContext, runId: string): Promise<{ leftBehind: string[] }> {
  const leftBehind: string[] = [];
  const email = `contract-${runId}@contract-run.example`;
  const externalId = `contract-${runId}`;

  // Templates (endpoint 15).
  const catalogue = await ctx.call("fetch the template catalogue", "retrieveTemplateCatalogue", `${API}/template_base`, { expect: "success" });
  if (record(catalogue)) checkCatalogue(ctx, catalogue!);

  // Properties (endpoints 3, 1, 4, 2, 5).
  const created = record(await ctx.call("create a property", "createProperty", `${API}/property`, { body: PROPERTY, expect: "success" }));
  const nid = typeof created?.nid === "string" ? created.nid : undefined;
  if (!nid) {
    ctx.skip("ensure_resource_availability", "retrieve the property", "the property could not be created");
  } else {
    leftBehind.push(`property ${nid}`);
    await propertySteps(ctx, nid, externalId);
    await documentSteps(ctx, nid, runId);
  }

  // Agents (endpoints 7, 6, 8, 10, 9).
  await agentSteps(ctx, email, runId);

  // Invalid input must be refused, and the service must keep working.
  const invalid: Array<[string, Json]> = [
    ["garage in lower case", { ...PROPERTY, garage: "attached" }],
    ["an unknown property type", { ...PROPERTY, property_type: "Castle" }],
    ["the intra template, which create does not offer", { ...PROPERTY, template: "intra" }],
    ["no street", Object.fromEntries(Object.entries(PROPERTY).filter(([field]) => field !== "street"))],
    ["a state that is not two characters", { ...PROPERTY, state: "California" }],
  ];
  for (const [label, body] of invalid) {
    const answer = await ctx.call(`create a property with ${label}`, "createProperty", `${API}/property`, { body, expect: { refusal: "negative_data_rejection" } });
    const leaked = record(answer);
    if (typeof leaked?.nid === "string") leftBehind.push(`property ${leaked.nid} (created by invalid input)`);
  }
  if (nid) {
    const still = await ctx.call("retrieve the property after the invalid requests", "retrieveProperty", `${API}/property/${nid}`, { expect: "success" });
    ctx.verify("ensure_resource_availability", "fact", record(still)?.nid === nid, "retrieve the property after the invalid requests", still, "the property is no longer retrievable after the invalid requests", "retrieveProperty");
  }

  await authSteps(ctx, nid, runId, leftBehind);
  return { leftBehind };
}

async function propertySteps(ctx: RunContext, nid: string, externalId: string): Promise<void> {
  const first = await ctx.call("retrieve the property", "retrieveProperty", `${API}/property/${nid}`, { expect: "success" });
  const property = record(first);
  ctx.verify("ensure_resource_availability", "fact", property?.nid === nid, "retrieve the property", first, `the created property ${nid} could not be retrieved by its nid`, "retrieveProperty");
  if (!property) return;
  const mismatches = ROUND_TRIP.filter(([sent, field]) => property[field] !== String(PROPERTY[sent])).map(
    ([sent, field]) => `${field} is ${JSON.stringify(property[field])}, sent ${sent}: ${JSON.stringify(PROPERTY[sent])}`,
  );
  if (typeof property.property_type !== "string" || property.property_type.includes(" ")) mismatches.push(`property_type ${JSON.stringify(property.property_type)} is not a compact form without spaces`);
  if (typeof property.garage !== "string" || !/^[0-9]+$/.test(property.garage)) mismatches.push(`garage ${JSON.stringify(property.garage)} is not a count-like numeric string`);
  ctx.verify("create_round_trip", "fact", mismatches.length === 0, "retrieve the property", first, mismatches.join("; "), "retrieveProperty");

  const edit = { street: "1 Contract Way", premise: "Suite 100" };
  const edited = record(await ctx.call("edit the property", "editProperty", `${API}/property/${nid}`, { body: edit, expect: "success" }));
  if (edited) ctx.verify("edit_visible", "fact", edited.nid === nid, "edit the property", undefined, `the edit answered nid ${JSON.stringify(edited.nid)}, not ${nid}`, "editProperty");
  const after = await ctx.call("retrieve the edited property", "retrieveProperty", `${API}/property/${nid}`, { expect: "success" });
  const changed = record(after);
  if (changed) {
    const wrong = [
      ...Object.entries(edit).filter(([field, value]) => changed[field] !== value).map(([field, value]) => `${field} is ${JSON.stringify(changed[field])}, edited to ${JSON.stringify(value)}`),
      ...ROUND_TRIP.filter(([, field]) => field !== "street" && changed[field] !== property[field]).map(([, field]) => `${field} changed from ${JSON.stringify(property[field])} to ${JSON.stringify(changed[field])} without being edited`),
    ];
    ctx.verify("edit_visible", "fact", wrong.length === 0, "retrieve the edited property", after, wrong.join("; "), "retrieveProperty");
  }

  await ctx.call("give the property an external id", "editProperty", `${API}/property/${nid}`, { body: { external_id: externalId }, expect: "success" });
  const byExternal = await ctx.call("retrieve the property by its external id", "retrievePropertyByExternalId", `${API}/external-property/${encodeURIComponent(externalId)}`, { expect: "success" });
  const found = record(byExternal);
  ctx.verify("external_id_lookup", "fact", found?.nid === nid && found?.external_id === externalId, "retrieve the property by its external id", byExternal,
    `endpoint 2 answered ${found ? `property ${JSON.stringify(found.nid)} with external_id ${JSON.stringify(found.external_id)}` : "no property"}, expected property ${nid} with external_id ${externalId}`, "retrievePropertyByExternalId");

  const uid = typeof property.uid === "string" ? property.uid : undefined;
  if (!uid) return;
  const listed = await ctx.call("list the user's properties", "listUserProperties", `${API}/properties/${uid}`, { expect: "success" });
  const items = listed?.status === 200 && Array.isArray(listed.body) ? (listed.body as Json[]) : [];
  const item = items.find((entry) => entry?.nid === nid);
  ctx.verify("ensure_resource_availability", "fact", item !== undefined, "list the user's properties", listed, `property ${nid} is not in the list of user ${uid}`, "listUserProperties");
  if (item) {
    ctx.verify("external_id_lookup", "fact", item.external_id === externalId, "list the user's properties", listed, `the list gives external_id ${JSON.stringify(item.external_id)}, expected ${externalId}`, "listUserProperties");
  }
}

async function documentSteps(ctx: RunContext, propertyNid: string, runId: string): Promise<void> {
  const floorplan = {
    title: `Contract floorplan ${runId}`,
    property_reference: Number(propertyNid),
    file_url: `https://files.contract-run.example/${runId}/floorplan.pdf`,
    visible: true,
    category: "floorplan",
    is_floorplan: true,
    Show_on_unbranded: false,
  };
  const created = record(await ctx.call("attach a floorplan to the property", "createDocument", `${API}/document/`, { body: floorplan, expect: "success" }));
  const documentNid = typeof created?.nid === "number" ? created.nid : undefined;
  if (documentNid === undefined) {
    ctx.skip("floorplan_on_property", "see the floorplan on its property", "the floorplan could not be created");
    return;
  }
  const fetched = await ctx.call("retrieve the floorplan", "retrieveDocument", `${API}/document/${documentNid}`, { expect: "success" });
  ctx.verify("ensure_resource_availability", "fact", record(fetched)?.nid === String(documentNid), "retrieve the floorplan", fetched, `the created document ${documentNid} could not be retrieved`, "retrieveDocument");

  const onProperty = await ctx.call("see the floorplan on its property", "retrieveProperty", `${API}/property/${propertyNid}`, { expect: "success" });
  const entry = (record(onProperty)?.floorplans as Record<string, Json> | undefined)?.[String(documentNid)];
  ctx.verify("floorplan_on_property", "fact", entry?.nid === String(documentNid) && entry?.title === floorplan.title && entry?.floorplan_url === floorplan.file_url,
    "see the floorplan on its property", onProperty, `floorplans[${documentNid}] is ${JSON.stringify(entry)}, expected the floorplan's nid, title and file url`, "retrieveProperty");

  const updated = record(await ctx.call("hide the floorplan", "updateDocument", `${API}/document/${documentNid}`, { body: { visible: false }, expect: "success" }));
  if (updated) ctx.verify("edit_visible", "fact", updated.nid === String(documentNid), "hide the floorplan", undefined, `the update answered nid ${JSON.stringify(updated.nid)}`, "updateDocument");
  const hidden = await ctx.call("retrieve the hidden floorplan", "retrieveDocument", `${API}/document/${documentNid}`, { expect: "success" });
  ctx.verify("edit_visible", "fact", record(hidden)?.visible === false, "retrieve the hidden floorplan", hidden, `visible is ${JSON.stringify(record(hidden)?.visible)} after the update set it to false`, "retrieveDocument");

  await ctx.call("delete the floorplan", "deleteDocument", `${API}/document/${documentNid}`, { expect: "success" });
  await ctx.call("retrieve the deleted floorplan", "retrieveDocument", `${API}/document/${documentNid}`, { expect: { refusal: "use_after_free" } });
  const without = await ctx.call("see the floorplan gone from its property", "retrieveProperty", `${API}/property/${propertyNid}`, { expect: "success" });
  const floorplans = record(without)?.floorplans;
  if (floorplans && typeof floorplans === "object") {
    ctx.verify("floorplan_on_property", "fact", !(String(documentNid) in floorplans), "see the floorplan gone from its property", without, `the deleted floorplan ${documentNid} is still in the property's floorplans`, "retrieveProperty");
  }
}

async function agentSteps(ctx: RunContext, email: string, runId: string): Promise<void> {
  const agent = { agent_first_name: "Contract", agent_last_name: `Runner ${runId}`, email };
  const createdExchange = await ctx.call("create an agent", "createAgentCard", `${API}/agent_card/`, { body: agent, expect: "success" });
  const created = record(createdExchange);
  const nid = typeof created?.nid === "string" ? created.nid : undefined;
  if (!nid) {
    const reason = createdExchange?.text.includes("Not Enough Agent Seats")
      ? "the account has no free agent seat (Not Enough Agent Seats)"
      : "the agent could not be created";
    for (const check of ["ensure_resource_availability", "edit_visible", "duplicate_agent_rejected", "use_after_free"] as const) ctx.skip(check, "agent steps", reason);
    return;
  }

  const fetched = await ctx.call("retrieve the agent", "retrieveAgentCard", `${API}/agent_card/${nid}`, { expect: "success" });
  const card = record(fetched);
  ctx.verify("ensure_resource_availability", "fact", card?.id === nid && card?.email === email, "retrieve the agent", fetched, `agent ${nid} answered id ${JSON.stringify(card?.id)} and email ${JSON.stringify(card?.email)}`, "retrieveAgentCard");

  const change = { phone: "(555) 010-0199", professional_title: "Contract tester" };
  const updated = record(await ctx.call("update the agent", "updateAgentCard", `${API}/agent_card/${nid}`, { body: change, expect: "success" }));
  if (updated) ctx.verify("edit_visible", "fact", updated.nid === nid, "update the agent", undefined, `the update answered nid ${JSON.stringify(updated.nid)}`, "updateAgentCard");
  const after = await ctx.call("retrieve the updated agent", "retrieveAgentCard", `${API}/agent_card/${nid}`, { expect: "success" });
  const changed = record(after);
  const wrong = Object.entries(change).filter(([field, value]) => changed?.[field] !== value).map(([field]) => field);
  ctx.verify("edit_visible", "fact", changed !== undefined && wrong.length === 0, "retrieve the updated agent", after, `not updated: ${wrong.join(", ")}`, "retrieveAgentCard");

  const listed = await ctx.call("list the agents", "listAgentCards", `${API}/agent_cards`, { expect: "success" });
  const entry = (record(listed) as Record<string, Json> | undefined)?.[nid];
  ctx.verify("ensure_resource_availability", "fact", entry?.email === email, "list the agents", listed, `agent ${nid} is not listed under its nid with its email`, "listAgentCards");

  const duplicate = await ctx.call("create a second agent with the same email", "createAgentCard", `${API}/agent_card/`, {
    body: { ...agent, agent_first_name: "Duplicate" },
    expect: { refusal: "duplicate_agent_rejected" },
  });
  if (duplicate) {
    const refused = duplicate.status < 200 || duplicate.status >= 300;
    ctx.verify("duplicate_agent_rejected", "fact", !refused || duplicate.text.includes("Agent Already Exists"), "create a second agent with the same email", duplicate,
      `the refusal does not name the error value "Agent Already Exists": ${duplicate.text.slice(0, 200)}`, "createAgentCard");
    const leaked = record(duplicate);
    if (typeof leaked?.nid === "string") await ctx.call("delete the duplicate agent", "deleteAgentCard", `${API}/agent_card/${leaked.nid}`, { expect: "any" });
  }

  await ctx.call("delete the agent", "deleteAgentCard", `${API}/agent_card/${nid}`, { expect: "success" });
  await ctx.call("retrieve the deleted agent", "retrieveAgentCard", `${API}/agent_card/${nid}`, { expect: { refusal: "use_after_free" } });
  const relisted = await ctx.call("list the agents without the deleted one", "listAgentCards", `${API}/agent_cards`, { expect: "success" });
  const list = record(relisted);
  if (list) ctx.verify("use_after_free", "fact", !(nid in list), "list the agents without the deleted one", relisted, `the deleted agent ${nid} is still listed`, "listAgentCards");
}

function checkCatalogue(ctx: RunContext, exchange: Exchange): void {
  const templates = (exchange.body as { templates?: unknown }).templates;
  const entries = Array.isArray(templates) ? (templates as Json[]) : [];
  const names = entries.map((entry) => entry.machine_name);
  const problems: string[] = [];
  const missing = CATALOGUE_NAMES.filter((name) => !names.includes(name));
  if (missing.length > 0) problems.push(`missing: ${missing.join(", ")}`);
  const repeated = names.filter((name, index) => names.indexOf(name) !== index);
  if (repeated.length > 0) problems.push(`listed more than once: ${repeated.join(", ")}`);
  for (const entry of entries) {
    const name = String(entry.machine_name);
    const expected = PRO.includes(name) ? "pro" : EXCLUSIVE.includes(name) ? "exclusive" : "standard";
    if (CATALOGUE_NAMES.includes(name) && entry.access_level !== expected) problems.push(`${name} has access level ${JSON.stringify(entry.access_level)}, not ${expected}`);
  }
  ctx.verify("template_catalogue", "fact", problems.length === 0, "fetch the template catalogue", exchange, problems.join("; "), "retrieveTemplateCatalogue");
}

/**
 * Every operation without credentials, and with a TOKEN that does not belong to the API-KEY, must be refused.
 * The deletes aim at records made for the purpose, so a service that ignores credentials loses nothing else.
 */
async function authSteps(ctx: RunContext, propertyNid: string | undefined, runId: string, leftBehind: string[]): Promise<void> {
  const property = propertyNid ?? "1";
  const probeAgent = record(await ctx.call("create an agent to probe credentials with", "createAgentCard", `${API}/agent_card/`, {
    body: { agent_first_name: "Probe", agent_last_name: runId, email: `probe-${runId}@contract-run.example` },
    expect: "any",
  }))?.nid as string | undefined;
  const probeDocument = propertyNid
    ? (record(await ctx.call("create a document to probe credentials with", "createDocument", `${API}/document/`, {
        body: { title: "Probe", property_reference: Number(propertyNid), file_url: `https://files.contract-run.example/${runId}/probe.pdf` },
        expect: "any",
      }))?.nid as number | undefined)
    : undefined;
  const agentNid = probeAgent ?? "1";
  const documentNid = probeDocument ?? 1;

  const probes: Array<[string, string, unknown?]> = [
    ["retrieveProperty", `${API}/property/${property}`],
    ["retrievePropertyByExternalId", `${API}/external-property/contract-${runId}`],
    ["createProperty", `${API}/property`, PROPERTY],
    ["editProperty", `${API}/property/${property}`, { premise: "Suite 100" }],
    ["listUserProperties", `${API}/properties/1`],
    ["retrieveAgentCard", `${API}/agent_card/${agentNid}`],
    ["createAgentCard", `${API}/agent_card/`, { agent_first_name: "Unauthorized", agent_last_name: runId, email: `unauthorized-${runId}@contract-run.example` }],
    ["updateAgentCard", `${API}/agent_card/${agentNid}`, { notes: "probe" }],
    ["deleteAgentCard", `${API}/agent_card/${agentNid}`],
    ["listAgentCards", `${API}/agent_cards`],
    ["createDocument", `${API}/document/`, { title: "Unauthorized", property_reference: Number(property), file_url: `https://files.contract-run.example/${runId}/x.pdf` }],
    ["updateDocument", `${API}/document/${documentNid}`, { visible: false }],
    ["retrieveDocument", `${API}/document/${documentNid}`],
    ["deleteDocument", `${API}/document/${documentNid}`],
    ["retrieveTemplateCatalogue", `${API}/template_base`],
  ];
  for (const [operationId, path, body] of probes) {
    const operation = ctx.operation(operationId);
    const tier = operation.securityAssumption ? "assumption" : "fact";
    for (const credentials of ["none", "wrong-token"] as const) {
      const label = credentials === "none" ? "without credentials" : "with a TOKEN of no account";
      const answer = await ctx.call(`${operationId} ${label}`, operationId, path, { body, credentials, expect: { refusal: "ignored_auth", tier } });
      const leaked = record(answer)?.nid;
      if (leaked !== undefined && operationId === "createProperty") leftBehind.push(`property ${String(leaked)} (created without credentials)`);
      if (leaked !== undefined && operationId === "createAgentCard") await ctx.call("delete the agent created without credentials", "deleteAgentCard", `${API}/agent_card/${String(leaked)}`, { expect: "any" });
      if (leaked !== undefined && operationId === "createDocument") await ctx.call("delete the document created without credentials", "deleteDocument", `${API}/document/${String(leaked)}`, { expect: "any" });
    }
  }
  if (probeAgent) await ctx.call("delete the probe agent", "deleteAgentCard", `${API}/agent_card/${probeAgent}`, { expect: "any" });
  if (probeDocument !== undefined) await ctx.call("delete the probe document", "deleteDocument", `${API}/document/${probeDocument}`, { expect: "any" });
}
