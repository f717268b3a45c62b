/**
 * Usage documents for the tests of the Pact writer, built by driving the mock in-process (its shipped fixtures,
 * as the mock process starts) so that every answer is one the mock really gives: a consumer's suite that lists
 * the demo account's properties and retrieves one of its start state (and one of its agent cards and floorplans),
 * creates a property and edits it by the nid the create answered, adds a document to it, is refused an agent when
 * the seats are full, and sends an invalid request. Until the recorder writes such files, this builder is what writes them; it never keeps a credential.
 */
import request from "supertest";
import { createContract } from "../../src/contract/create-contract.ts";
import { USAGE_VERSION, type UsageBinding, type UsageDocument, type UsageInteraction, type UsageTest } from "../../src/contract/usage/usage-document.ts";
import { createMockServer, type MockServer } from "../../src/mock/create-mock-server.ts";

/** The demo account of the shipped fixtures, and the second one. */
const CREDENTIALS: Record<string, { "API-KEY": string; TOKEN: string }> = {
  primary: { "API-KEY": "demo-key", TOKEN: "demo-token" },
  other: { "API-KEY": "broker-key", TOKEN: "broker-token" },
};

/** The assumption (docs/assumptions.md) an error answer of the mock rests on, by status. */
const ASSUMED: Record<number, string> = { 400: "A16", 401: "A17", 402: "A20", 404: "A18" };

interface Step {
  operation: string;
  method: "get" | "post" | "put" | "delete";
  path: string;
  params?: Record<string, string>;
  body?: unknown;
  account?: string;
  bindings?: UsageBinding[];
  /** Other credentials than the role's (a recording made with a team's own keys): never kept in the usage. */
  sendWith?: { "API-KEY": string; TOKEN: string };
}

/** One test, step by step, against the mock; each step may read the answers before it. */
async function recordTest(mock: MockServer, name: string, start: UsageTest["start"], steps: (answers: unknown[]) => Step | undefined, records: UsageTest["records"] = {}): Promise<UsageTest> {
  const interactions: UsageInteraction[] = [];
  const answers: unknown[] = [];
  for (let step = steps(answers); step; step = steps(answers)) {
    const account = step.account ?? "primary";
    const sent = request(mock.app)[step.method](step.path).set({ ...(step.sendWith ?? CREDENTIALS[account]!), "content-type": "application/json" });
    const response = step.body === undefined ? await sent : await sent.send(step.body as object);
    const mediaType = String(response.headers["content-type"] ?? "").split(";")[0]!.trim() || null;
    answers.push(response.body);
    interactions.push({
      operation: step.operation,
      request: { method: step.method.toUpperCase(), path: step.path, params: step.params ?? {}, headers: { "content-type": "application/json" }, account, ...(step.body === undefined ? {} : { body: step.body }) },
      response: { status: response.status, mediaType, body: response.body },
      bindings: step.bindings ?? [],
      // What the recorder would say: an error's status and problem body are the mock's choices (docs/assumptions.md).
      basis: response.status >= 400
        ? { status: { tier: "assumption", ids: [ASSUMED[response.status] ?? "A16"], pointers: [] }, mediaType: { tier: "assumption", ids: [ASSUMED[response.status] ?? "A16"], pointers: [] }, fields: {} }
        : { status: { tier: "fact" }, mediaType: { tier: "fact" }, fields: {} },
    });
  }
  return { name, start, records, interactions };
}

/** The steps of a test as a list, when no step depends on an earlier answer's value at build time. */
function inOrder(...steps: Array<(answers: unknown[]) => Step>): (answers: unknown[]) => Step | undefined {
  return (answers) => steps[answers.length]?.(answers);
}

export interface SampleOptions {
  consumer?: string;
  /** The credentials the "recording" sent for the primary role: the usage keeps the role, never these. */
  primaryCredentials?: { "API-KEY": string; TOKEN: string };
}

/**
 * A realistic usage of the demo account, recorded against an in-process mock with the shipped fixtures. With
 * `primaryCredentials`, the mock is given that account instead of the demo one, as a team recording with its
 * own secret-looking keys would.
 */
