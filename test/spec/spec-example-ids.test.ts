/**
 * Every id an example of the spec names is a record of the default fixtures (`fixtures/db.json`) that the demo
 * account (`demo-key`/`demo-token`) owns, so a tool that starts from the examples (Schemathesis' examples phase,
 * Dredd, a reader with curl) reaches records rather than 404s. Walked: every `example` and `examples` of the
 * document; one that no rule below reads fails the test, so a new example cannot go unchecked.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { resolvePointer } from "../../src/spec/json-pointer.ts";
import { loadSpec } from "../../src/spec/load-spec.ts";
import type { Database } from "../../src/mock/store/records.ts";
import { PACKAGE_ROOT } from "../support/start-process.ts";

const spec = loadSpec();
const db = JSON.parse(readFileSync(join(PACKAGE_ROOT, "fixtures", "db.json"), "utf8")) as Database;
const demo = db.accounts.find((account) => account.apiKey === "demo-key" && account.token === "demo-token")!;
const properties = db.properties.filter((record) => record.uid === demo.id);
const agents = db.agents.filter((record) => record.uid === demo.id);
const documents = db.documents.filter((record) => record.uid === demo.id);

type Collection = "properties" | "agents" | "documents";
const OWNED = { properties, agents, documents } as const;
const deref = (value: unknown): unknown =>
  value !== null && typeof value === "object" && "$ref" in value
    ? deref(resolvePointer(spec, (value as { $ref: string }).$ref))
    : value;
const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === "object" && !Array.isArray(value);

/** The collection an operation's path addresses. */
function collectionOf(path: string): Collection | undefined {
  if (/\/(external-)?propert(y|ies)\b/.test(path)) return "properties";
  if (path.includes("/agent_card")) return "agents";
  if (path.includes("/document")) return "documents";
  return undefined;
}

/** What is wrong with one id an example names: an empty list when it is a record of the demo account. */
function findRecord(collection: Collection, id: unknown): string[] {
  const found = OWNED[collection].find((record) => String(record.id) === String(id));
  if (found) return [];
  const elsewhere = db[collection].some((record) => String(record.id) === String(id));
  return [`${collection} ${JSON.stringify(id)} is ${elsewhere ? "not the demo account's" : "not in fixtures/db.json"}`];
}

/**
 * The ids a body example names, checked: `nid`/`id` of the path's collection, `uid`, `property_reference`,
 * `external_id`, the keys of an agent list, and the tours, videos and floorplans a property carries.
 */
function bodyProblems(
  value: unknown,
  collection: Collection,
  direction: "request" | "response",
  target?: string,
): string[] {
  if (Array.isArray(value)) return value.flatMap((item) => bodyProblems(item, collection, direction, target));
  if (!isObject(value)) return [];
  const problems: string[] = [];
  const own = value.nid ?? value.id;
  if (own !== undefined) problems.push(...findRecord(collection, own));
  else if (
    collection === "agents" &&
    direction === "response" &&
    Object.keys(value).every((key) => /^[0-9]+$/.test(key))
  ) {
    // The agent list: a map keyed by nid, each entry with the agent's email.
    for (const [key, entry] of Object.entries(value)) {
      problems.push(...findRecord("agents", key));
      const agent = agents.find((record) => String(record.id) === key);
      if (agent && isObject(entry) && entry.email !== agent.email)
        problems.push(`agent ${key} has the email ${agent.email}, not ${String(entry.email)}`);
    }
  }
  if (value.uid !== undefined && String(value.uid) !== String(demo.id))
    problems.push(`uid ${String(value.uid)} is not the demo account (${demo.id})`);
  if (value.property_reference !== undefined) problems.push(...findRecord("properties", value.property_reference));
  if (typeof value.external_id === "string") {
    const holder = db.properties.find((record) => record.external_id === value.external_id);
    if (direction === "response" && String(holder?.id) !== String(own))
      problems.push(
        `external id ${value.external_id} belongs to ${holder ? `property ${holder.id}` : "no property"}, ` +
          `not ${String(own)}`,
      );
    // An edit that sets an external id held by another property is refused (409): the example must not be.
    if (direction === "request" && holder && String(holder.id) !== target)
      problems.push(`external id ${value.external_id} already belongs to property ${holder.id}`);
  }
  if (collection === "agents" && direction === "request" && typeof value.email === "string") {
    const holder = agents.find((record) => record.email.toLowerCase() === (value.email as string).toLowerCase());
    if (holder && String(holder.id) !== target)
      problems.push(`email ${value.email} already belongs to agent ${holder.id}`);
  }
  if (collection === "properties" && own !== undefined) {
    const property = properties.find((record) => String(record.id) === String(own));
    const floorplans = documents
      .filter((record) => record.property_reference === property?.id && record.is_floorplan)
      .map((record) => String(record.id));
    const held: Record<string, string[]> = {
      virtual_tours: Object.keys(property?.virtual_tours ?? {}),
      property_videos: Object.keys(property?.property_videos ?? {}),
      floorplans,
    };
    for (const [field, ids] of Object.entries(held)) {
      if (!isObject(value[field])) continue;
      for (const key of Object.keys(value[field]))
        if (!ids.includes(key))
          problems.push(`${field} ${key} is not one of property ${String(own)}'s (${ids.join(", ")})`);
    }
  }
  return problems;
}

