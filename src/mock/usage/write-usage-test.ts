import type { Basis, UsageBinding, UsageInteraction, UsageTest } from "../../contract/usage/usage-document.ts";
import { escapeToken } from "../../spec/json-pointer.ts";
import type { AnswerBasis } from "./answer-basis.ts";
import { collectionOfPath, type OpenTest, type RecordCollection } from "./recorded-test.ts";

/** Ids of one answer indexed for the bindings of later requests, at most this many per test. */
const MAX_INDEXED_IDS = 20_000;
const utf8 = new TextDecoder();
/** Operations whose answer gives the id of a record they made: an id from their answer is the test's own record. */
const MAKES = new Set(["createProperty", "createAgentCard", "createDocument"]);

/** What writing a test needs of the recorder. */
export interface WriteTestDeps {
  basis: AnswerBasis;
  /** The path template of an operation. */
  pathOf: (operationId: string) => string | undefined;
  /** `JSON.stringify`'s replacer that keeps credentials, auto-login tokens and the clock out. */
  replacer: (key: string, value: unknown) => unknown;
  /**
   * Answers already written, by shape and text: a suite reads the same record again and again, and an answer
   * written once is not parsed, walked and encoded again. The recorder empties it when what the replacer keeps
   * out changes.
   */
  pieces: Map<string, AnswerPiece>;
}

/** One answer as written: its response and basis as JSON text, and the ids it gives later requests. */
export interface AnswerPiece {
  response: string;
  basis: string;
  ids: Array<[string, string]>;
  externals: Array<[string, string]>;
  /** The nid of a document it made. */
  made?: string;
}