export async function buildSampleUsage(options: SampleOptions = {}): Promise<UsageDocument> {
  const own = options.primaryCredentials;
  const mock = createMockServer({
    log: () => {},
    ...(own ? { accounts: [{ apiKey: own["API-KEY"], token: own.TOKEN, uid: 1 }, { apiKey: "broker-key", token: "broker-token", uid: 2 }] } : {}),
  });
  const sendWith = own ? { sendWith: own } : {};
  const contract = createContract();
  const uid = "1";
  const started = mock.store.propertiesOf(1)[0]!;
  const startId = String(started.id);
  const { id: _id, uid: _uid, ...startFields } = started as unknown as Record<string, unknown>;
  const tests: UsageTest[] = [];

  tests.push(await recordTest(mock, "properties › lists the account's properties and opens one", { kind: "named", name: "fixtures" }, inOrder(
    () => ({ operation: "listUserProperties", method: "get", path: `/api/v1/object/properties/${uid}`, params: { uid }, bindings: [{ at: "/params/uid", from: "account-uid", account: "primary" }], ...sendWith }),
    () => ({ operation: "retrieveProperty", method: "get", path: `/api/v1/object/property/${startId}`, params: { nid: startId }, bindings: [{ at: "/params/nid", from: "start-record", collection: "properties", id: startId }], ...sendWith }),
  ), { properties: { [startId]: startFields } }));
  mock.reset();

  const created = (answers: unknown[]) => String((answers[0] as { nid: string }).nid);
  tests.push(await recordTest(mock, "properties › creates a property, edits it and adds a floorplan", { kind: "named", name: "fixtures" }, inOrder(
    () => ({ operation: "createProperty", method: "post", path: "/api/v1/object/property", body: { street: "12 Harbour Road", city: "Portland", state: "ME", zip: "04101", "square feet": 1450, bedrooms: 3, property_type: "Single Family" }, ...sendWith }),
    (answers) => ({ operation: "editProperty", method: "put", path: `/api/v1/object/property/${created(answers)}`, params: { nid: created(answers) }, body: { title: "Harbour view cottage" }, bindings: [{ at: "/params/nid", from: "answer", interaction: 0, pointer: "/nid" }], ...sendWith }),
    (answers) => ({ operation: "createDocument", method: "post", path: "/api/v1/object/document/", body: { title: "Ground floor", property_reference: Number(created(answers)), file_url: "https://files.example.com/ground.pdf", is_floorplan: true }, bindings: [{ at: "/body/property_reference", from: "answer", interaction: 0, pointer: "/nid" }], ...sendWith }),
    (answers) => ({ operation: "retrieveProperty", method: "get", path: `/api/v1/object/property/${created(answers)}`, params: { nid: created(answers) }, bindings: [{ at: "/params/nid", from: "answer", interaction: 0, pointer: "/nid" }], ...sendWith }),
  )));
  mock.reset();

  mock.useState("seats-full");
  tests.push(await recordTest(mock, "agents › shows the seats-full screen", { kind: "named", name: "seats-full" }, inOrder(
    () => ({ operation: "createAgentCard", method: "post", path: "/api/v1/object/agent_card/", body: { agent_first_name: "Ada", agent_last_name: "Byron", email: "ada.byron@agents.example.com" }, ...sendWith }),
  )));
  mock.reset();

  const agent = mock.store.agentsOf(1)[0]!;
  const floorplan = mock.store.documentsOfProperty(started.id)[0]!;
  const strip = (record: object) => Object.fromEntries(Object.entries(record).filter(([name]) => name !== "id" && name !== "uid"));
  tests.push(await recordTest(mock, "cards › opens an agent card and a floorplan of the account", { kind: "named", name: "fixtures" }, inOrder(
    () => ({ operation: "retrieveAgentCard", method: "post", path: `/api/v1/object/agent_card/${agent.id}`, params: { nid: String(agent.id) }, bindings: [{ at: "/params/nid", from: "start-record", collection: "agents", id: String(agent.id) }], ...sendWith }),
    () => ({ operation: "retrieveDocument", method: "get", path: `/api/v1/object/document/${floorplan.id}`, params: { nid: String(floorplan.id) }, bindings: [{ at: "/params/nid", from: "start-record", collection: "documents", id: String(floorplan.id) }], ...sendWith }),
  ), { agents: { [String(agent.id)]: strip(agent) }, documents: { [String(floorplan.id)]: strip(floorplan) }, properties: { [startId]: startFields } }));

  tests.push(await recordTest(mock, "properties › shows the errors of an invalid property", { kind: "named", name: "fixtures" }, inOrder(
    () => ({ operation: "createProperty", method: "post", path: "/api/v1/object/property", body: { street: "3 Elm Street", city: "Salem", state: "Massachusetts", zip: "01970" }, ...sendWith }),
  )));

  return {
    usageVersion: USAGE_VERSION,
    consumer: options.consumer ?? "listing-web",
    contract: { title: contract.document.info.title, version: contract.document.info.version, sha256: "0".repeat(64) },
    accounts: [{ role: "primary", uid, source: "demo" }, { role: "other", uid: "2", source: "demo" }],
    tests,
  };
}
