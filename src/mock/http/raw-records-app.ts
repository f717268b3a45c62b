import type { IncomingMessage, ServerResponse } from "node:http";
import type { ErrorRequestHandler } from "express";
import jsonServer, { type JsonServerRouter } from "json-server";
import type { MockStore } from "../store/mock-store.ts";
import { COLLECTIONS, type CollectionName, type Database } from "../store/records.ts";
import { okReply, problemReply, send } from "./reply.ts";
import { whenSaved, type Durability } from "./when-saved.ts";

/**
 * The Express application behind `/__db`: json-server's body parser and REST router over the same records the
 * API serves. Before the router, a POST without an `id` gets the next one from the store's shared sequence;
 * after a successful raw write, and before it is answered, the store reindexes (the arrays changed behind its
 * back) and hears which records changed; with `--db` the answer waits until they are on disk.
 * Body-parser failures answer 400/413 problems; anything else is a bug, logged and answered 500.
 */
export function createRawRecordsApp(
  store: MockStore,
  router: JsonServerRouter<Database>,
  log: ((line: string) => void) | undefined,
  durability?: Durability,
): (request: IncomingMessage, response: ServerResponse) => void {
  /** Ids per collection before a raw delete: json-server also removes the records that referred to the deleted one. */
  const idsBefore = new WeakMap<object, Map<CollectionName, Set<number>>>();
  const app = jsonServer.create();
  app.disable("x-powered-by");
  app.use("/__db", ...jsonServer.bodyParser, (request, response, next) => {
    if (request.method === "POST" && isPlainObject(request.body) && request.body.id === undefined) {
      const collection = request.path.split("/")[1];
      request.body.id = collection === "accounts" ? store.nextUid() : store.nextId();
    }
    if (request.method === "DELETE") {
      idsBefore.set(request, new Map(COLLECTIONS.map((name) => [name, new Set(store.state[name].map((record) => record.id))])));
    }
    next();
  }, router);
  // json-server's router hands every answer to `render`: the place to note a write, and to wait for it, before answering.
  router.render = (request, response) => {
    const data: unknown = response.locals.data;
    if (request.method === "GET" || request.method === "HEAD" || response.statusCode >= 400) {
      response.jsonp(data);
      return;
    }
    const before = durability?.version();
    store.refresh(touchedBy(request.path, data, idsBefore.get(request), store.state));
    void whenSaved(durability, before, okReply(data), request.originalUrl.split("?", 1)[0]!).then(({ reply, saved }) => {
      if (saved) response.jsonp(data);
      else send(response, reply);
    });
  };
  app.use(errorHandler(log));
  // An Express application is a plain listener at heart; Express gives request and response its own
  // prototypes when it takes them.
  const listener = app as unknown as (request: IncomingMessage, response: ServerResponse, done: () => void) => void;
  return (request, response) =>
    listener(request, response, () => {
      // Nothing in json-server's router let the request through (it answers 404 itself); kept for safety.
      const path = (request.url ?? "/").split("?", 1)[0]!;
      send(response, problemReply({ problem: "notFound", detail: `Nothing at ${request.method} ${path}.` }, path));
    });
}

/** Turns body-parser failures of the raw routes into 400/413 problems, and anything else into a 500 (a bug). */
function errorHandler(log: ((line: string) => void) | undefined): ErrorRequestHandler {
  return (error: unknown, request, response, _next) => {
    const type = (error as { type?: string }).type;
    if (type === "entity.parse.failed") {
      send(response, problemReply({ problem: "malformedJson", detail: `The body is not valid JSON: ${(error as Error).message}` }, request.path));
      return;
    }
    if (type === "entity.too.large") {
      send(response, problemReply({ problem: "payloadTooLarge", detail: "The request body is too large." }, request.path));
      return;
    }
    (log ?? console.error)(`Internal error on ${request.method} ${request.originalUrl}: ${(error as Error).stack ?? String(error)}`);
    if (response.headersSent) return;
    send(response, problemReply({ problem: "internalError", detail: "The mock failed on this request; this is a bug of the mock." }, request.path));
  };
}

/** The records a raw write may have changed: the one its path or answer names, and any a delete removed with it. */
function touchedBy(
  path: string,
  data: unknown,
  before: Map<CollectionName, Set<number>> | undefined,
  state: Database,
): Array<{ collection: CollectionName; id: number }> {
  const [name, idText] = path.split("/").filter(Boolean);
  const touched: Array<{ collection: CollectionName; id: number }> = [];
  if ((COLLECTIONS as readonly string[]).includes(name ?? "")) {
    for (const id of [Number(idText), Number((data as { id?: unknown } | null)?.id)]) {
      if (Number.isSafeInteger(id)) touched.push({ collection: name as CollectionName, id });
    }
  }
  for (const [collection, ids] of before ?? []) {
    const now = new Set(state[collection].map((record) => record.id));
    for (const id of ids) if (!now.has(id)) touched.push({ collection, id });
  }
  return touched;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
