import express, { type Router } from "express";
import jsonServer, { type JsonServerRouter } from "json-server";
import type { MockStore } from "../store/mock-store.ts";
import type { Database } from "../store/records.ts";
import { okReply, send } from "./reply.ts";

/**
 * Routes for tests and people, not part of the service: json-server's own REST router over the raw records
 * under `/__db` (for example `GET /__db/properties?uid=1`, `POST /__db/agents`), and `POST /__admin/reset`.
 * A raw write skips every rule of the service; the store reindexes after it. Records added without an `id`
 * get the next nid (or uid, for accounts), since all kinds share one sequence.
 */
export function createAdminRoutes(store: MockStore, router: JsonServerRouter<Database>): Router {
  const routes = express.Router();

  routes.post("/__admin/reset", (_request, response) => {
    store.reset();
    send(response, okReply({ status: "reset", counts: store.counts() }));
  });

  routes.use("/__db", ...jsonServer.bodyParser, (request, response, next) => {
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

  return routes;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