/** Answers longer than this are written afresh each time rather than kept. */
const MAX_PIECE_TEXT = 64 * 1024;
const MAX_PIECES = 256;

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
    if (answered) {
      // An id the client read from an answer that did not make it (a list, a retrieve) names a record of the start
      // state all the same: it is kept, so that a replay or a provider state can make it as the mock held it.
      if (
        collection &&
        test.records.has(`${collection}/${value}`) &&
        !MAKES.has(test.calls[answered.interaction]!.operation)
      )
        used.add(`${collection}/${value}`);
      return { at, from: "answer", ...answered };
    }
    if (collection && test.records.has(`${collection}/${value}`)) {
      used.add(`${collection}/${value}`);
      return { at, from: "start-record", collection, id: value };
    }
    return undefined;
  };

  const interactions: string[] = [];
  test.calls.forEach((call, index) => {
    const bindings: UsageBinding[] = [];
    const collection = collectionOfPath(deps.pathOf(call.operation) ?? "");
    for (const name of Object.keys(call.params).sort()) {
      const value = call.params[name]!;
      const at = `/params/${escapeToken(name)}`;
      let binding: UsageBinding | undefined;
      if (name === "uid") {
        const role = uidRoles.get(value);
        binding = role
          ? { at, from: "account-uid", account: role }
          : fromAnswers.has(value)
            ? { at, from: "answer", ...fromAnswers.get(value)! }
            : undefined;
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
    const reference =
      requestBody !== null && typeof requestBody === "object"
        ? (requestBody as Record<string, unknown>).property_reference
        : undefined;
    if (typeof reference === "number" || typeof reference === "string") {
      const binding = bindOne("/body/property_reference", String(reference), "properties");
      if (binding) bindings.push(binding);
    }
    const piece = answerPiece(call, deps);
    const request: UsageInteraction["request"] = {
      method: call.method,
      path: call.path,
      params: call.params,
      headers: Object.fromEntries(call.headers),
      account: call.account,
      ...(call.credentials ? { credentials: call.credentials } : {}),
      ...(requestBody === undefined ? {} : { body: requestBody }),
    };
    // Members in the order of UsageInteraction, the answer's parts as written once (answerPiece).
    interactions.push(
      `{"operation":${JSON.stringify(call.operation)},"request":${JSON.stringify(request, deps.replacer)},` +
        `"response":${piece.response},"bindings":${JSON.stringify(bindings)},"basis":${piece.basis}}`,
    );
    for (const [value, pointer] of piece.ids)
      if (!fromAnswers.has(value)) fromAnswers.set(value, { interaction: index, pointer });
    for (const [value, pointer] of piece.externals)
      if (!externalFromAnswers.has(value)) externalFromAnswers.set(value, { interaction: index, pointer });
    if (piece.made !== undefined) made.add(piece.made);
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
  const head: Omit<UsageTest, "interactions" | "truncated"> = { name: test.name, start: test.start, records };
  const text = JSON.stringify(head, deps.replacer);
  return `${text.slice(0, -1)},"interactions":[${interactions.join(",")}]${test.truncated ? ',"truncated":true' : ""}}`;
}

/** An answer's response and basis as written, and the ids it gives: from the kept pieces when written before. */
function answerPiece(call: OpenTest["calls"][number], deps: WriteTestDeps): AnswerPiece {
  const text =
    call.answer === undefined ? undefined : typeof call.answer === "string" ? call.answer : utf8.decode(call.answer);
  const key =
    text !== undefined && text.length <= MAX_PIECE_TEXT
      ? `${call.operation} ${call.status} ${call.mediaType} ${call.errorPoint ?? ""} ` +
        `${call.profiledMedia ? 1 : 0}\n${text}`
      : undefined;
  const kept = key === undefined ? undefined : deps.pieces.get(key);
  if (kept) return kept;
  const body = text === undefined ? null : (JSON.parse(text) as unknown);
  const basis = deps.basis.of(
    {
      operationId: call.operation,
      status: call.status,
      mediaType: call.mediaType,
      ...(call.errorPoint ? { errorPoint: call.errorPoint } : {}),
      ...(call.profiledMedia ? { profiledMedia: true } : {}),
    },
    body,
  ) ?? { status: FACT, mediaType: FACT, fields: {} };
  const ids = new Map<string, { interaction: number; pointer: string }>();
  const externals = new Map<string, { interaction: number; pointer: string }>();
  if (call.status === 200) indexIds(body, "", 0, ids, externals, 0);
  const made =
    call.status === 200 &&
    call.operation === "createDocument" &&
    body !== null &&
    typeof body === "object" &&
    "nid" in body
      ? String(body.nid)
      : undefined;
  const piece: AnswerPiece = {
    response: JSON.stringify({ status: call.status, mediaType: call.mediaType, body }, deps.replacer),
    basis: JSON.stringify(basis),
    ids: [...ids].map(([value, at]) => [value, at.pointer]),
    externals: [...externals].map(([value, at]) => [value, at.pointer]),
    ...(made !== undefined ? { made } : {}),
  };
  if (key !== undefined) {
    if (deps.pieces.size >= MAX_PIECES) deps.pieces.clear();
    deps.pieces.set(key, piece);
  }
  return piece;
}

const FACT: Basis = { tier: "fact" };

/** Ids an answer gives (every `nid`, at any depth; every `external_id`), first place first. */
function indexIds(
  value: unknown,
  pointer: string,
  interaction: number,
  ids: Map<string, { interaction: number; pointer: string }>,
  externals: Map<string, { interaction: number; pointer: string }>,
  depth: number,
): void {
  if (value === null || typeof value !== "object" || depth > 4 || ids.size >= MAX_INDEXED_IDS) return;
  const entries = Array.isArray(value) ? value.map((item, at) => [String(at), item] as const) : Object.entries(value);
  for (const [key, child] of entries) {
    const at = `${pointer}/${escapeToken(key)}`;
    if (key === "nid" && (typeof child === "string" || typeof child === "number") && !ids.has(String(child)))
      ids.set(String(child), { interaction, pointer: at });
    else if (key === "external_id" && typeof child === "string" && child !== "" && !externals.has(child))
      externals.set(child, { interaction, pointer: at });
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
  return Object.fromEntries(
    Object.keys(record)
      .sort()
      .map((key) => [key, record[key]]),
  );
}