/**
 * What a problem example's detail says about the fixtures: the ids it says are missing are, the ones it says are taken
 * are.
 */
function problemProblems(value: unknown): string[] {
  const detail = isObject(value) && typeof value.detail === "string" ? value.detail : "";
  const problems: string[] = [];
  const missing = /^No property with nid ([0-9]+)/.exec(detail);
  if (missing && properties.some((record) => String(record.id) === missing[1]))
    problems.push(`property ${missing[1]} exists, yet the example says it does not`);
  const taken = /external id (\S+) already belongs to property ([0-9]+)/.exec(detail);
  if (taken && !properties.some((record) => record.external_id === taken[1] && String(record.id) === taken[2]))
    problems.push(`property ${taken[2]} of the demo account does not hold ${taken[1]}`);
  const email = /email (\S+) already exists/.exec(detail);
  if (email && !agents.some((record) => record.email === email[1]))
    problems.push(`no agent of the demo account has the email ${email[1]}`);
  return problems;
}

/** The values of a media type's `example` and `examples`, each with where it is. */
function mediaExamples(media: Record<string, unknown>, at: string): Array<[string, unknown]> {
  const found: Array<[string, unknown]> = [];
  if ("example" in media) found.push([`${at}/example`, media.example]);
  for (const [name, example] of Object.entries((media.examples ?? {}) as Record<string, unknown>))
    found.push([`${at}/examples/${name}`, (deref(example) as { value: unknown }).value]);
  return found;
}

