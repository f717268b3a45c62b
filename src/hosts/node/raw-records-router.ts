import type { IncomingMessage, ServerResponse } from "node:http";
import type { ErrorRequestHandler, Request, Response } from "express";
import type { JsonServerRouter } from "json-server";
import type { Failure, Outcome } from "../../mock/problems.ts";
import type { RawRecordService } from "../../mock/services/raw-records.ts";
import type { MockStore } from "../../mock/store/mock-store.ts";
import { COLLECTIONS, type CollectionName, type Database, type StoredRecord } from "../../mock/store/records.ts";
import { okReply, problemReply } from "../../mock/http/reply.ts";
import { send } from "./send-reply.ts";
import { whenSaved, type Durability } from "../../mock/http/when-saved.ts";
import { clip } from "../../mock/clip.ts";
import type { RequestAnswerer } from "../../mock/http/answer-requests.ts";

/** Collaborators of {@link createRawRecordsRouter}. */
export interface RawRecordsRouterDeps {
  store: MockStore;
  raw: RawRecordService;
  /** With `--db`: a raw write is answered once it is on disk. */
  durability?: Durability;
  /** Told of an unexpected error (a bug). */
  log?: (line: string) => void;
  /** A bug met in json-server's router: reported, and the core's 500 (answer-requests.ts). */
  internalError: RequestAnswerer["internalError"];
}

/** What the route (raw-records-route.ts) made of a request before json-server sees it. */
export interface RawRequest {
  /** The path problems name as their `instance`. */
  instance: string;
  /** Whether the request may write (POST, PUT, PATCH, DELETE): its answer then waits for the sync. */
  writes: boolean;
  /** The state's version before the request, with `--db`. */
  before: number | undefined;
}

/** Hands a request, already checked and with `req.query` and `req.body` set, to json-server's router. */
export type RawRecordsRouter = (request: IncomingMessage, response: ServerResponse, context: RawRequest) => void;

type Doc = Record<string, unknown>;

/**
 * json-server 0.17's own router (`jsonServer.router`) serving `/__db` over the store's records: its in-memory
 * lowdb holds the very arrays the services read (no copy, no second store), and the lowdb operations its routes
 * call are the store's, mixed into lowdb's lodash over lodash-id's: `getById` reads the store's index, and
 * `insert`, `replaceById`, `updateById`, `removeById` go through {@link RawRecordService}, so that every raw write
 * is checked against its stored shape, indexed, heard by the services' caches and journaled like any other
 * change. A refused write leaves its failure for `render`, json-server's hook for the answer, which sends it as a
 * problem; a write's answer waits there until the change is on disk. json-server's dependents removal
 * (`getRemovable`, a scan of the whole state) becomes the property's documents, from the index.
 *
 * json-server and Express are loaded here, by the first raw request: a start and the API never load them.
 */
