/**
 * Usage documents for the replay's tests, recorded by the mock's own recorder (`usage: { consumer }`) from a
 * realistic suite run against the mock with its shipped fixtures: each sample test begins with
 * `usage.beginTest(name)`, sets its start state, and sends its requests over loopback as a client would, taking
 * the ids it sends from the answers it got. The document is `usage.toJSON()`: bindings, roles, start records and
 * bases are the recorder's, not guessed here.
 */
import { createMockServer } from "../../src/hosts/node/create-mock-server.ts";
import type { UsageBinding, UsageDocument } from "../../src/contract/usage/usage-document.ts";

const API = "/api/v1/object";
const CREDENTIALS = { "API-KEY": "demo-key", TOKEN: "demo-token" };
/** The demo account's uid in the shipped fixtures, and one of its properties. */
export const DEMO_UID = "1";
export const DEMO_PROPERTY = "1001";

/** One request of a sample test. */
export interface SampleStep {
  operation: string;
  method: string;
  /** The path template, `{name}` filled from `params`. */
  path: string;
  params?: Record<string, string>;
  body?: unknown;
  /** Which account the client acts as (every role sends the demo credentials); `null` sends no credentials. */
  as?: string | null;
  /**
   * Where the client takes a value it sends: an earlier answer, the account's uid or a known record. Only how the
   * client builds its request: the recorder finds the bindings of the document on its own.
   */
  bindings?: UsageBinding[];
}

/** A sample test: its name, start state (the fixtures when none), and requests. */
export interface SampleTest {
  name: string;
  start?: string;
  steps: SampleStep[];
}

const created = (n: number): UsageBinding => ({ at: "/params/nid", from: "answer", interaction: n, pointer: "/nid" });

/** The sample tests the brief of the consumer contracts names, in a realistic suite's words. */
export const SAMPLE_TESTS: Record<string, SampleTest> = {
  list: {
    name: "properties > lists the demo account's properties",
    steps: [
      {
        operation: "listUserProperties",
        method: "GET",
        path: "/properties/{uid}",
        params: { uid: DEMO_UID },
        bindings: [{ at: "/params/uid", from: "account-uid", account: "primary" }],
      },
    ],
  },
  retrieve: {
    name: "properties > retrieves a listed property",
    steps: [
      {
        operation: "retrieveProperty",
        method: "GET",
        path: "/property/{nid}",
        params: { nid: DEMO_PROPERTY },
        bindings: [{ at: "/params/nid", from: "start-record", collection: "properties", id: DEMO_PROPERTY }],
      },
    ],
  },
  openFirst: {
    name: "properties > opens the first property of the list",
    steps: [
      {
        operation: "listUserProperties",
        method: "GET",
        path: "/properties/{uid}",
        params: { uid: DEMO_UID },
        bindings: [{ at: "/params/uid", from: "account-uid", account: "primary" }],
      },
      {
        operation: "retrieveProperty",
        method: "GET",
        path: "/property/{nid}",
        params: { nid: "0" },
        bindings: [{ at: "/params/nid", from: "answer", interaction: 0, pointer: "/0/nid" }],
      },
    ],
  },
  createEdit: {
    name: "properties > creates a property and edits its title",
    steps: [
      {
        operation: "createProperty",
        method: "POST",
        path: "/property",
        body: { street: "12 Consumer Lane", city: "Austin", state: "TX", zip: "78701", bedrooms: 3 },
      },
      {
        operation: "editProperty",
        method: "PUT",
        path: "/property/{nid}",
        params: { nid: "0" },
        body: { title: "Sunny corner house" },
        bindings: [created(0)],
      },
      {
        operation: "retrieveProperty",
        method: "GET",
        path: "/property/{nid}",
        params: { nid: "0" },
        bindings: [created(0)],
      },
    ],
  },
  seats: {
    name: "agents > shows the seats-full screen when a create is refused",
    start: "seats-full",
    steps: [
      {
        operation: "createAgentCard",
        method: "POST",
        path: "/agent_card/",
        as: "fresh",
        body: { agent_first_name: "Dana", agent_last_name: "Seatless", email: "dana.seatless@consumer.example" },
      },
    ],
  },
  invalid: {
    name: "properties > shows the form's error for a state of the wrong length",
    steps: [
      {
        operation: "createProperty",
        method: "POST",
        path: "/property",
        body: { street: "1 Main St", city: "Austin", state: "Texas", zip: "78701" },
      },
    ],
  },
  document: {
    name: "documents > attaches a floorplan to a new property",
    steps: [
      {
        operation: "createProperty",
        method: "POST",
        path: "/property",
        body: { street: "7 Plan Street", city: "Austin", state: "TX", zip: "78702" },
      },
      {
        operation: "createDocument",
        method: "POST",
        path: "/document/",
        body: {
          title: "Ground floor",
          property_reference: 0,
          file_url: "https://files.consumer.example/plan.pdf",
          is_floorplan: true,
          visible: true,
          category: "floorplan",
          Show_on_unbranded: false,
        },
        bindings: [{ at: "/body/property_reference", from: "answer", interaction: 0, pointer: "/nid" }],
      },
      {
        operation: "retrieveDocument",
        method: "GET",
        path: "/document/{nid}",
        params: { nid: "0" },
        bindings: [created(1)],
      },
    ],
  },
  order: {
    name: "properties > lists two new properties, oldest first",
    start: "empty-account",
    steps: [
      {
        operation: "createProperty",
        method: "POST",
        path: "/property",
        body: { street: "1 First Street", city: "Austin", state: "TX", zip: "78701" },
      },
      {
        operation: "createProperty",
        method: "POST",
        path: "/property",
        body: { street: "2 Second Street", city: "Austin", state: "TX", zip: "78701" },
      },
      {
        operation: "listUserProperties",
        method: "GET",
        path: "/properties/{uid}",
        params: { uid: DEMO_UID },
        bindings: [{ at: "/params/uid", from: "account-uid", account: "primary" }],
      },
    ],
  },
};

