/**
 * Usage documents for the replay's tests, recorded from the real mock with its shipped fixtures: each sample test
 * is sent to a mock listening on loopback, and its answers, bindings and bases written down as the recorder
 * writes them (docs/assumptions.md numbers: A16 invalid request, A17 unauthorized, A18 not found, A20 the seats,
 * A45 the problem+json shape). Stands in for the recorder in tests that need realistic usage.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { createMockServer } from "../../src/mock/create-mock-server.ts";
import { PACKAGE_ROOT } from "../../src/package-root.ts";
import type { Basis, UsageBasis, UsageBinding, UsageDocument, UsageInteraction, UsageTest } from "../../src/contract/usage/usage-document.ts";

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
  /** The role of the account; `null` sends no credentials. */
  as?: string | null;
  bindings?: UsageBinding[];
}

/** A sample test: its name, start state, and requests. */
export interface SampleTest {
  name: string;
  start?: string;
  /** Start records the test names by id: read from the mock before the test, as the recorder keeps them. */
  records?: { properties?: string[] };
  steps: SampleStep[];
}

const created = (n: number): UsageBinding => ({ at: "/params/nid", from: "answer", interaction: n, pointer: "/nid" });

/** The sample tests the brief of the consumer contracts names, in a realistic suite's words. */
export const SAMPLE_TESTS: Record<string, SampleTest> = {
  list: {
    name: "properties > lists the demo account's properties",
    steps: [{ operation: "listUserProperties", method: "GET", path: "/properties/{uid}", params: { uid: DEMO_UID }, bindings: [{ at: "/params/uid", from: "account-uid", account: "primary" }] }],
  },
  retrieve: {
    name: "properties > retrieves a listed property",
    records: { properties: [DEMO_PROPERTY] },
    steps: [{ operation: "retrieveProperty", method: "GET", path: "/property/{nid}", params: { nid: DEMO_PROPERTY }, bindings: [{ at: "/params/nid", from: "start-record", collection: "properties", id: DEMO_PROPERTY }] }],
  },
  createEdit: {
    name: "properties > creates a property and edits its title",
    steps: [
      { operation: "createProperty", method: "POST", path: "/property", body: { street: "12 Consumer Lane", city: "Austin", state: "TX", zip: "78701", bedrooms: 3 } },
      { operation: "editProperty", method: "PUT", path: "/property/{nid}", params: { nid: "0" }, body: { title: "Sunny corner house" }, bindings: [created(0)] },
      { operation: "retrieveProperty", method: "GET", path: "/property/{nid}", params: { nid: "0" }, bindings: [created(0)] },
    ],
  },
  seats: {
    name: "agents > shows the seats-full screen when a create is refused",
    start: "seats-full",
    steps: [{ operation: "createAgentCard", method: "POST", path: "/agent_card/", as: "fresh", body: { agent_first_name: "Dana", agent_last_name: "Seatless", email: "dana.seatless@consumer.example" } }],
  },
  invalid: {
    name: "properties > shows the form's error for a state of the wrong length",
    steps: [{ operation: "createProperty", method: "POST", path: "/property", body: { street: "1 Main St", city: "Austin", state: "Texas", zip: "78701" } }],
  },
  document: {
    name: "documents > attaches a floorplan to a new property",
    steps: [
      { operation: "createProperty", method: "POST", path: "/property", body: { street: "7 Plan Street", city: "Austin", state: "TX", zip: "78702" } },
      { operation: "createDocument", method: "POST", path: "/document/", body: { title: "Ground floor", property_reference: 0, file_url: "https://files.consumer.example/plan.pdf", is_floorplan: true, visible: true, category: "floorplan", Show_on_unbranded: false }, bindings: [{ at: "/body/property_reference", from: "answer", interaction: 0, pointer: "/nid" }] },
      { operation: "retrieveDocument", method: "GET", path: "/document/{nid}", params: { nid: "0" }, bindings: [created(1)] },
    ],
  },
  order: {
    name: "properties > lists two new properties, oldest first",
    start: "empty-account",
    steps: [
      { operation: "createProperty", method: "POST", path: "/property", body: { street: "1 First Street", city: "Austin", state: "TX", zip: "78701" } },
      { operation: "createProperty", method: "POST", path: "/property", body: { street: "2 Second Street", city: "Austin", state: "TX", zip: "78701" } },
      { operation: "listUserProperties", method: "GET", path: "/properties/{uid}", params: { uid: DEMO_UID }, bindings: [{ at: "/params/uid", from: "account-uid", account: "primary" }] },
    ],
  },
};

