import type { IncomingMessage, ServerResponse } from "node:http";
import type { ErrorRequestHandler } from "express";
import jsonServer, { type JsonServerRouter } from "json-server";
import type { MockStore } from "../store/mock-store.ts";
import type { Database } from "../store/records.ts";
import { problemReply, send } from "./reply.ts";

/**
 * The Express application behind `/__db`: json-server's body parser and REST router over the same records the
 * API serves. Before the router, a POST without an `id` gets the next one from the store's shared sequence;
 * after a successful raw write the store reindexes, since the arrays changed behind its back.
 * Body-parser failures answer 400/413 problems; anything else is a bug, logged and answered 500.
 */
export function createRawRecordsApp(
  store: MockStore,
  router: JsonServerRouter<Database>,
  log: ((line: string) => void) | undefined,
): (request: IncomingMessage, response: ServerResponse) => void {
  const app = jsonServer.create();
  app.disable("x-powered-by");
  app.use("/__db", ...jsonServer.bodyParser, (request, response, next) => {
    if (request.method === "POST" && isPlainObject(request.body) && request.body.id === undefined) {
      const collection = request.path.split("/")[1];
      request.body.id = collection === "accounts" ? store.nextUid() : store.nextId();
    }
    if (request.method !== "GET" && request.method !== "HEAD") {
      response.on("finish", () => {
        if (response.statusCode < 400) store.refresh();
      });
    }
    next();
  }, router);
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

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