/**
 * A test that adds an agent with three social links, sent in an order that is by weight in neither direction,
 * and reads them back: the mock answers them by weight (section 2.2), as the client's screen expects.
 */
export const LINKS_TEST: SampleTest = {
  name: "agents > shows an agent's social links in weight order",
  steps: [
    {
      operation: "createAgentCard",
      method: "POST",
      path: "/agent_card/",
      body: {
        agent_first_name: "Lin",
        agent_last_name: "Weights",
        email: "lin.weights@consumer.example",
        social_media_links: [
          { service: "twitter", url: "https://twitter.example/lin", weight: "5" },
          { service: "facebook", url: "https://facebook.example/lin", weight: "-2" },
          { service: "linkedin", url: "https://linkedin.example/lin", weight: "10" },
        ],
      },
    },
    {
      operation: "retrieveAgentCard",
      method: "POST",
      path: "/agent_card/{nid}",
      params: { nid: "0" },
      bindings: [created(0)],
    },
  ],
};

/**
 * The tests that pass against a conforming service: their answers rest on documented facts, or on the mock's
 * values of fields never set only where the replay sets them first (a start record is created, then edited).
 */
export const FACT_ONLY = ["list", "retrieve", "openFirst", "document"] as const;

/**
 * The test that reads a property it created, whose never-set fields (`country`, `half_baths`…) the mock fills
 * and section 2.1's service answers null: it rests on the never-set-defaults assumption.
 */
export const NEVER_SET = "createEdit";

/** Records sample tests with the mock's recorder (its shipped fixtures) and answers its usage document. */
export async function recordSampleUsage(tests: SampleTest[], consumer = "sample-web-app"): Promise<UsageDocument> {
  const mock = createMockServer({ log: () => {}, usage: { consumer } });
  const { url } = await mock.listen(0, "127.0.0.1");
  try {
    for (const test of tests) {
      mock.usage!.beginTest(test.name);
      // Before the test's first request: the state the recorder says it started from.
      mock.useState(test.start ?? "fixtures");
      const answers: unknown[] = [];
      for (const step of test.steps) answers.push(await send(url, step, answers));
    }
    return mock.usage!.toJSON();
  } finally {
    await mock.close();
  }
}

/** Sends one step to the mock as the client would, its ids taken from the earlier answers; answers the body it got. */
async function send(url: string, step: SampleStep, earlier: unknown[]): Promise<unknown> {
  const params = { ...step.params };
  let body = structuredClone(step.body);
  for (const binding of step.bindings ?? []) {
    const value =
      binding.from === "answer"
        ? String(
            binding.pointer
              .slice(1)
              .split("/")
              .reduce<unknown>((at, token) => (at as Record<string, unknown>)[token], earlier[binding.interaction]),
          )
        : binding.from === "account-uid"
          ? DEMO_UID
          : binding.id;
    if (binding.at.startsWith("/params/")) params[binding.at.slice("/params/".length)] = value;
    else body = { ...(body as object), [binding.at.slice("/body/".length)]: Number(value) };
  }
  const path = `${API}${step.path.replace(/\{([^}]+)\}/g, (_whole, name: string) => params[name]!)}`;
  const headers: Record<string, string> = {
    "content-type": "application/json",
    accept: "application/json",
    ...(step.as === null ? {} : CREDENTIALS),
  };
  const response = await fetch(`${url}${path}`, {
    method: step.method,
    headers,
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return text === "" ? null : (JSON.parse(text) as unknown);
}
