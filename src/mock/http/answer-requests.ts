import type { Contract } from "../../contract/build-contract.ts";
import type { Outcome } from "../problems.ts";
import type { AutologinTokens } from "../services/autologin-tokens.ts";
import type { MockStore } from "../store/mock-store.ts";
import type { AdminGuard } from "./admin-guard.ts";
import { createAdminRoutes, isAdminPath } from "./admin-routes.ts";
import type { SteeringRoutes } from "./steering-routes.ts";
import type { StateControl } from "./state-route.ts";
import { wrapApiHandler, type ApiCall, type ApiInterceptor } from "./api-interceptor.ts";
import { createApiHandler, type ApiHandlerDeps } from "./create-api-handler.ts";
import type { MockRequest } from "./mock-request.ts";
import { discardBody } from "./read-body.ts";
import { okReply, problemReply, textReply, type Reply } from "./reply.ts";
import type { Durability } from "./when-saved.ts";

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
  steering: SteeringRoutes;
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
  /** Where the API reference is, for the index page (`/docs`, the Node host's), if the host serves one. */
  docsPath?: string;
}

/**
 * What the core answers a request: a reply to send, nothing on purpose (`dropped`: a fault rule drops the
 * connection), or undefined when the client left before it was answered.
 */
export type Answer = { reply: Reply; dropped?: undefined } | { dropped: true; reply?: undefined } | undefined;

/**
 * The whole mock as one function of a request: what every host (Node, MSW, a test) calls. The answer comes at
 * once when nothing on its way waits (most GETs), else as a promise (`api-interceptor.ts`, `ApiAnswer`): a host
 * awaits it, or, on the Node host's hot path, writes it at once when it is not a promise.
 */
export type AnswerRequest = (request: MockRequest, receivedAt?: number) => Answer | Promise<Answer>;

const AUTOLOGIN = "/autologin/";

/**
 * The mock's core router, host-neutral (no `node:` module, no Node-only package): it routes by path with no
 * framework in between: `/api/...` to the API handler (through the interceptors), `/__admin...` and `/__db...`
 * to the admin routes (through the admin guard), a few fixed pages, and a 404 problem for anything else. Paths
 * are exact and case-sensitive. It holds no logic of the service; that is in the services. What only a Node
 * server does (CORS and its preflight, the request log, `/docs`, `/openapi.yaml`, json-server's `/__db`) is the
 * Node host's (create-app.ts).
 */
export function createRequestAnswerer(deps: CoreDeps): AnswerRequest {
  const { store, contract, durability } = deps;
  const api = wrapApiHandler(createApiHandler(deps), deps.apiInterceptors);
  const admin = createAdminRoutes({ store, guard: deps.adminGuard, steering: deps.steering, reset: deps.reset, states: deps.states, ...(durability ? { durability } : {}) });

  const pages = new Map<string, () => Reply>([
    [
      "/healthz",
      () => {
        const problem = durability?.problem();
        return problem ? problemReply({ problem: "stateNotSaved", detail: problem }, "/healthz") : okReply(deps.profile ? { status: "ok", counts: store.counts(), profile: deps.profile } : { status: "ok", counts: store.counts() });
      },
    ],
    [
      "/",
      () =>
        okReply({
          service: "Property Listing Service mock",
          api: "/api/v1/object/",
          spec: deps.docsPath ? { yaml: "/openapi.yaml", json: "/openapi.json" } : { json: "/openapi.json" },
          health: "/healthz",
          ...(deps.docsPath ? { docs: deps.docsPath } : {}),
          admin: { raw: "/__db", reset: "POST /__admin/reset", state: "/__admin/state", requests: "/__admin/requests", faults: "/__admin/faults" },
        }),
    ],
    ["/openapi.json", () => okReply(contract.document)],
  ]);

  const autologin = (path: string): Reply => {
    const propertyId = deps.tokens.propertyOf(decodeSegment(path.slice(AUTOLOGIN.length)) ?? "");
    const property = propertyId === undefined ? undefined : store.peekProperty(propertyId);
    if (!property) return problemReply({ problem: "notFound", detail: "This auto-login address is not known to the mock." }, path);
    return textReply(
      "text/html",
      `<!doctype html><title>Signed in</title><p>Signed in to property ${property.id} (${escapeHtml(property.title)}).</p>` +
        `<p>Its site: <a href="${escapeHtml(property.website_url)}">${escapeHtml(property.website_url)}</a></p>`,
    );
  };

  /** A bug of the mock: reported with its stack, answered 500. */
  const internalError = (request: MockRequest, path: string, error: unknown): Answer => {
    deps.reportError(`Internal error on ${request.method} ${request.url}: ${(error as Error).stack ?? String(error)}`);
    return { reply: problemReply({ problem: "internalError", detail: "The mock failed on this request; this is a bug of the mock." }, path) };
  };

  /** What the core answers an API call, once the interceptors and the handler have given their reply. */
  const apiAnswer = (call: ApiCall, reply: Reply | undefined): Answer => (reply ? { reply } : call.dropped ? { dropped: true } : undefined);

  return (request, receivedAt = performance.now()) => {
    const { url, method } = request;
    const query = url.indexOf("?");
    const path = query === -1 ? url : url.slice(0, query);
    try {
      if (path.startsWith("/api/") || path === "/api") {
        const call: ApiCall = { request, method, url, path, receivedAt };
        const reply = api(call);
        if (!(reply instanceof Promise)) return apiAnswer(call, reply);
        return reply.then(
          (settled) => apiAnswer(call, settled),
          (error: unknown) => internalError(request, path, error),
        );
      }
      if (isAdminPath(path)) {
        return admin(request, path).then(
          (reply) => reply && { reply },
          (error: unknown) => internalError(request, path, error),
        );
      }
      discardBody(request);
      if (method === "GET" || method === "HEAD") {
        const page = pages.get(path);
        if (page) return { reply: page() };
        if (path.startsWith(AUTOLOGIN) && path.length > AUTOLOGIN.length && !path.includes("/", AUTOLOGIN.length)) return { reply: autologin(path) };
      }
      return { reply: problemReply({ problem: "notFound", detail: `Nothing at ${method} ${path}. The API lives under /api/v1/object/.` }, path) };
    } catch (error) {
      return internalError(request, path, error);
    }
  };
}

/** A percent-decoded path segment, or undefined when its escapes are not valid UTF-8. */
function decodeSegment(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}
