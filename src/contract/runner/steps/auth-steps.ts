import type { OperationId } from "../../operation-id.ts";
import type { CredentialMode, RunContext } from "../run-context.ts";
import { API, record, type RunNames } from "./step-support.ts";
import { createAgent } from "./agent-steps.ts";
import { PROPERTY } from "./property-steps.ts";
import type { PropertyState } from "./property-steps.ts";

const MODES: Array<[Exclude<CredentialMode, "valid">, string]> = [
  ["none", "without credentials"],
  ["no-key", "without API-KEY"],
  ["no-token", "without TOKEN"],
  ["wrong-token", "with a TOKEN of no account"],
  ["other-token", "with another account's TOKEN"],
];

/**
 * Section 5: every operation, aimed at records the caller owns (its property, uid and external id, an agent
 * and a document made for the purpose), is refused with broken credentials. Since the records exist and are
 * the caller's, only authentication can refuse: a "not found" cannot stand in for "unauthorized". The deletes
 * aim at the probe records, so a service that ignores credentials loses nothing else.
 */
export async function authSteps(
  ctx: RunContext,
  names: RunNames,
  properties: PropertyState | undefined,
): Promise<void> {
  if (!properties) {
    ctx.skip(
      "ignored_auth",
      "probe every operation with broken credentials",
      "the run has no property of its own to aim the probes at",
    );
    return;
  }
  const { nid: property, uid, externalId } = properties;
  // The account may have no free seat (section 8): then the agent probes are skipped, with the reason.
  const probeAgent = await createAgent(ctx, "create an agent to probe credentials with", {
    agent_first_name: "Probe",
    agent_last_name: names.tag,
    email: `probe-${names.tag}@contract-run.example`.toLowerCase(),
  });
  const agent = probeAgent.kind === "created" ? probeAgent.nid : undefined;
  const document = record(
    await ctx.call("create a document to probe credentials with", "createDocument", `${API}/document/`, {
      body: {
        title: `Probe ${names.tag}`,
        property_reference: Number(property),
        file_url: `https://files.contract-run.example/${names.tag}/probe.pdf`,
      },
      expect: "success",
    }),
  )?.nid;
  const agentNid = typeof agent === "string" ? agent : undefined;
  const documentNid = typeof document === "number" || typeof document === "string" ? String(document) : undefined;

  const probes: Array<[OperationId, string | undefined, unknown?]> = [
    ["retrieveProperty", `${API}/property/${property}`],
    ["retrievePropertyByExternalId", `${API}/external-property/${encodeURIComponent(externalId)}`],
    ["createProperty", `${API}/property`, PROPERTY],
    ["editProperty", `${API}/property/${property}`, { premise: "Probe" }],
    ["listUserProperties", uid && `${API}/properties/${uid}`],
    ["retrieveAgentCard", agentNid && `${API}/agent_card/${agentNid}`],
    [
      "createAgentCard",
      `${API}/agent_card/`,
      {
        agent_first_name: "Unauthorized",
        agent_last_name: names.tag,
        email: `unauthorized-${names.tag}@contract-run.example`.toLowerCase(),
      },
    ],
    ["updateAgentCard", agentNid && `${API}/agent_card/${agentNid}`, { notes: "probe" }],
    ["listAgentCards", `${API}/agent_cards`],
    [
      "createDocument",
      `${API}/document/`,
      {
        title: "Unauthorized",
        property_reference: Number(property),
        file_url: `https://files.contract-run.example/${names.tag}/x.pdf`,
      },
    ],
    ["updateDocument", documentNid && `${API}/document/${documentNid}`, { visible: false }],
    ["retrieveDocument", documentNid && `${API}/document/${documentNid}`],
    ["retrieveTemplateCatalogue", `${API}/template_base`],
    ["deleteAgentCard", agentNid && `${API}/agent_card/${agentNid}`],
    ["deleteDocument", documentNid && `${API}/document/${documentNid}`],
  ];
  if (!ctx.has("other"))
    ctx.skip(
      "ignored_auth",
      "every operation with another account's TOKEN",
      "no other account given (--other-api-key and --other-token)",
    );
  for (const [operationId, path, body] of probes) {
    if (!path) {
      const why =
        operationId.includes("Agent") && probeAgent.kind === "full"
          ? "the account has no free agent seat for a probe agent (Not Enough Agent Seats)"
          : `the probe record for ${operationId} could not be created`;
      ctx.skip("ignored_auth", `${operationId} with broken credentials`, why, operationId);
      continue;
    }
    const operation = ctx.operation(operationId);
    const tier = operation.securityAssumption ? "assumption" : "fact";
    for (const [credentials, label] of MODES) {
      if (credentials === "other-token" && !ctx.has("other")) continue;
      // A create the service takes makes a property: the run leaves no more than its limit.
      if (operationId === "createProperty" && ctx.propertyRoom() <= 0) {
        ctx.skip(
          "ignored_auth",
          `${operationId} ${label}`,
          "not sent: the run has made the properties it may leave, and a create the service takes would leave one more",
          operationId,
        );
        continue;
      }
      await ctx.call(`${operationId} ${label}`, operationId, path, {
        body,
        credentials,
        expect: { refusal: "ignored_auth", tier, section: "5", rule: `${label}, on a record the caller owns` },
      });
    }
  }
  // With the right credentials the probe records are there: the refusals above were about credentials.
  if (agentNid)
    await ctx.call("delete the probe agent", "deleteAgentCard", `${API}/agent_card/${agentNid}`, { expect: "success" });
  if (documentNid)
    await ctx.call("delete the probe document", "deleteDocument", `${API}/document/${documentNid}`, {
      expect: "success",
    });
}
