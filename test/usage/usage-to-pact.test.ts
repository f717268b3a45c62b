/**
 * `--usage <file> --write-pact <file>`: a consumer's usage as a Pact specification v4 file. Each test's
 * interactions stand alone, the records and ids they need become provider states whose answers are injected
 * (`fromProviderState`), answers are matched by type and by the contract's patterns, and the credentials are the
 * mock's demo ones of the same role.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { createContract } from "../../src/contract/create-contract.ts";
import { PROVIDER_STATES } from "../../src/contract/usage/provider-state-names.ts";
import { usageToPact, type PactFile, type PactInteraction } from "../../src/contract/usage/usage-to-pact.ts";
import type { UsageDocument } from "../../src/contract/usage/usage-document.ts";
import { CONTRACT_BIN, runCli } from "../support/run-contract-cli.ts";
import { buildSampleUsage } from "../support/usage-pact-samples.ts";
import { scratchFolder } from "../support/scratch-folder.ts";

const contract = createContract();
/** A start record's fields as a provider state gets them: less the mock's own keys, which the provider makes anew. */
const withoutKeys = (record: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(record).filter(([name]) => !["id", "uid", "nid"].includes(name)));
let usage: UsageDocument;
let pact: PactFile;
const named = (description: string): PactInteraction => {
  const found = pact.interactions.find((interaction) => interaction.description === description);
  expect(
    found,
    `no interaction "${description}" in ${pact.interactions.map((interaction) => interaction.description).join(" | ")}`,
  ).toBeDefined();
  return found!;
};

beforeAll(async () => {
  usage = await buildSampleUsage();
  pact = usageToPact(usage, contract);
});

