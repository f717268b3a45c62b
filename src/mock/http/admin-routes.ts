import type { IncomingMessage, ServerResponse } from "node:http";
import type { JsonServerRouter } from "json-server";
import type { MockStore } from "../store/mock-store.ts";
import type { Database } from "../store/records.ts";
import type { AdminGuard } from "./admin-guard.ts";
import { discardBody } from "./read-body.ts";
import { createRawRecordsApp } from "./raw-records-app.ts";
import { okReply, problemReply, send } from "./reply.ts";
import { whenSaved, type Durability } from "./when-saved.ts";

/** Collaborators of the admin routes. */
export interface AdminRoutesDeps {
  store: MockStore;
  router: JsonServerRouter<Database>;
  /** Runs first for every admin request; a failure it returns is the answer. */
  guard: AdminGuard;
  /** Told of an unexpected error (a bug) on a raw route. */
  log?: (line: string) => void;
  /** With `--db`: a reset or raw write is answered once it is on disk. */
  durability?: Durability;
}

/** Answers one request whose path starts with `/__admin` or `/__db`. */
export type AdminRoutes = (request: IncomingMessage, response: ServerResponse, path: string) => void;

/** Whether a path belongs to the admin surface, which {@link createAdminRoutes} answers behind its guard. */
export function isAdminPath(path: string): boolean {
  return path.startsWith("/__admin") || path.startsWith("/__db");
}

/**
 * Routes for tests and people, not part of the service: json-server's own REST router over the raw records
 * under `/__db` (for example `GET /__db/properties?uid=1`, `POST /__db/agents`), and `POST /__admin/reset`.
 * A raw write skips every rule of the service; the store reindexes after it and hears which records it
 * touched, so that with `--db` the write is journalled and answered once on disk, like a reset or any
 * change through the API. Records added without an `id`
 * get the next nid (or uid, for accounts), since all kinds share one sequence.
 *
 * The single entry point of the admin surface: every request under `/__admin` or `/__db` passes `deps.guard`
 * before any handler runs.
 */
export function createAdminRoutes(deps: AdminRoutesDeps): AdminRoutes {
  const { store } = deps;
  // json-server's router is an Express router: it earns its place for the raw routes, and only there, so its
  // application is built on the first raw request rather than on every start.
  let rawRecords: ReturnType<typeof createRawRecordsApp> | undefined;

  return (request, response, path) => {
    const refused = deps.guard(request, path);
    if (refused) {
      discardBody(request);
      send(response, problemReply(refused, path));
      return;
    }
    if (path === "/__db" || path.startsWith("/__db/")) {
      rawRecords ??= createRawRecordsApp(store, deps.router, deps.log, deps.durability);
      rawRecords(request, response);
      return;
    }
    if (path === "/__admin/reset" && request.method === "POST") {
      discardBody(request);
      const before = deps.durability?.version();
      store.reset();
      void whenSaved(deps.durability, before, okReply({ status: "reset", counts: store.counts() }), path).then(({ reply }) => send(response, reply));
      return;
    }
    discardBody(request);
    send(response, problemReply({ problem: "notFound", detail: `Nothing at ${request.method} ${path}. The API lives under /api/v1/object/.` }, path));
  };
}
