/**
 * Usage documents for the tests of the Pact writer, recorded by the mock's own recorder (`usage: { consumer }`)
 * while a consumer's suite runs against it in-process (its shipped fixtures, as the mock process starts): a suite
 * that lists the demo account's properties and retrieves one of its start state (and one of its agent cards and
 * floorplans), creates a property and edits it by the nid the create answered, adds a document to it, is refused
 * an agent when the seats are full, and sends an invalid request. Each test begins with `usage.beginTest(name)`
 * and sets its start state before its first request; the document is `usage.toJSON()`, which never keeps a
 * credential.
 */
import request from "supertest";
import type { UsageDocument } from "../../src/contract/usage/usage-document.ts";
import { createMockServer, type MockServer } from "../../src/hosts/node/create-mock-server.ts";

/** The demo account of the shipped fixtures, and the second one. */
const CREDENTIALS: Record<string, { "API-KEY": string; TOKEN: string }> = {
  primary: { "API-KEY": "demo-key", TOKEN: "demo-token" },
  other: { "API-KEY": "broker-key", TOKEN: "broker-token" },
};

interface Step {
  method: "get" | "post" | "put" | "delete";
  path: string;
  body?: unknown;
  account?: string;
  /** Other credentials than the role's (a recording made with a team's own keys): never kept in the usage. */
  sendWith?: { "API-KEY": string; TOKEN: string };
}

/**
 * One test, step by step, against the mock; each step may read the answers before it. `start` is set after the
 * test begins and before its first request, as a `beforeEach` would.
 */
async function recordTest(
  mock: MockServer,
  name: string,
  start: string,
  steps: (answers: unknown[]) => Step | undefined,
): Promise<void> {
  mock.usage!.beginTest(name);
  mock.useState(start);
  const answers: unknown[] = [];
  for (let step = steps(answers); step; step = steps(answers)) {
    const sent = request(mock.app)
      [step.method](step.path)
      .set({ ...(step.sendWith ?? CREDENTIALS[step.account ?? "primary"]!), "content-type": "application/json" });
    const response = step.body === undefined ? await sent : await sent.send(step.body as object);
    answers.push(response.body);
  }
}

/** The steps of a test as a list, when no step depends on an earlier answer's value at build time. */
function inOrder(...steps: Array<(answers: unknown[]) => Step>): (answers: unknown[]) => Step | undefined {
  return (answers) => steps[answers.length]?.(answers);
}

export interface SampleOptions {
  consumer?: string;
  /** The credentials the recording sent for the primary role: the usage keeps the role, never these. */
  primaryCredentials?: { "API-KEY": string; TOKEN: string };
  /**
   * Adds a test that adds an agent and is refused a second one with the same email (section 7's Agent Already Exists).
   */
  duplicateEmail?: boolean;
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
    usage: { consumer: options.consumer ?? "listing-web" },
    ...(own
      ? {
          accounts: [
            { apiKey: own["API-KEY"], token: own.TOKEN, uid: 1 },
            { apiKey: "broker-key", token: "broker-token", uid: 2 },
          ],
        }
      : {}),
  });
  const sendWith = own ? { sendWith: own } : {};
  const uid = "1";
  const started = mock.store.propertiesOf(1)[0]!;
  const agent = mock.store.agentsOf(1)[0]!;
  const floorplan = mock.store.documentsOfProperty(started.id)[0]!;

  await recordTest(
    mock,
    "properties › lists the account's properties and opens one",
    "fixtures",
    inOrder(
      () => ({ method: "get", path: `/api/v1/object/properties/${uid}`, ...sendWith }),
      () => ({ method: "get", path: `/api/v1/object/property/${started.id}`, ...sendWith }),
    ),
  );

  const created = (answers: unknown[]) => String((answers[0] as { nid: string }).nid);
  await recordTest(
    mock,
    "properties › creates a property, edits it and adds a floorplan",
    "fixtures",
    inOrder(
      () => ({
        method: "post",
        path: "/api/v1/object/property",
        body: {
          street: "12 Harbour Road",
          city: "Portland",
          state: "ME",
          zip: "04101",
          "square feet": 1450,
          bedrooms: 3,
          property_type: "Single Family",
        },
        ...sendWith,
      }),
      (answers) => ({
        method: "put",
        path: `/api/v1/object/property/${created(answers)}`,
        body: { title: "Harbour view cottage" },
        ...sendWith,
      }),
      (answers) => ({
        method: "post",
        path: "/api/v1/object/document/",
        body: {
          title: "Ground floor",
          property_reference: Number(created(answers)),
          file_url: "https://files.example.com/ground.pdf",
          is_floorplan: true,
        },
        ...sendWith,
      }),
      (answers) => ({ method: "get", path: `/api/v1/object/property/${created(answers)}`, ...sendWith }),
    ),
  );

  await recordTest(
    mock,
    "agents › shows the seats-full screen",
    "seats-full",
    inOrder(() => ({
      method: "post",
      path: "/api/v1/object/agent_card/",
      body: { agent_first_name: "Ada", agent_last_name: "Byron", email: "ada.byron@agents.example.com" },
      ...sendWith,
    })),
  );

  await recordTest(
    mock,
    "cards › opens an agent card and a floorplan of the account",
    "fixtures",
    inOrder(
      () => ({ method: "post", path: `/api/v1/object/agent_card/${agent.id}`, ...sendWith }),
      () => ({ method: "get", path: `/api/v1/object/document/${floorplan.id}`, ...sendWith }),
    ),
  );

  await recordTest(
    mock,
    "properties › shows the errors of an invalid property",
    "fixtures",
    inOrder(() => ({
      method: "post",
      path: "/api/v1/object/property",
      body: { street: "3 Elm Street", city: "Salem", state: "Massachusetts", zip: "01970" },
      ...sendWith,
    })),
  );

  if (options.duplicateEmail) {
    const email = { agent_first_name: "Grace", agent_last_name: "Hopper", email: "grace.hopper@agents.example.com" };
    await recordTest(
      mock,
      "agents › refuses a second agent with the same email",
      "fixtures",
      inOrder(
        () => ({ method: "post", path: "/api/v1/object/agent_card/", body: email, ...sendWith }),
        () => ({
          method: "post",
          path: "/api/v1/object/agent_card/",
          body: { ...email, agent_first_name: "Amazing" },
          ...sendWith,
        }),
      ),
    );
  }

  const usage = mock.usage!.toJSON();
  await mock.close();
  return usage;
}