describe("usageToPact", () => {
  it("writes a Pact v4 file between the usage's consumer and the service, one standalone interaction per step", () => {
    expect(pact.consumer).toEqual({ name: "listing-web" });
    expect(pact.provider).toEqual({ name: "Property Listing Service" });
    expect(pact.metadata.pactSpecification).toEqual({ version: "4.0" });
    expect(pact.interactions.map((interaction) => interaction.description)).toEqual([
      "properties › lists the account's properties and opens one › 1 listUserProperties",
      "properties › lists the account's properties and opens one › 2 retrieveProperty",
      "properties › creates a property, edits it and adds a floorplan › 1 createProperty",
      "properties › creates a property, edits it and adds a floorplan › 2 editProperty",
      "properties › creates a property, edits it and adds a floorplan › 3 createDocument",
      "properties › creates a property, edits it and adds a floorplan › 4 retrieveProperty",
      "agents › shows the seats-full screen › 1 createAgentCard",
      "cards › opens an agent card and a floorplan of the account › 1 retrieveAgentCard",
      "cards › opens an agent card and a floorplan of the account › 2 retrieveDocument",
      "properties › shows the errors of an invalid property › 1 createProperty",
    ]);
    for (const interaction of pact.interactions) {
      expect(interaction.type).toBe("Synchronous/HTTP");
      expect(interaction.request.headers?.["API-KEY"]).toEqual(["demo-key"]);
      expect(interaction.request.headers?.TOKEN).toEqual(["demo-token"]);
    }
  });

  it("makes a start-state record through a provider state with its fields, and injects the id it answers", () => {
    const retrieve = named("properties › lists the account's properties and opens one › 2 retrieveProperty");
    // The client opened the first property the list answered: the recorder binds the nid to that answer, and keeps
    // the record it names, as the start state held it, for the state that makes it.
    expect(usage.tests[0]!.interactions[1]!.bindings).toEqual([
      { at: "/params/nid", from: "answer", interaction: 0, pointer: "/0/nid" },
    ]);
    const [id, record] = Object.entries(usage.tests[0]!.records.properties!)[0]!;
    expect(retrieve.providerStates).toEqual([
      {
        name: PROVIDER_STATES.property,
        params: { key: `property_${id}`, account: "primary", fields: withoutKeys(record) },
      },
    ]);
    expect(retrieve.request.path).toBe(`/api/v1/object/property/${id}`);
    expect(retrieve.request.generators?.path).toEqual({
      type: "ProviderState",
      expression: `/api/v1/object/property/\${property_${id}}`,
      dataType: "STRING",
    });
    const list = named("properties › lists the account's properties and opens one › 1 listUserProperties");
    expect(list.providerStates).toEqual([
      { name: PROVIDER_STATES.accountUid, params: { key: "uid_primary", account: "primary" } },
    ]);
    expect(list.request.generators?.path?.expression).toBe("/api/v1/object/properties/${uid_primary}");
  });

  it("makes what an earlier step created from the body it was created with, in the path and in the body", () => {
    const created = usage.tests[1]!.interactions[0]!.request.body;
    const state = {
      name: PROVIDER_STATES.property,
      params: { key: "property_of_step_1", account: "primary", fields: created },
    };
    const edit = named("properties › creates a property, edits it and adds a floorplan › 2 editProperty");
    expect(edit.providerStates).toEqual([state]);
    expect(edit.request.generators?.path?.expression).toBe("/api/v1/object/property/${property_of_step_1}");
    const document = named("properties › creates a property, edits it and adds a floorplan › 3 createDocument");
    expect(document.providerStates).toEqual([state]);
    expect(document.request.generators?.body).toEqual({
      "$.property_reference": { type: "ProviderState", expression: "${property_of_step_1}", dataType: "INTEGER" },
    });
    // The create itself needs nothing: it stands alone as the client sent it.
    expect(
      named("properties › creates a property, edits it and adds a floorplan › 1 createProperty").providerStates,
    ).toBeUndefined();
  });

  it("makes a document of the start state on its property, and an agent card by its fields", () => {
    const records = usage.tests[3]!.records;
    const [documentId, document] = Object.entries(records.documents!)[0]!;
    const retrieve = named("cards › opens an agent card and a floorplan of the account › 2 retrieveDocument");
    // The client never named the document's property: the usage does not keep it, and the state makes one of its own.
    expect(records.properties).toBeUndefined();
    expect(retrieve.providerStates).toEqual([
      {
        name: PROVIDER_STATES.document,
        params: { key: `document_${documentId}`, account: "primary", fields: withoutKeys(document), property: {} },
      },
    ]);
    const card = named("cards › opens an agent card and a floorplan of the account › 1 retrieveAgentCard");
    const [agentId, agent] = Object.entries(records.agents!)[0]!;
    expect(card.providerStates).toEqual([
      {
        name: PROVIDER_STATES.agent,
        params: { key: `agent_${agentId}`, account: "primary", fields: withoutKeys(agent) },
      },
    ]);
    expect(card.request.method).toBe("POST");
  });

  it("gives a refusal naming Agent Already Exists the state of the agent that holds the email first", async () => {
    const duplicated = usageToPact(await buildSampleUsage({ duplicateEmail: true }), contract);
    const [first, second] = duplicated.interactions.filter((interaction) =>
      interaction.description.startsWith("agents › refuses a second agent with the same email"),
    );
    expect(first!.response.status).toBe(200);
    expect(first!.providerStates ?? []).toEqual([]);
    expect(second!.response.status).toBe(409);
    expect(second!.providerStates).toEqual([
      {
        name: PROVIDER_STATES.agent,
        params: {
          key: "agent_grace_hopper_agents_example_com",
          account: "primary",
          fields: { agent_first_name: "Existing", agent_last_name: "Agent", email: "grace.hopper@agents.example.com" },
        },
      },
    ]);
  });

  it("starts a seats-full test from the state that fills the account's seats, and keeps the refusal's status", () => {
    const refused = named("agents › shows the seats-full screen › 1 createAgentCard");
    // The recorder names the account of a seats-full start `fresh`; the pact sends the primary demo credentials for
    // it, so the state fills the seats of the account those credentials open.
    expect(refused.providerStates).toEqual([{ name: PROVIDER_STATES.seatsFull, params: { account: "primary" } }]);
    expect(refused.request.headers?.["API-KEY"]).toEqual(["demo-key"]);
    expect(refused.response.status).toBe(402);
    expect(refused.comments).toEqual({
      testname: "agents › shows the seats-full screen",
      text: [
        "status rests on an assumption: seat-limit-status (docs/assumptions.md)",
        "media type rests on an assumption: seat-limit-status, error-body-shape (docs/assumptions.md)",
        "body /type rests on an assumption: seat-limit-status, error-body-shape (docs/assumptions.md)",
        "body /title rests on an assumption: seat-limit-status, error-body-shape (docs/assumptions.md)",
        "body /status rests on an assumption: seat-limit-status, error-body-shape (docs/assumptions.md)",
        "body /detail rests on an assumption: seat-limit-status, error-body-shape (docs/assumptions.md)",
        "body /instance rests on an assumption: seat-limit-status, error-body-shape (docs/assumptions.md)",
      ],
    });
    expect(refused.response.headers).toEqual({ "Content-Type": ["application/problem+json"] });
    expect(refused.response.matchingRules?.header?.["Content-Type"]?.matchers).toEqual([
      { match: "regex", regex: "^application/problem\\+json(\\s*;.*)?$" },
    ]);
  });

  it("matches answers by type, by the contract's patterns, maps keyed by ids by their values, and never a null", () => {
    const retrieve = named("properties › lists the account's properties and opens one › 2 retrieveProperty");
    const rules = retrieve.response.matchingRules!.body!;
    expect(rules.$!.matchers).toEqual([{ match: "type" }]);
    expect(rules["$.nid"]!.matchers).toEqual([{ match: "regex", regex: "^[0-9]+$" }]);
    expect(rules["$.uid"]!.matchers).toEqual([{ match: "regex", regex: "^[0-9]+$" }]);
    expect(rules["$.floorplans"]!.matchers).toEqual([{ match: "values" }]);
    expect(rules["$.floorplans.*"]!.matchers).toEqual([{ match: "type" }]);
    expect(rules["$.floorplans.*.nid"]!.matchers).toEqual([{ match: "regex", regex: "^[0-9]+$" }]);
    const content = retrieve.response.body!.content as Record<string, unknown>;
    expect(Object.values(content)).not.toContain(null);
    expect(Object.keys(content.floorplans as object)).toHaveLength(1);
    // A list keeps one entry, which every entry the service answers is matched against.
    const list = named("properties › lists the account's properties and opens one › 1 listUserProperties");
    expect(list.response.body!.content).toHaveLength(1);
    expect(list.response.matchingRules!.body!["$[*].nid"]!.matchers).toEqual([{ match: "regex", regex: "^[0-9]+$" }]);
  });

  it("keeps a query apart from the path, as Pact does", () => {
    const withQuery = structuredClone(usage);
    const retrieve = withQuery.tests[0]!.interactions[1]!;
    retrieve.request.path += "?fields=title&fields=nid";
    const written = usageToPact(withQuery, contract).interactions[1]!.request;
    expect(written.path).toBe(usage.tests[0]!.interactions[1]!.request.path);
    expect(written.query).toEqual({ fields: ["title", "nid"] });
    expect(written.generators?.path?.expression).not.toContain("?");
  });

  it("gives the same pact for the same usage", () => {
    expect(JSON.stringify(usageToPact(usage, contract))).toBe(JSON.stringify(pact));
  });
});