export async function createRawRecordsRouter(deps: RawRecordsRouterDeps): Promise<RawRecordsRouter> {
  const { default: jsonServer } = await import("json-server");
  const { store, raw } = deps;
  const log = deps.log ?? console.error;

  // The collections themselves, in an object of their own: a fixtures file's other keys are not routes.
  let view = collectionsOf(store);
  const router: JsonServerRouter<Database> = jsonServer.router(view, { foreignKeySuffix: "_reference" });
  const db = router.db;
  const sync = () => {
    const now = collectionsOf(store);
    if (COLLECTIONS.some((name) => view[name] !== now[name])) db.setState((view = now)); // after a reset
  };
  const nameOf = (collection: unknown): CollectionName | undefined =>
    COLLECTIONS.find((name) => view[name] === collection);

  const contexts = new WeakMap<object, RawRequest>();
  /** A refused write's failure, by the body json-server handed to the operation (`req.body`). */
  const refused = new WeakMap<object, Failure>();
  /** The record the last `removeById` removed, whose dependents json-server's `getRemovable` asks for next. */
  let removed: { collection: CollectionName; id: number } | undefined;

  const getById = (db._ as unknown as { getById: (collection: unknown, id: unknown) => unknown }).getById;
  /** The collection json-server's router writes to; any other array is a bug of this file, never written unchecked. */
  const collectionOf = (collection: unknown): CollectionName => {
    const name = nameOf(collection);
    if (!name) throw new Error("json-server's router wrote to an array that is not a collection of the store");
    return name;
  };
  /** A replace's or patch's record; a refusal is kept for `render` (a missing record is json-server's own 404). */
  const changed = (outcome: Outcome<StoredRecord>, attrs: Doc): StoredRecord | undefined => {
    if (outcome.ok) return outcome.value;
    if (outcome.failure.problem !== "notFound") refused.set(attrs, outcome.failure);
    return undefined;
  };
  db._.mixin({
    getById: (collection: unknown, id: unknown) => {
      const name = nameOf(collection);
      return name ? raw.find(name, id) : getById.call(db._, collection, id);
    },
    insert: (collection: unknown, doc: Doc) => {
      const name = collectionOf(collection);
      const created = raw.create(name, doc);
      if (created.ok) return created.value;
      refused.set(doc, created.failure);
      return doc;
    },
    replaceById: (collection: unknown, id: unknown, attrs: Doc) =>
      changed(raw.replace(collectionOf(collection), id, attrs), attrs),
    updateById: (collection: unknown, id: unknown, attrs: Doc) =>
      changed(raw.patch(collectionOf(collection), id, attrs), attrs),
    removeById: (collection: unknown, id: unknown) => {
      const name = collectionOf(collection);
      const gone = raw.remove(name, id);
      removed = gone.ok ? { collection: name, id: gone.value.id } : undefined;
      return gone.ok ? gone.value : undefined;
    },
    getRemovable: () => {
      const from = removed;
      removed = undefined;
      return from
        ? raw.dependentsOf(from.collection, from.id).map(({ collection, id }) => ({ name: collection, id }))
        : [];
    },
  });

  router.render = (request: Request, response: Response) => {
    const context = contexts.get(request)!;
    // json-server's answers carry CORS headers; the admin routes send none.
    response.removeHeader("Access-Control-Expose-Headers");
    const failed = refused.get(request.body as object);
    if (failed) {
      response.removeHeader("Location");
      send(response, problemReply(failed, context.instance));
      return;
    }
    if (response.statusCode === 404) {
      send(
        response,
        problemReply(
          {
            problem: "notFound",
            detail:
              `No record at ${clip(context.instance, 100)}: ` +
              "ids are positive whole numbers in plain decimal, up to 9007199254740991.",
          },
          context.instance,
        ),
      );
      return;
    }
    const data: unknown = response.locals.data;
    if (!context.writes || response.statusCode >= 300) {
      response.json(data);
      return;
    }
    void whenSaved(deps.durability, context.before, okReply(data), context.instance).then(({ reply, saved }) => {
      if (saved) response.json(data);
      else {
        response.removeHeader("Location");
        send(response, reply);
      }
    });
  };

  const failed: ErrorRequestHandler = (error: unknown, request, response, _next) => {
    const { reply } = deps.internalError(
      { method: request.method, url: request.originalUrl },
      contexts.get(request)?.instance ?? "/__db",
      error,
    );
    if (response.headersSent) response.destroy();
    else send(response, reply);
  };
  // json-server's own error handler answers 500 with the stack trace: ours logs it and answers a problem.
  for (const layer of (router as unknown as { stack: Array<{ handle: { length: number } }> }).stack) {
    if (layer.handle.length === 4) layer.handle = failed;
  }

  const app = jsonServer.create();
  app.disable("x-powered-by");
  app.set("json spaces", 0); // compact, like every other answer of the mock (json-server's own server indents)
  app.set("etag", false); // no hash of every answer: `/__db/db` is the whole state, hashed for nothing
  app.set("query parser", false); // the route sets req.query itself
  app.use("/__db", router);
  app.use(failed);
  // An Express application is a plain listener at heart; Express gives request and response its own
  // prototypes when it takes them.
  const listener = app as unknown as (
    request: IncomingMessage,
    response: ServerResponse,
    done: (error?: unknown) => void,
  ) => void;
  return (request, response, context) => {
    sync();
    contexts.set(request, context);
    listener(request, response, (error) => {
      if (error) log(`Internal error on ${request.method} ${request.url}: ${(error as Error).stack ?? String(error)}`);
      if (!response.headersSent)
        send(
          response,
          problemReply(
            { problem: "notFound", detail: `Nothing at ${request.method} ${clip(context.instance, 100)}.` },
            context.instance,
          ),
        );
    });
  };
}

/** The store's collections themselves (the arrays, not copies), in an object of their own. */
function collectionsOf(store: MockStore): Database {
  return Object.fromEntries(COLLECTIONS.map((name) => [name, store.records(name)])) as unknown as Database;
}
