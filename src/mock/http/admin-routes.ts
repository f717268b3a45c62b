import type { Outcome } from "../problems.ts";
import type { MockStore } from "../store/mock-store.ts";
import type { AdminGuard } from "./admin-guard.ts";
import type { MockRequest } from "./mock-request.ts";
import { discardBody } from "./read-body.ts";
import { okReply, problemReply, type Reply } from "./reply.ts";
import type { RouteName } from "./route-table.ts";
import { whenSaved, type Durability } from "./when-saved.ts";
import type { RequestAndFaultRoutes } from "./request-and-fault-routes.ts";
import { createStateRoute, type StateControl } from "./state-route.ts";
import type { ConsoleRoutes } from "../console/console-routes.ts";
import type { ProviderStates } from "../services/provider-states.ts";
import { createProviderStatesRoute } from "./provider-states-route.ts";
import { createUsageRoute } from "../usage/usage-route.ts";
import type { UsageControl } from "../usage/usage-recorder.ts";

/** Collaborators of the admin routes. */
export interface AdminRoutesDeps {
  store: MockStore;
  /** `/__admin/requests` (the request journal) and `/__admin/faults` (fault rules). */
  requestsAndFaults: RequestAndFaultRoutes;
  /**
   * What `POST /__admin/reset` does: the seeded state back, no fault rules, an empty journal; or why not, nothing
   * changed.
   */
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

/**
 * A route's handler: the reply, or undefined when the client left before its body was read (or the host wrote the
 * answer itself).
 */
export type RouteHandler<R extends MockRequest = MockRequest> = (
  request: R,
  path: string,
) => Reply | undefined | Promise<Reply | undefined>;

/** The admin guard's refusal of a request, as its answer; undefined lets the request through. */
export function adminRefusal(guard: AdminGuard, request: MockRequest, path: string): Reply | undefined {
  const refused = guard(request, path);
  if (!refused) return undefined;
  discardBody(request);
  // RFC 9110 §11.6.1: a 401 names the scheme that would be accepted.
  return problemReply(
    refused,
    path,
    refused.problem === "unauthorized"
      ? { "WWW-Authenticate": 'Bearer realm="property-listing-mock admin"' }
      : undefined,
  );
}

/** The 404 of a path no route takes, its body discarded. */
export function nothingAt(request: MockRequest, path: string): Reply {
  discardBody(request);
  return problemReply(
    { problem: "notFound", detail: `Nothing at ${request.method} ${path}. The API lives under /api/v1/object/.` },
    path,
  );
}

/**
 * The core's handlers of the admin surface, by their names in the route table (route-table.ts), which puts the
 * guard before each: routes for tests and people, not part of the service. The raw records under `/__db` are
 * json-server 0.17's router, which only the Node host can run; in any other host `/__db` is a 404 that says where
 * they are. A collaborator not given leaves its route out.
 */
export function createAdminRoutes(deps: AdminRoutesDeps): Partial<Record<RouteName, RouteHandler>> {
  const { store, requestsAndFaults } = deps;
  const durable = deps.durability ? { durability: deps.durability } : {};
  const state = createStateRoute({ states: deps.states, store, ...durable });
  const providerStates = deps.providerStates && createProviderStatesRoute({ states: deps.providerStates, ...durable });
  const usageTests = createUsageRoute(deps.usage);
  const consoleRoutes = deps.console;
  /** Handlers that read no body: the body is discarded first. */
  const bodiless =
    (answer: (request: MockRequest, path: string) => Reply | Promise<Reply | undefined>): RouteHandler =>
    (request, path) => {
      discardBody(request);
      return answer(request, path);
    };
  return {
    rawRecordsElsewhere: bodiless((_request, path) =>
      problemReply(
        {
          problem: "notFound",
          detail:
            "The raw records (/__db) are served by json-server, " +
            "which runs only where the mock runs as a Node server; " +
            "here, read the state through the API, or reset it with POST /__admin/reset.",
        },
        path,
      ),
    ),
    reset: bodiless(async (_request, path) => {
      const before = deps.durability?.version();
      const done = deps.reset();
      if (!done.ok) return problemReply(done.failure, path);
      return (await whenSaved(deps.durability, before, okReply({ status: "reset", counts: store.counts() }), path))
        .reply;
    }),
    state: (request) => state(request),
    ...(providerStates ? { providerStates: (request: MockRequest) => providerStates(request) } : {}),
    usageTests: (request) => usageTests(request),
    requests: bodiless((request) =>
      request.method === "GET" ? requestsAndFaults.listRequests(request.query) : requestsAndFaults.clearRequests(),
    ),
    faults: (request) => {
      if (request.method === "POST") return requestsAndFaults.addFault(request);
      discardBody(request);
      return request.method === "GET" ? requestsAndFaults.listFaults() : requestsAndFaults.clearFaults();
    },
    fault: bodiless((_request, path) => requestsAndFaults.removeFault(path.slice("/__admin/faults/".length))),
    ...(consoleRoutes
      ? { console: (request: MockRequest, path: string) => consoleRoutes(request, path) || nothingAt(request, path) }
      : {}),
    adminNotFound: nothingAt,
  };
}