/** Every example of the document, checked by the rule its place calls for: where it is, and what is wrong with it. */
function checkedExamples(): { checked: Set<string>; problems: Record<string, string[]> } {
  const checked = new Set<string>();
  const problems: Record<string, string[]> = {};
  const note = (at: string, found: string[]) => {
    checked.add(at);
    if (found.length > 0) problems[at] = found;
  };
  const parameterRefs = new Set<string>();
  const responseRefs = new Set<string>();
  const exampleRefs = new Set<string>();
  for (const [path, item] of Object.entries(spec.paths)) {
    const collection = collectionOf(path);
    for (const [method, operation] of Object.entries(item as Record<string, Record<string, unknown>>)) {
      if (!isObject(operation) || !("responses" in operation)) continue; // the path's `parameters`, read below
      const at = `/paths/${path}/${method}`;
      let target: string | undefined;
      // The path's own parameters, then the operation's.
      const parameters: Array<[string, unknown]> = [
        ...((item as { parameters?: unknown[] }).parameters ?? []).map((raw, index): [string, unknown] => [
          `/paths/${path}/parameters/${index}`,
          raw,
        ]),
        ...((operation.parameters ?? []) as unknown[]).map((raw, index): [string, unknown] => [
          `${at}/parameters/${index}`,
          raw,
        ]),
      ];
      for (const [place, raw] of parameters) {
        const ref = isObject(raw) && typeof raw.$ref === "string" ? raw.$ref : undefined;
        if (ref) parameterRefs.add(ref);
        const parameter = deref(raw) as { name: string; example?: unknown };
        if (parameter.example === undefined) continue;
        const where = ref ? `/components/parameters/${ref.split("/").at(-1)}` : place;
        let found: string[];
        if (parameter.name === "nid" && collection) {
          target = String(parameter.example);
          found = findRecord(collection, parameter.example);
        } else if (parameter.name === "uid")
          found =
            String(parameter.example) === String(demo.id)
              ? []
              : [`uid ${String(parameter.example)} is not the demo account`];
        else if (parameter.name === "external-id")
          found = properties.some((record) => record.external_id === parameter.example)
            ? []
            : [`no property of the demo account has the external id ${String(parameter.example)}`];
        else found = [`no rule for the parameter ${parameter.name}`];
        note(`${where}/example`, found);
      }
      const body = operation.requestBody as { content?: Record<string, Record<string, unknown>> } | undefined;
      for (const [type, media] of Object.entries(body?.content ?? {})) {
        for (const [where, value] of mediaExamples(media, `${at}/requestBody/content/${type}`))
          note(where, collection ? bodyProblems(value, collection, "request", target) : []);
        for (const example of Object.values((media.examples ?? {}) as Record<string, { $ref?: string }>))
          if (example.$ref) exampleRefs.add(example.$ref);
      }
      for (const [status, raw] of Object.entries(operation.responses as Record<string, unknown>)) {
        const ref = isObject(raw) && typeof raw.$ref === "string" ? raw.$ref : undefined;
        if (ref) responseRefs.add(ref);
        const response = deref(raw) as { content?: Record<string, Record<string, unknown>> };
        const base = ref ? `/components/responses/${ref.split("/").at(-1)}` : `${at}/responses/${status}`;
        for (const [type, media] of Object.entries(response.content ?? {})) {
          for (const example of Object.values((media.examples ?? {}) as Record<string, { $ref?: string }>))
            if (example.$ref) exampleRefs.add(example.$ref);
          for (const [where, value] of mediaExamples(media, `${base}/content/${type}`)) {
            if (status.startsWith("2"))
              note(where, collection ? bodyProblems(value, collection, "response", target) : []);
            else note(where, problemProblems(value));
          }
        }
      }
    }
  }
  // A component reached by no operation is still an example a tool reads: it must have been checked through one.
  for (const name of Object.keys(spec.components?.parameters ?? {}))
    if (!parameterRefs.has(`#/components/parameters/${name}`))
      note(`/components/parameters/${name}`, ["used by no operation"]);
  for (const name of Object.keys(spec.components?.responses ?? {}))
    if (!responseRefs.has(`#/components/responses/${name}`))
      note(`/components/responses/${name}`, ["used by no operation"]);
  for (const name of Object.keys(spec.components?.examples ?? {}))
    note(
      `/components/examples/${name}`,
      exampleRefs.has(`#/components/examples/${name}`) ? [] : ["used by no operation"],
    );
  // Schema examples: an id string names a record of the demo account, of any collection.
  for (const [name, schema] of Object.entries(spec.components?.schemas ?? {})) {
    for (const value of (schema as { examples?: unknown[] }).examples ?? []) {
      const found =
        name === "IdString"
          ? Object.values(OWNED).some((records) => records.some((record) => String(record.id) === value))
            ? []
            : [`${String(value)} is no record of the demo account`]
          : [];
      note(`/components/schemas/${name}/examples`, found);
    }
  }
  return { checked, problems };
}

/** Where the document holds an `example` or `examples`, as JSON-pointer-like paths (unescaped, for reading). */
function everyExamplePlace(node: unknown, at: string, found: string[] = []): string[] {
  if (Array.isArray(node)) node.forEach((item, index) => everyExamplePlace(item, `${at}/${index}`, found));
  else if (isObject(node)) {
    for (const [key, value] of Object.entries(node)) {
      if (key === "example") found.push(`${at}/example`);
      else if (key === "examples" && at === "/components")
        for (const name of Object.keys(value as object)) found.push(`/components/examples/${name}`);
      else if (key === "examples" && Array.isArray(value)) found.push(`${at}/examples`);
      else if (key === "examples")
        for (const name of Object.keys(value as object)) found.push(`${at}/examples/${name}`);
      else everyExamplePlace(value, `${at}/${key}`, found);
    }
  }
  return found;
}

describe("the spec's examples", () => {
  const { checked, problems } = checkedExamples();

  it("name only records of the default fixtures that the demo account owns", () => {
    expect(problems).toEqual({});
  });

  it("are each read by a rule of this test", () => {
    const places = everyExamplePlace(spec, "");
    expect(places.length).toBeGreaterThan(30);
    expect(places.filter((place) => !checked.has(place))).toEqual([]);
  });

  it("are caught when one names a record the fixtures lack", () => {
    expect(findRecord("agents", 3001)).toEqual(["agents 3001 is not in fixtures/db.json"]);
    expect(bodyProblems({ nid: "1001", uid: "2" }, "properties", "response")).toEqual([
      "uid 2 is not the demo account (1)",
    ]);
    const others = db.properties.find((record) => record.uid !== demo.id)!;
    expect(findRecord("properties", others.id)).toEqual([`properties ${others.id} is not the demo account's`]);
    expect(bodyProblems({ nid: "1001", virtual_tours: { "5001": {} } }, "properties", "response")).toEqual([
      expect.stringContaining("virtual_tours 5001"),
    ]);
    expect(problemProblems({ detail: "No property with nid 1001 for this account." })).toEqual([
      "property 1001 exists, yet the example says it does not",
    ]);
  });
});