describe("property-listing-contract --usage --write-pact", () => {
  it("writes the pact and exits 0; a usage that is not one exits 2 naming the file", async () => {
    const folder = scratchFolder("plk-pact-");
    const usageFile = join(folder, "usage.json");
    const pactFile = join(folder, "pact.json");
    writeFileSync(usageFile, JSON.stringify(usage));
    const written = await runCli(process.execPath, [CONTRACT_BIN, "--usage", usageFile, "--write-pact", pactFile]);
    expect(written.code, written.stderr).toBe(0);
    expect(written.stderr).toContain(`Pact written to ${pactFile} (10 interactions of 5 tests)`);
    expect(JSON.parse(readFileSync(pactFile, "utf8"))).toEqual(JSON.parse(JSON.stringify(pact)));

    const cut = {
      ...usage,
      truncated: { reason: "max-interactions-per-test", limit: 4, at: { test: usage.tests[1]!.name, interaction: 4 } },
    };
    writeFileSync(usageFile, JSON.stringify(cut));
    const warned = await runCli(process.execPath, [
      CONTRACT_BIN,
      "--usage",
      usageFile,
      "--write-pact",
      pactFile,
      "--quiet",
    ]);
    expect(warned.code, warned.stderr).toBe(0);
    expect(warned.stderr).toContain("Warning: the usage was cut at a recording bound");
    expect(JSON.parse(readFileSync(pactFile, "utf8")).metadata["property-listing-kit"].truncated).toEqual(
      cut.truncated,
    );

    writeFileSync(usageFile, JSON.stringify({ ...usage, usageVersion: 9 }));
    const refused = await runCli(process.execPath, [
      CONTRACT_BIN,
      "--usage",
      usageFile,
      "--write-pact",
      join(folder, "other.json"),
    ]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`${usageFile}: usageVersion is 9`);

    expect(refused.stderr).toContain(`The usage ${usageFile} is refused`);
  });

  it("makes the pact's missing folders; a pact that cannot be written exits 2 naming it, not the usage", async () => {
    const folder = scratchFolder("plk-pact-");
    const usageFile = join(folder, "usage.json");
    writeFileSync(usageFile, JSON.stringify(usage));
    const nested = join(folder, "pacts", "web", "pact.json");
    const made = await runCli(process.execPath, [CONTRACT_BIN, "--usage", usageFile, "--write-pact", nested]);
    expect(made.code, made.stderr).toBe(0);
    expect(JSON.parse(readFileSync(nested, "utf8"))).toEqual(JSON.parse(JSON.stringify(pact)));
    // A file where a folder of the pact's path should be: the pact is at fault.
    const blocked = join(folder, "usage.json", "pact.json");
    const refused = await runCli(process.execPath, [CONTRACT_BIN, "--usage", usageFile, "--write-pact", blocked]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`The pact ${blocked} cannot be written`);
    expect(refused.stderr).toContain(`${blocked}: cannot write the pact: a part of its path is a file, not a folder`);
    expect(refused.stderr).not.toContain("is refused");
    const onFolder = await runCli(process.execPath, [CONTRACT_BIN, "--usage", usageFile, "--write-pact", folder]);
    expect(onFolder.code).toBe(2);
    expect(onFolder.stderr).toContain(`${folder}: cannot write the pact: it is a folder`);
  });

  it("needs --usage, and sends nothing", async () => {
    const folder = scratchFolder("plk-pact-");
    const usageFile = join(folder, "usage.json");
    const pactFile = join(folder, "pact.json");
    writeFileSync(usageFile, JSON.stringify(usage));
    const alone = await runCli(process.execPath, [CONTRACT_BIN, "--write-pact", pactFile]);
    expect(alone.code).toBe(2);
    expect(alone.stderr).toContain("--write-pact needs --usage <file>");
    const sending = await runCli(process.execPath, [
      CONTRACT_BIN,
      "--usage",
      usageFile,
      "--write-pact",
      pactFile,
      "--base-url",
      "http://127.0.0.1:9",
    ]);
    expect(sending.code).toBe(2);
    expect(sending.stderr).toContain("it takes --usage (and --quiet) only, not --base-url");
  });
});
