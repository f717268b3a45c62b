import type { IncomingMessage, ServerResponse } from "node:http";
import { mediaTypeOf } from "../../contract/build-contract.ts";
import type { Failure } from "../../mock/problems.ts";
import { collectionNamed, type RawRecordService } from "../../mock/services/raw-records.ts";
import type { MockStore } from "../../mock/store/mock-store.ts";
import { COLLECTIONS, type CollectionName } from "../../mock/store/records.ts";
import { decodeSegment } from "../../mock/http/decode-segment.ts";
import { parseJson } from "../../mock/http/read-body.ts";
import { readNodeBody as readBody } from "./node-request.ts";
import { rawQuery, type RawQuery } from "../../mock/http/raw-records-query.ts";
import { createRawRecordsRouter, type RawRecordsRouter, type RawRequest } from "./raw-records-router.ts";
import { problemReply, type Reply } from "../../mock/http/reply.ts";
import type { Durability } from "../../mock/http/when-saved.ts";
import { clip } from "../../mock/clip.ts";
import type { RequestAnswerer } from "../../mock/http/answer-requests.ts";

/** Collaborators of {@link createRawRecordsRoute}. */
export interface RawRecordsRouteDeps {
  store: MockStore;
  raw: RawRecordService;
  /** Largest request body accepted, in bytes. */
  bodyLimit: number;
  /** With `--db`: a raw write is answered once it is on disk. */
  durability?: Durability;
  /** Told of an unexpected error met in json-server's router (a bug). */
  log?: (line: string) => void;
  /** A bug met in json-server's router: reported, and the core's 500 (answer-requests.ts). */
  internalError: RequestAnswerer["internalError"];
}

/**
 * Answers one request under `/__db` (the admin guard has admitted it): the reply to send when json-server is not
 * to see it, else undefined once json-server has it (it writes its answer itself); a bug rejects.
 */
export type RawRecordsRoute = (
  request: IncomingMessage,
  response: ServerResponse,
  path: string,
  /** The target's query (after the `?`), split from the path where the request entered. */
  search: string,
) => Promise<Reply | undefined>;

/**
 * Nested routes json-server 0.17 has (`/__db/<parent>/<id>/<children>`), where our records relate: a property's
 * documents by `property_reference` (json-server's own naming, with `_reference` for its `Id`), and an account's
 * records by their owner `uid`, which json-server's naming cannot express and this route spells out.
 */
const NESTED: Partial<Record<CollectionName, Partial<Record<CollectionName, string>>>> = {
  properties: { documents: "property_reference" },
  accounts: { properties: "uid", agents: "uid", documents: "uid" },
};
const CANONICAL_ID = /^[1-9][0-9]*$/;
const PLACES =
  "Raw records live at /__db/<collection> and /__db/<collection>/<id> " +
  "(the collections are accounts, properties, agents and documents), " +
  "a property's documents at /__db/properties/<id>/documents, " +
  "an account's records at /__db/accounts/<uid>/<collection>, and the whole state at /__db/db.";

/**
 * The raw records under `/__db`, served by json-server 0.17's own router (raw-records-router.ts, loaded with
 * json-server on the first request). Before json-server sees a request, this route answers what json-server
 * would answer badly or not at all: a path that is no route (404 problem) or a method a route lacks (405 with
 * `Allow`), a body that is not a JSON object within the body limit (413, 415, 400), a query that would cost
 * unbounded work or build a regular expression from input (raw-records-query.ts). It reads the body itself and
 * hands json-server the parsed value (`req.body`) and the query (`req.query`), so that what is checked is what
 * json-server acts on. Nested routes are turned into the list or create they stand for.
 */
export function createRawRecordsRoute(deps: RawRecordsRouteDeps): RawRecordsRoute {
  let loading: Promise<RawRecordsRouter> | undefined;
  const router = () =>
    (loading ??= createRawRecordsRouter(deps).catch((error: unknown) => {
      loading = undefined; // tried again by the next request
      throw error;
    }));

  return async (request, response, path, search) => {
    const prepared = await prepare(request, path, search, deps);
    // undefined: the client left before its body was read
    if (prepared === undefined || "status" in prepared) return prepared;
    const handle = await router();
    handle(request, response, { ...prepared, before: deps.durability?.version() });
    return undefined;
  };
}

