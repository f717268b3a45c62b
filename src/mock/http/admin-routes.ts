import type { IncomingMessage, ServerResponse } from "node:http";
import type { RawRecordService } from "../services/raw-records.ts";
import type { MockStore } from "../store/mock-store.ts";
import type { AdminGuard } from "./admin-guard.ts";
import { discardBody } from "./read-body.ts";
import { createRawRecordsRoute } from "./raw-records-route.ts";
import { okReply, problemReply, send } from "./reply.ts";
import { whenSaved, type Durability } from "./when-saved.ts";
import type { SteeringRoutes } from "./steering-routes.ts";
import { createStateRoute, type StateControl } from "./state-route.ts";

/** Collaborators of the admin routes. */
export interface AdminRoutesDeps {
  store: MockStore;
  raw: RawRecordService;
  /** Largest request body accepted, in bytes. */
  bodyLimit: number;
  /** Runs first for every admin request; a failure it returns is the answer. */
  guard: AdminGuard;
  /** `/__admin/requests` (the request journal) and `/__admin/faults` (fault rules). */
  steering: SteeringRoutes;
  /** What `POST /__admin/reset` does: the seeded state back, no fault rules, an empty journal. */
  reset: () => void;
  /** `/__admin/state`: a reset to a named or given state. */
  states: StateControl;
  /** Told of an unexpected error (a bug) on a raw route. */
  log?: (line: string) => void;
  /** With `--db`: a reset or raw write is answered once it is on disk. */
  durability?: Durability;
}

const FAULT_PREFIX = "/__admin/faults/";

/** Answers one request whose path starts with `/__admin` or `/__db`. */
export type AdminRoutes = (request: IncomingMessage, response: ServerResponse, path: string) => void;

/** Whether a path belongs to the admin surface, which {@link createAdminRoutes} answers behind its guard. */
export function isAdminPath(path: string): boolean {
  return path.startsWith("/__admin") || path.startsWith("/__db");
}

/**
 * Routes for tests and people, not part of the service: the raw records under `/__db` (json-server 0.17's router
 * over the store's records, for example `GET /__db/properties?uid=1`, `POST /__db/agents`; raw-records-route.ts),
 * `POST /__admin/reset`, `/__admin/state` (a reset to a named or given state, state-route.ts), and the request journal and fault rules of issue 12 (`/__admin/requests`,
 * `/__admin/faults`, in steering-routes.ts). A raw write skips every rule of the service but goes through the
 * store, so that with `--db` it is journalled and answered once on disk, like a reset or any change through the API.
 *
 * The single entry point of the admin surface: every request under `/__admin` or `/__db` passes `deps.guard`
 * before any handler runs.
 */
export function createAdminRoutes(deps: AdminRoutesDeps): AdminRoutes {
  const { store } = deps;
  const rawRecords = createRawRecordsRoute({
    store,
    raw: deps.raw,
    bodyLimit: deps.bodyLimit,
    ...(deps.durability ? { durability: deps.durability } : {}),
    ...(deps.log ? { log: deps.log } : {}),
  });

  const state = createStateRoute({ states: deps.states, store, ...(deps.durability ? { durability: deps.durability } : {}), ...(deps.log ? { log: deps.log } : {}) });

  return (request, response, path) => {
    const refused = deps.guard(request, path);
    if (refused) {
      discardBody(request);
      // RFC 9110 §11.6.1: a 401 names the scheme that would be accepted.
      send(response, problemReply(refused, path, refused.problem === "unauthorized" ? { "WWW-Authenticate": 'Bearer realm="property-listing-mock admin"' } : undefined));
      return;
    }
    if (path === "/__db" || path.startsWith("/__db/")) {
      rawRecords(request, response, path);
      return;
    }
    if (path === "/__admin/reset" && request.method === "POST") {
      discardBody(request);
      const before = deps.durability?.version();
      deps.reset();
      void whenSaved(deps.durability, before, okReply({ status: "reset", counts: store.counts() }), path).then(({ reply }) => send(response, reply));
      return;
    }
    if (path === "/__admin/state") {
      state(request, response);
      return;
    }
    if (path === "/__admin/requests" && (request.method === "GET" || request.method === "DELETE")) {
      discardBody(request);
      if (request.method === "GET") deps.steering.listRequests(request, response, request.url ?? path);
      else deps.steering.clearRequests(request, response);
      return;
    }
    if (path === "/__admin/faults" && (request.method === "GET" || request.method === "DELETE" || request.method === "POST")) {
      if (request.method === "POST") {
        deps.steering.addFault(request, response).catch((error: unknown) => {
          (deps.log ?? console.error)(`Internal error on POST ${path}: ${(error as Error).stack ?? String(error)}`);
          if (!response.headersSent) send(response, problemReply({ problem: "internalError", detail: "The mock failed on this request; this is a bug of the mock." }, path));
        });
        return;
      }
      discardBody(request);
      if (request.method === "GET") deps.steering.listFaults(request, response);
      else deps.steering.clearFaults(request, response);
      return;
    }
    if (path.startsWith(FAULT_PREFIX) && path.length > FAULT_PREFIX.length && !path.includes("/", FAULT_PREFIX.length) && request.method === "DELETE") {
      discardBody(request);
      deps.steering.removeFault(request, response, path.slice(FAULT_PREFIX.length));
      return;
    }
    discardBody(request);
    send(response, problemReply({ problem: "notFound", detail: `Nothing at ${request.method} ${path}. The API lives under /api/v1/object/.` }, path));
  };
}