/** The tests whose answers rest on documented facts only (with the default mock): a conforming service passes them. */
export const FACT_ONLY = ["list", "retrieve", "createEdit", "document"] as const;

/** Records sample tests against the mock (its shipped fixtures) as a usage document. */
export async function recordSampleUsage(tests: SampleTest[], consumer = "sample-web-app"): Promise<UsageDocument> {
  const mock = createMockServer({ log: () => {} });
  const { url } = await mock.listen(0, "127.0.0.1");
  try {
    const recorded: UsageTest[] = [];
    for (const test of tests) {
      mock.useState(test.start ?? "fixtures");
      const records: UsageTest["records"] = {};
      for (const nid of test.records?.properties ?? []) {
        (records.properties ??= {})[nid] = (await send(url, { operation: "retrieveProperty", method: "GET", path: `/property/${nid}` }, [])).response.body as Record<string, unknown>;
      }
      const interactions: UsageInteraction[] = [];
      for (const step of test.steps) interactions.push(await send(url, step, interactions));
      recorded.push({ name: test.name, start: test.start ? { kind: "named", name: test.start } : { kind: "named", name: "fixtures" }, records, interactions });
    }
    const spec = readFileSync(join(PACKAGE_ROOT, "spec", "openapi.yaml"));
    return {
      usageVersion: 1, consumer,
      contract: { title: "Property Listing Service", version: "1", sha256: createHash("sha256").update(spec).digest("hex") },
      accounts: [{ role: "primary", uid: DEMO_UID, source: "demo" }, { role: "fresh", uid: DEMO_UID, source: "demo" }],
      tests: recorded,
    };
  } finally {
    await mock.close();
  }
}

/** Sends one step to the mock, its bound values taken from the earlier answers, and records it. */
async function send(url: string, step: SampleStep, earlier: UsageInteraction[]): Promise<UsageInteraction> {
  const params = { ...step.params };
  let body = structuredClone(step.body);
  for (const binding of step.bindings ?? []) {
    const value = binding.from === "answer" ? String((earlier[binding.interaction]!.response.body as Record<string, unknown>)[binding.pointer.slice(1)]) : binding.from === "account-uid" ? DEMO_UID : binding.id;
    if (binding.at.startsWith("/params/")) params[binding.at.slice("/params/".length)] = value;
    else body = { ...(body as object), [binding.at.slice("/body/".length)]: Number(value) };
  }
  const path = `${API}${step.path.replace(/\{([^}]+)\}/g, (_whole, name: string) => params[name]!)}`;
  const as = step.as === undefined ? "primary" : step.as;
  const headers: Record<string, string> = { "content-type": "application/json", accept: "application/json", ...(as === null ? {} : CREDENTIALS) };
  const response = await fetch(`${url}${path}`, { method: step.method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  const text = await response.text();
  const mediaType = response.headers.get("content-type")?.split(";")[0]?.trim() ?? null;
  const answer = text === "" ? null : (JSON.parse(text) as unknown);
  const interaction: UsageInteraction = {
    operation: step.operation,
    request: { method: step.method, path, params, headers: { "content-type": "application/json", accept: "application/json" }, account: as, ...(as === null ? { credentials: "missing" as const } : {}), ...(body === undefined ? {} : { body }) },
    response: { status: response.status, mediaType, body: answer },
    bindings: step.bindings ?? [],
    basis: basisOf(response.status, answer),
  };
  return interaction;
}

/** What the mock's answer rests on: a 200 on documented facts; a refusal on the assumption of its status and on A45's shape. */
function basisOf(status: number, body: unknown): UsageBasis {
  if (status === 200) return { status: { tier: "fact" }, mediaType: { tier: "fact" }, fields: {} };
  const type = String((body as { type?: unknown })?.type ?? "");
  const id = type.includes("seats") ? "A20" : type.includes("exists") ? "A19" : status === 400 ? "A16" : status === 401 ? "A17" : status === 404 ? "A18" : "A45";
  const own: Basis = { tier: "assumption", ids: [id], pointers: [] };
  const shape: Basis = { tier: "assumption", ids: [id, "A45"], pointers: ["#/components/schemas/Problem"] };
  const fields: Record<string, Basis> = { "": shape };
  for (const key of Object.keys(body as object)) fields[`/${key}`] = shape;
  return { status: own, mediaType: shape, fields };
}
