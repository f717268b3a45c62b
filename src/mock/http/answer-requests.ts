import type { Contract } from "../../contract/build-contract.ts";
import type { Outcome } from "../problems.ts";
import type { AutologinTokens } from "../services/autologin-tokens.ts";
import type { MockStore } from "../store/mock-store.ts";
import type { AdminGuard } from "./admin-guard.ts";
import { adminRefusal, createAdminRoutes, nothingAt, type RouteHandler } from "./admin-routes.ts";
import type { RequestAndFaultRoutes } from "./request-and-fault-routes.ts";
import type { ProviderStates } from "../services/provider-states.ts";
import type { StateControl } from "./state-route.ts";
import { wrapApiHandler, type Answered, type ApiCall, type ApiInterceptor } from "./api-interceptor.ts";
import { createApiHandler, type ApiHandlerDeps } from "./create-api-handler.ts";
import { andThen, type MaybePromise } from "./maybe-async.ts";
import type { MockRequest } from "./mock-request.ts";
import { decodeSegment } from "./decode-segment.ts";
import { discardBody } from "./read-body.ts";
import { okReply, problemReply, textReply, type Reply } from "./reply.ts";
import { matches, ROUTES, type HostRouteName, type Route, type RouteName } from "./route-table.ts";
import type { Durability } from "./when-saved.ts";
import type { ConsoleRoutes } from "../console/console-routes.ts";
import type { UsageControl } from "../usage/usage-recorder.ts";

/** Everything the mock's core wires together. */
export interface CoreDeps extends ApiHandlerDeps {
  store: MockStore;
  tokens: AutologinTokens;
  contract: Contract;
  /** Runs before every handler of the admin surface (`/__admin`, `/__db`). */
  adminGuard: AdminGuard;
  /** Around the API handler, outermost first: they see every API request and its final reply. */
  apiInterceptors?: readonly ApiInterceptor[];
  /** The request journal and fault rules of the admin surface (`/__admin/requests`, `/__admin/faults`). */
  requestsAndFaults: RequestAndFaultRoutes;
  /** What `POST /__admin/reset` does: the seeded state back, no fault rules, an empty journal; or why not. */
  reset: () => Outcome<void>;
  /** `/__admin/state`: a reset to a named or given state. */
  states: StateControl;
  /** Told of a bug of the mock met on a request (its stack). */
  reportError: (text: string) => void;
  /** The service profile in use (`--profile`), named by `/healthz`. */
  profile?: { source: string; runId: string; recordedAt: string };
  /** With `--db`: answers to changes wait until they are on disk, and /healthz says when they cannot be. */
  durability?: Durability;
  /** Pact's provider states (`POST /__admin/provider-states`), when the host offers them. */
  providerStates?: ProviderStates;
  /** Where the API reference is, for the index page (`/docs`, the Node host's), if the host serves one. */
  docsPath?: string;
  /** The console's admin routes (journal, coverage, latency). */
  console?: ConsoleRoutes;
  /** Where the console's page is, for the index page (`/__admin/console`, the Node host's), if the host serves it. */
  consolePath?: string;
  /** A consumer's usage, when it is recorded: `POST /__admin/usage/tests` begins a test. */
  usage?: UsageControl | undefined;
}

/**
 * What the core answers a request: a reply to send, or none: on purpose (`dropped`: a fault rule drops the
 * connection), or because the client left before it was answered (or a host's handler wrote the answer). An API
 * call's {@link Answered} value is one as it is (api-interceptor.ts).
 */
export type Answer = { readonly reply?: Reply | undefined; readonly dropped?: boolean | undefined } | undefined;

/**
 * The whole mock as one function of a request: what every host (Node, MSW, a test) calls. The answer comes at
 * once when nothing on its way waits (most GETs), else as a promise (`api-interceptor.ts`, `ApiAnswer`): a host
 * awaits it, or, on the Node host's hot path, writes it at once when it is not a promise. The request's path is
 * the one its host split from the target as it entered (`MockRequest.path`).
 */
export type AnswerRequest<R extends MockRequest = MockRequest> = (
  request: R,
  receivedAt?: number,
) => MaybePromise<Answer>;

/**
 * The handlers a host gives for the routes only it can answer (route-table.ts, `host: true`), each called with the
 * host's own request (the Node host's holds its response, which a handler may write itself).
 */
export type HostRoutes<R extends MockRequest = MockRequest> = Partial<Record<HostRouteName, RouteHandler<R>>>;

/** The mock's router: the answer to a request, with a host's own routes or none. */
export interface RequestAnswerer {
  readonly answer: AnswerRequest;
  /** The answer with the routes a host adds (the Node host's `/docs`, `/openapi.yaml`, `/__db`, the console). */
  withHost<R extends MockRequest>(host: HostRoutes<R>): AnswerRequest<R>;
  /** A bug of the mock met on a request: reported with its stack, answered 500 (the one place it is built). */
  internalError(request: Pick<MockRequest, "method" | "url">, path: string, error: unknown): { reply: Reply };
}

const AUTOLOGIN = "/autologin/";

