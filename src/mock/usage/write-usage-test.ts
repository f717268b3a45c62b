import type { Basis, UsageBinding, UsageInteraction, UsageTest } from "../../contract/usage/usage-document.ts";
import { escapeToken } from "../../spec/json-pointer.ts";
import type { AnswerBasis } from "./answer-basis.ts";
import { collectionOfPath, type OpenTest, type RecordCollection } from "./recorded-test.ts";

/** Ids of one answer indexed for the bindings of later requests, at most this many per test. */
const MAX_INDEXED_IDS = 20_000;
const utf8 = new TextDecoder();

/** What writing a test needs of the recorder. */
export interface WriteTestDeps {
  basis: AnswerBasis;
  /** The path template of an operation. */
  pathOf: (operationId: string) => string | undefined;
  /** `JSON.stringify`'s replacer that keeps credentials, auto-login tokens and the clock out. */
  replacer: (key: string, value: unknown) => unknown;
}

/**
 * A test as one line of JSON: its interactions in order, each with the bindings of its ids (an earlier answer,
 * an account's uid, a record of the start state) and the basis of its answer; the start records the bindings
 * name, as the mock held them. Done once, when the test ends: the answers are parsed here, not while recorded.
 */
export function writeUsageTest(test: OpenTest, deps: WriteTestDeps): string {
  const fromAnswers = new Map<string, { interaction: number; pointer: string }>();
  const externalFromAnswers = new Map<string, { interaction: number; pointer: string }>();
  /** Documents the test made: not part of a start record's floorplans. */
  const made = new Set<string>();
  const used = new Set<string>();
  const uidRoles = new Map<string, string>();
  for (const [role, uid] of test.uids) if (!uidRoles.has(uid)) uidRoles.set(uid, role);

  const bindOne = (at: string, value: string, collection: RecordCollection | undefined): UsageBinding | undefined => {
    const answered = fromAnswers.get(value);
    if (answered) return { at, from: "answer", ...answered };
    if (collection && test.records.has(`${collection}/${value}`)) {
      used.add(`${collection}/${value}`);
      return { at, from: "start-record", collection, id: value };
    }
    return undefined;
  };

  const interactions: UsageInteraction[] = [];
  test.calls.forEach((call, index) => {
    const bindings: UsageBinding[] = [];
    const collection = collectionOfPath(deps.pathOf(call.operation) ?? "");
    for (const name of Object.keys(call.params).sort()) {
      const value = call.params[name]!;
      const at = `/params/${escapeToken(name)}`;
      let binding: UsageBinding | undefined;
      if (name === "uid") {
        const role = uidRoles.get(value);
        binding = role ? { at, from: "account-uid", account: role } : fromAnswers.has(value) ? { at, from: "answer", ...fromAnswers.get(value)! } : undefined;
      } else if (name === "external-id") {
        const answered = externalFromAnswers.get(value);
        const nid = test.externalIds.get(value);
        if (answered) binding = { at, from: "answer", ...answered };
        else if (nid !== undefined && test.records.has(`properties/${nid}`)) {
          used.add(`properties/${nid}`);
          binding = { at, from: "start-record", collection: "properties", id: nid };
        }
      } else binding = bindOne(at, value, collection);
      if (binding) bindings.push(binding);
    }
    const requestBody = call.requestBody === undefined ? undefined : (JSON.parse(call.requestBody) as unknown);
    const reference = requestBody !== null && typeof requestBody === "object" ? (requestBody as Record<string, unknown>).property_reference : undefined;
    if (typeof reference === "number" || typeof reference === "string") {
      const binding = bindOne("/body/property_reference", String(reference), "properties");
      if (binding) bindings.push(binding);
    }
    const body = call.answer === undefined ? null : (JSON.parse(typeof call.answer === "string" ? call.answer : utf8.decode(call.answer)) as unknown);
    const basis = deps.basis.of({ operationId: call.operation, status: call.status, mediaType: call.mediaType, ...(call.errorPoint ? { errorPoint: call.errorPoint } : {}), ...(call.profiledMedia ? { profiledMedia: true } : {}) }, body) ?? {
      status: FACT,
      mediaType: FACT,
      fields: {},
    };
    interactions.push({
      operation: call.operation,
      request: {
        method: call.method,
        path: call.path,
        params: call.params,
        headers: Object.fromEntries(call.headers),
        account: call.account,
        ...(call.credentials ? { credentials: call.credentials } : {}),
        ...(requestBody === undefined ? {} : { body: requestBody }),
      },
      response: { status: call.status, mediaType: call.mediaType, body },
      bindings,
      basis,
    });
    if (call.status === 200) {
      indexIds(body, "", index, fromAnswers, externalFromAnswers, 0);
      if (call.operation === "createDocument" && body !== null && typeof body === "object" && "nid" in body) made.add(String((body as { nid: unknown }).nid));
    }
  });

  const records: UsageTest["records"] = {};
  for (const key of [...used].sort(byCollectionAndId)) {
    const [collection, id] = key.split("/") as [RecordCollection, string];
    const record = JSON.parse(test.records.get(key)!) as Record<string, unknown>;
    // A floorplan the test itself made is not part of the property as it started.
    if (collection === "properties" && made.size > 0 && record.floorplans && typeof record.floorplans === "object") {
      record.floorplans = Object.fromEntries(Object.entries(record.floorplans).filter(([nid]) => !made.has(nid)));
    }
    (records[collection] ??= {})[id] = sortedKeys(record);
  }
  const written: UsageTest = { name: test.name, start: test.start, records, interactions, ...(test.truncated ? { truncated: true as const } : {}) };
  return JSON.stringify(written, deps.replacer);
}

const FACT: Basis = { tier: "fact" };

/** Ids an answer gives (every `nid`, at any depth; every `external_id`), first place first. */
function indexIds(value: unknown, pointer: string, interaction: number, ids: Map<string, { interaction: number; pointer: string }>, externals: Map<string, { interaction: number; pointer: string }>, depth: number): void {
  if (value === null || typeof value !== "object" || depth > 4 || ids.size >= MAX_INDEXED_IDS) return;
  const entries = Array.isArray(value) ? value.map((item, at) => [String(at), item] as const) : Object.entries(value);
  for (const [key, child] of entries) {
    const at = `${pointer}/${escapeToken(key)}`;
    if (key === "nid" && (typeof child === "string" || typeof child === "number") && !ids.has(String(child))) ids.set(String(child), { interaction, pointer: at });
    else if (key === "external_id" && typeof child === "string" && child !== "" && !externals.has(child)) externals.set(child, { interaction, pointer: at });
    else indexIds(child, at, interaction, ids, externals, depth + 1);
  }
}

function byCollectionAndId(a: string, b: string): number {
  const [ca, ia] = a.split("/") as [string, string];
  const [cb, ib] = b.split("/") as [string, string];
  return ca === cb ? Number(ia) - Number(ib) : ca < cb ? -1 : 1;
}

/** An object with its members in key order (a record's order is not meaningful). */
function sortedKeys(record: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.keys(record).sort().map((key) => [key, record[key]]));
}
