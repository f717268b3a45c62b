import type { Outcome } from "../problems.ts";
import type { MockStore } from "../store/mock-store.ts";
import type { AdminGuard } from "./admin-guard.ts";
import type { MockRequest } from "./mock-request.ts";
import { discardBody } from "./read-body.ts";
import { okReply, problemReply, type Reply } from "./reply.ts";
import { whenSaved, type Durability } from "./when-saved.ts";
import type { SteeringRoutes } from "./steering-routes.ts";
import { createStateRoute, type StateControl } from "./state-route.ts";
import type { ConsoleRoutes } from "../console/console-routes.ts";
import type { ProviderStates } from "../services/provider-states.ts";
import { createProviderStatesRoute, PROVIDER_STATES_PATH } from "./provider-states-route.ts";
import { createUsageRoute, USAGE_TESTS_PATH } from "../usage/usage-route.ts";
import type { UsageControl } from "../usage/usage-recorder.ts";

/** Collaborators of the admin routes. */
export interface AdminRoutesDeps {
  store: MockStore;
  /** Runs first for every admin request; a failure it returns is the answer. */
  guard: AdminGuard;
  /** `/__admin/requests` (the request journal) and `/__admin/faults` (fault rules). */
  steering: SteeringRoutes;
  /** What `POST /__admin/reset` does: the seeded state back, no fault rules, an empty journal; or why not, nothing changed. */
  reset: () => Outcome<void>;
  /** `/__admin/state`: a reset to a named or given state. */
  states: StateControl;
  /** With `--db`: a reset or raw write is answered once it is on disk. */
  durability?: Durability;
  /** The console's routes (`/__admin/journal`, `/__admin/coverage`, `/__admin/latency`), when there are. */
  console?: ConsoleRoutes;
  /** `/__admin/provider-states`: Pact's provider states set up and torn down. */
  providerStates?: ProviderStates;
  /** A consumer's usage, when it is recorded (`/__admin/usage/tests`). */
  usage?: UsageControl | undefined;
}

const FAULT_PREFIX = "/__admin/faults/";

/**
 * Answers one request whose path starts with `/__admin` or `/__db`; undefined when the client left before its
 * body was read. `/__db` is the host's (json-server, Node only): where no host serves it, it is a 404 saying so.
 */
export type AdminRoutes = (request: MockRequest, path: string) => Promise<Reply | undefined>;

/** The admin guard's refusal of a request, as its answer; undefined lets the request through. */
export function adminRefusal(guard: AdminGuard, request: MockRequest, path: string): Reply | undefined {
  const refused = guard(request, path);
  if (!refused) return undefined;
  discardBody(request);
  // RFC 9110 §11.6.1: a 401 names the scheme that would be accepted.
  return problemReply(refused, path, refused.problem === "unauthorized" ? { "WWW-Authenticate": 'Bearer realm="property-listing-mock admin"' } : undefined);
}

/** Whether a path is one of the raw records' (`/__db`, served by json-server where Node runs it). */
export function isRawRecordsPath(path: string): boolean {
  return path === "/__db" || path.startsWith("/__db/");
}

/** Whether a path belongs to the admin surface, which {@link createAdminRoutes} answers behind its guard. */
export function isAdminPath(path: string): boolean {
  return path.startsWith("/__admin") || path.startsWith("/__db");
}

/**
 * Routes for tests and people, not part of the service: `POST /__admin/reset`, `/__admin/state` (a reset to a named or given state, state-route.ts), and the request journal and
 * fault rules of issue 12 (`/__admin/requests`, `/__admin/faults`, in steering-routes.ts). The raw records under
 * `/__db` are json-server 0.17's router over the store's records (raw-records-route.ts), which only the Node host
 * can run: it serves them before this answers; in any other host `/__db` is a 404 that says where they are.
 *
 * The single entry point of the admin surface: every request under `/__admin` or `/__db` passes `deps.guard`
 * before any handler runs.
 */
export function createAdminRoutes(deps: AdminRoutesDeps): AdminRoutes {
  const { store } = deps;
  const state = createStateRoute({ states: deps.states, store, ...(deps.durability ? { durability: deps.durability } : {}) });
  const providerStates = deps.providerStates && createProviderStatesRoute({ states: deps.providerStates, ...(deps.durability ? { durability: deps.durability } : {}) });
  const usageTests = createUsageRoute(deps.usage);
  return async (request, path) => {
    const refused = adminRefusal(deps.guard, request, path);
    if (refused) return refused;
    const method = request.method;
    if (isRawRecordsPath(path)) {
      discardBody(request);
      return problemReply(
        { problem: "notFound", detail: "The raw records (/__db) are served by json-server, which runs only where the mock runs as a Node server; here, read the state through the API, or reset it with POST /__admin/reset." },
        path,
      );
    }
    if (path === "/__admin/reset" && method === "POST") {
      discardBody(request);
      const before = deps.durability?.version();
      const done = deps.reset();
      if (!done.ok) return problemReply(done.failure, path);
      return (await whenSaved(deps.durability, before, okReply({ status: "reset", counts: store.counts() }), path)).reply;
    }
    if (path === "/__admin/state") return state(request);
    if (path === PROVIDER_STATES_PATH && providerStates) return providerStates(request);
    if (path === USAGE_TESTS_PATH) return usageTests(request);
    if (path === "/__admin/requests" && (method === "GET" || method === "DELETE")) {
      discardBody(request);
      return method === "GET" ? deps.steering.listRequests(request.url) : deps.steering.clearRequests();
    }
    if (path === "/__admin/faults" && (method === "GET" || method === "DELETE" || method === "POST")) {
      if (method === "POST") return deps.steering.addFault(request);
      discardBody(request);
      return method === "GET" ? deps.steering.listFaults() : deps.steering.clearFaults();
    }
    if (path.startsWith(FAULT_PREFIX) && path.length > FAULT_PREFIX.length && !path.includes("/", FAULT_PREFIX.length) && method === "DELETE") {
      discardBody(request);
      return deps.steering.removeFault(path.slice(FAULT_PREFIX.length));
    }
    const consoleReply = deps.console?.(request, path);
    if (consoleReply) return consoleReply;
    discardBody(request);
    return problemReply({ problem: "notFound", detail: `Nothing at ${method} ${path}. The API lives under /api/v1/object/.` }, path);
  };
}