/** The request made ready for json-server, or the answer it gets instead. */
async function prepare(
  request: IncomingMessage,
  path: string,
  search: string,
  deps: RawRecordsRouteDeps,
): Promise<Reply | Omit<RawRequest, "before"> | undefined> {
  const method = request.method === "HEAD" ? "GET" : (request.method ?? "GET");
  const rest = path.slice("/__db".length).replace(/^\//, "");
  const segments = rest === "" ? [] : rest.split("/").map(decodeSegment);
  const refuse = (failed: Failure, headers?: Record<string, string>): Reply => {
    discardBody(request);
    return problemReply(failed, path, headers);
  };
  const notAllowed = (allowed: string) =>
    refuse(
      {
        problem: "methodNotAllowed",
        detail: `${request.method} is not a method of ${clip(path, 100)}; it allows ${allowed}.`,
      },
      { Allow: allowed },
    );
  if (
    segments.length === 0 ||
    segments.length > 3 ||
    segments.some((segment) => segment === undefined || segment === "")
  ) {
    return refuse({ problem: "notFound", detail: PLACES });
  }
  const [first, id, nested] = segments as string[];
  if (first === "db" && segments.length === 1) {
    if (method !== "GET") return notAllowed("GET, HEAD");
    return handOver(request, { query: emptyQuery(), body: {} }, path, false);
  }
  const collection = collectionNamed(first!);
  if (!collection)
    return refuse({
      problem: "notFound",
      detail: `No collection ${clip(first!, 100)} under /__db; there are ${COLLECTIONS.join(", ")}. ${PLACES}`,
    });
  const size = (name: CollectionName) => deps.store.records(name).length;

  if (nested !== undefined) {
    const children = collectionNamed(nested);
    const field = children && NESTED[collection]?.[children];
    if (!children || !field)
      return refuse({
        problem: "notFound",
        detail: `${clip(nested, 100)} are not records of ${collection}. ${PLACES}`,
      });
    if (method === "GET") {
      const query = rawQuery(search, { collection: children, list: true, size });
      if (!query.ok) return refuse(query.failure);
      query.value[field] = id!;
      const before = search === "" ? "" : `${search}&`;
      request.url = `/__db/${children}?${before}${encodeURIComponent(field)}=${encodeURIComponent(id!)}`;
      return handOver(request, { query: query.value, body: {} }, path, false);
    }
    if (method !== "POST") return notAllowed("GET, HEAD, POST");
    const body = await readRecord(request, deps.bodyLimit, path);
    if (body === undefined || "status" in body) return body;
    body.record[field] = CANONICAL_ID.test(id!) && Number.isSafeInteger(Number(id)) ? Number(id) : id;
    const query = writeQuery(search, children, size);
    if (!query.ok) return problemReply(query.failure, path);
    request.url = `/__db/${children}${search === "" ? "" : `?${search}`}`;
    return handOver(request, { query: query.value, body: body.record }, path, true);
  }

  if (id === undefined) {
    if (method === "GET") {
      const query = rawQuery(search, { collection, list: true, size });
      return query.ok ? handOver(request, { query: query.value, body: {} }, path, false) : refuse(query.failure);
    }
    if (method !== "POST") return notAllowed("GET, HEAD, POST");
  } else if (method === "GET") {
    const query = rawQuery(search, { collection, list: false, size });
    return query.ok ? handOver(request, { query: query.value, body: {} }, path, false) : refuse(query.failure);
  } else if (method === "DELETE") {
    const query = writeQuery(search, collection, size);
    if (!query.ok) return refuse(query.failure);
    discardBody(request);
    return handOver(request, { query: query.value, body: {} }, path, true);
  } else if (method !== "PUT" && method !== "PATCH") {
    return notAllowed("GET, HEAD, PUT, PATCH, DELETE");
  }
  const query = writeQuery(search, collection, size);
  if (!query.ok) return refuse(query.failure);
  const body = await readRecord(request, deps.bodyLimit, path);
  if (body === undefined || "status" in body) return body;
  return handOver(request, { query: query.value, body: body.record }, path, true);
}

/**
 * Sets what json-server's router reads (`req.query`, `req.body`, and `_body`, which tells its body parser the body
 * is read).
 */
function handOver(
  request: IncomingMessage,
  parsed: { query: RawQuery; body: object },
  path: string,
  writes: boolean,
): Omit<RawRequest, "before"> {
  if (!writes) discardBody(request);
  // method-override would turn a POST into the method this header names, past the checks made for a POST.
  delete request.headers["x-http-method-override"];
  Object.assign(request, { query: parsed.query, body: parsed.body, _body: true });
  return { instance: path, writes };
}

/** A write's query: json-server reads only `_delay` there (bounded like any other delay). */
function writeQuery(
  search: string,
  collection: CollectionName,
  size: (name: CollectionName) => number,
): ReturnType<typeof rawQuery> {
  const delay = new URLSearchParams(search).get("_delay");
  return rawQuery(delay === null ? "" : new URLSearchParams({ _delay: delay }).toString(), {
    collection,
    list: false,
    size,
  });
}

function emptyQuery(): RawQuery {
  return Object.create(null) as RawQuery;
}

/**
 * Reads a raw write's body: a JSON object within the limit (the admin guard has already refused any other media
 * type).
 */
async function readRecord(
  request: IncomingMessage,
  limit: number,
  path: string,
): Promise<{ record: Record<string, unknown> } | Reply | undefined> {
  const media = mediaTypeOf(request.headers["content-type"]);
  const read = await readBody(request, limit);
  if (read.kind === "aborted") return undefined;
  if (read.kind === "too-large")
    return problemReply({ problem: "payloadTooLarge", detail: `The request body exceeds ${limit} bytes.` }, path, {
      Connection: "close",
    });
  if (read.kind === "bytes" && media !== "application/json") {
    return problemReply(
      {
        problem: "unsupportedMediaType",
        detail: `Raw records are sent as application/json, not ${media ?? "without a content-type"}.`,
      },
      path,
    );
  }
  const parsed = read.kind === "empty" ? { ok: true as const, value: undefined } : parseJson(read.bytes);
  if (!parsed.ok)
    return problemReply(
      {
        problem: parsed.tooDeep ? "invalidRequest" : "malformedJson",
        detail: parsed.reason,
        errors: [{ in: "body", pointer: "", detail: parsed.reason }],
      },
      path,
    );
  const value = parsed.value;
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    return problemReply(
      {
        problem: "invalidRequest",
        detail: "A raw record is a JSON object.",
        errors: [{ in: "body", pointer: "", detail: "must be an object" }],
      },
      path,
    );
  }
  return { record: value as Record<string, unknown> };
}

/** Discards a body json-server is not given, without buffering it. */
function discardBody(request: IncomingMessage): void {
  request.resume();
}