/**
 * The mock's core router, host-neutral (no `node:` module, no Node-only package): it takes the first route of the
 * table (route-table.ts) that has the request's path, runs that route's guard, and calls its handler: the API
 * handler (through the interceptors), the admin routes, a few fixed pages, a host's handler;
 * a 404 problem for anything else. It holds no logic of the service; that is in the services.
 */
export function createRequestAnswerer(deps: CoreDeps): RequestAnswerer {
  const { store, contract, durability } = deps;
  const api = wrapApiHandler(createApiHandler(deps), deps.apiInterceptors);
  const guard = deps.adminGuard;

  const autologin = (path: string): Reply => {
    const propertyId = deps.tokens.propertyOf(decodeSegment(path.slice(AUTOLOGIN.length)) ?? "");
    const property = propertyId === undefined ? undefined : store.record("properties", propertyId);
    if (!property)
      return problemReply({ problem: "notFound", detail: "This auto-login address is not known to the mock." }, path);
    return textReply(
      "text/html",
      "<!doctype html><title>Signed in</title>" +
        `<p>Signed in to property ${property.id} (${escapeHtml(property.title)}).</p>` +
        `<p>Its site: <a href="${escapeHtml(property.website_url)}">${escapeHtml(property.website_url)}</a></p>`,
    );
  };

  /** The core's handlers, by route name; the API's is apart (it is given the call, not the request). */
  const core: Partial<Record<RouteName, RouteHandler>> = {
    ...createAdminRoutes({
      store,
      requestsAndFaults: deps.requestsAndFaults,
      reset: deps.reset,
      states: deps.states,
      ...(durability ? { durability } : {}),
      ...(deps.console ? { console: deps.console } : {}),
      ...(deps.providerStates ? { providerStates: deps.providerStates } : {}),
      usage: deps.usage,
    }),
    health: (_request, path) => {
      const problem = durability?.problem();
      return problem
        ? problemReply({ problem: "stateNotSaved", detail: problem }, path)
        : okReply(
            deps.profile
              ? { status: "ok", counts: store.counts(), profile: deps.profile }
              : { status: "ok", counts: store.counts() },
          );
    },
    index: () =>
      okReply({
        service: "Property Listing Service mock",
        api: "/api/v1/object/",
        spec: deps.docsPath ? { yaml: "/openapi.yaml", json: "/openapi.json" } : { json: "/openapi.json" },
        health: "/healthz",
        ...(deps.docsPath ? { docs: deps.docsPath } : {}),
        ...(deps.consolePath ? { console: deps.consolePath } : {}),
        admin: {
          raw: "/__db",
          reset: "POST /__admin/reset",
          state: "/__admin/state",
          requests: "/__admin/requests",
          faults: "/__admin/faults",
        },
      }),
    openapiJson: () => okReply(contract.document),
    autologin: (_request, path) => autologin(path),
  };

  const internalError = (
    request: Pick<MockRequest, "method" | "url">,
    path: string,
    error: unknown,
  ): { reply: Reply } => {
    deps.reportError(`Internal error on ${request.method} ${request.url}: ${(error as Error).stack ?? String(error)}`);
    return {
      reply: problemReply(
        { problem: "internalError", detail: "The mock failed on this request; this is a bug of the mock." },
        path,
      ),
    };
  };

  const answerOf = (reply: Reply | undefined): Answer => reply && { reply };

  const withHost = <R extends MockRequest>(host: HostRoutes<R>): AnswerRequest<R> => {
    const handlers = { ...core, ...host } as Partial<Record<RouteName, RouteHandler<R>>>;
    /** A handler's promise that rejected: a bug, answered 500 (made once, not per request). */
    const failed = (error: unknown, request: R): Answer => internalError(request, request.path, error);
    return (request, receivedAt = performance.now()) => {
      const { url, method, path } = request;
      try {
        for (const route of ROUTES as readonly Route[]) {
          if (!matches(route, path) || (route.methods && !route.methods.includes(method))) continue;
          if (route.name === "api") {
            const call: ApiCall = { request, method, url, path, receivedAt };
            return andThen<Answered, Answer, R>(api(call), asAnswer, failed, request);
          }
          const handler = handlers[route.name as RouteName];
          if (!handler) continue;
          if (route.guard === "admin") {
            const refused = adminRefusal(guard, request, path);
            if (refused) return { reply: refused };
          } else if (route.guard === "page") {
            // A page a browser opens cannot send the token: the guard's Host and Origin rules alone.
            const refused = guard(request, path);
            if (refused && refused.problem !== "unauthorized") {
              discardBody(request);
              return { reply: problemReply(refused, path) };
            }
          } else discardBody(request);
          return andThen<Reply | undefined, Answer, R>(handler(request, path), answerOf, failed, request);
        }
        return { reply: nothingAt(request, path) };
      } catch (error) {
        return internalError(request, path, error);
      }
    };
  };

  return { answer: withHost({}), withHost, internalError };
}

/** An API call's answer is the router's as it is: its reply, or none (`dropped` on purpose). */
function asAnswer(answered: Answered): Answer {
  return answered;
}

function escapeHtml(text: string | null): string {
  return (text ?? "").replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}
