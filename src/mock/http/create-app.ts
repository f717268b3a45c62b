import type { IncomingMessage, RequestListener, ServerResponse } from "node:http";
import { createRequire } from "node:module";
import type { Contract } from "../../contract/create-contract.ts";
import type { AutologinTokens } from "../services/autologin-tokens.ts";
import type { RawRecordService } from "../services/raw-records.ts";
import type { MockStore } from "../store/mock-store.ts";
import type { AdminGuard } from "./admin-guard.ts";
import { createAdminRoutes, isAdminPath } from "./admin-routes.ts";
import type { SteeringRoutes } from "./steering-routes.ts";
import type { StateControl } from "./state-route.ts";
import { wrapApiHandler, type ApiCall, type ApiInterceptor } from "./api-interceptor.ts";
import { createApiHandler, type ApiHandlerDeps } from "./create-api-handler.ts";
import { applyCors } from "./cors.ts";
import { createDocsPages, DOCS_PATH, type DocsCredentials } from "./docs-pages.ts";
import { discardBody } from "./read-body.ts";
import { okReply, problemReply, send } from "./reply.ts";
import { logWhenFinished } from "./request-log.ts";
import type { LoggedRequest } from "./request-log-line.ts";
import type { Durability } from "./when-saved.ts";

/** Everything the HTTP layer wires together. */
export interface AppDeps extends ApiHandlerDeps {
  store: MockStore;
  raw: RawRecordService;
  tokens: AutologinTokens;
  contract: Contract;
  /** Runs before every handler of the admin surface (`/__admin`, `/__db`). */
  adminGuard: AdminGuard;
  /** Around the API handler, outermost first: they see every API request and its final reply. */
  apiInterceptors?: readonly ApiInterceptor[];
  /** The request journal and fault rules of the admin surface (`/__admin/requests`, `/__admin/faults`). */
  steering: SteeringRoutes;
  /** What `POST /__admin/reset` does: the seeded state back, no fault rules, an empty journal. */
  reset: () => void;
  /** `/__admin/state`: a reset to a named or given state. */
  states: StateControl;
  /** Told of every request once it is answered, in `formatRequest`'s words (`requestLogLine` unless given). */
  log?: (line: string) => void;
  formatRequest?: (request: LoggedRequest) => string;
  /** Told of a bug of the mock met on a request (its stack); `log`, else stderr, unless given. */
  reportError?: (text: string) => void;
  /** The clock of the log's timestamps, in milliseconds. */
  now?: () => number;
  /** The service profile in use (`--profile`), named by `/healthz`. */
  profile?: { source: string; runId: string; recordedAt: string };
  /** With `--db`: answers to changes wait until they are on disk, and /healthz says when they cannot be. */
  durability?: Durability;
  /** The credentials `/docs` fills in for "Try it out", if any (none when accounts are configured). */
  docsCredentials?: () => DocsCredentials | undefined;
}

// The YAML serializer is loaded on the first request for /openapi.yaml rather than at every start.
const require = createRequire(import.meta.url);

type Page = (request: IncomingMessage, response: ServerResponse) => void;

/**
 * The mock's HTTP entry: a plain `node:http` request listener (also what `supertest(mock.app)` drives).
 * It routes by path with no framework in between: CORS and its preflight first, then `/api/...` to the API
 * handler (through the interceptors), `/__admin...` and `/__db...` to the admin routes (through the admin
 * guard), a few fixed pages, and a 404 problem for anything else. Paths are exact and case-sensitive.
 * It holds no logic of the service; that is in the services.
 */
export function createApp(deps: AppDeps): RequestListener {
  const { store, contract, log, durability } = deps;
  const reportError = deps.reportError ?? log ?? console.error;
  const api = wrapApiHandler(createApiHandler(deps), deps.apiInterceptors);
  const docs = createDocsPages(deps.docsCredentials ?? (() => undefined));
  const admin = createAdminRoutes({ store, raw: deps.raw, bodyLimit: deps.bodyLimit, guard: deps.adminGuard, steering: deps.steering, reset: deps.reset, states: deps.states, log: reportError, ...(durability ? { durability } : {}) });

  let specYaml: string | undefined; // built on the first request for it: most runs never ask
  const pages = new Map<string, Page>([
    [
      "/healthz",
      (_request, response) => {
        const problem = durability?.problem();
        send(response, problem ? problemReply({ problem: "stateNotSaved", detail: problem }, "/healthz") : okReply(deps.profile ? { status: "ok", counts: store.counts(), profile: deps.profile } : { status: "ok", counts: store.counts() }));
      },
    ],
    [
      "/",
      (_request, response) =>
        send(
          response,
          okReply({
            service: "Property Listing Service mock",
            api: "/api/v1/object/",
            spec: { yaml: "/openapi.yaml", json: "/openapi.json" },
            health: "/healthz",
            docs: DOCS_PATH,
            admin: { raw: "/__db", reset: "POST /__admin/reset", state: "/__admin/state", requests: "/__admin/requests", faults: "/__admin/faults" },
          }),
        ),
    ],
    [
      "/openapi.yaml",
      (_request, response) => {
        specYaml ??= (require("yaml") as typeof import("yaml")).stringify(contract.document);
        response.setHeader("content-type", "application/yaml; charset=utf-8");
        response.end(specYaml);
      },
    ],
    ["/openapi.json", (_request, response) => send(response, okReply(contract.document))],
  ]);

  const autologin = (request: IncomingMessage, response: ServerResponse, path: string): void => {
    const propertyId = deps.tokens.propertyOf(decodeSegment(path.slice(AUTOLOGIN.length)) ?? "");
    const property = propertyId === undefined ? undefined : store.property(propertyId);
    if (!property) {
      send(response, problemReply({ problem: "notFound", detail: "This auto-login address is not known to the mock." }, path));
      return;
    }
    response.setHeader("content-type", "text/html; charset=utf-8");
    response.end(
      `<!doctype html><title>Signed in</title><p>Signed in to property ${property.id} (${escapeHtml(property.title)}).</p>` +
        `<p>Its site: <a href="${escapeHtml(property.website_url)}">${escapeHtml(property.website_url)}</a></p>`,
    );
  };

  /** A bug of the mock: logged with its stack, answered 500 if nothing was sent yet. */
  const internalError = (request: IncomingMessage, response: ServerResponse, path: string, error: unknown): void => {
    reportError(`Internal error on ${request.method} ${request.url}: ${(error as Error).stack ?? String(error)}`);
    if (response.headersSent) {
      response.destroy();
      return;
    }
    send(response, problemReply({ problem: "internalError", detail: "The mock failed on this request; this is a bug of the mock." }, path));
  };


  return (request, response) => {
    const receivedAt = performance.now();
    if (log) logWhenFinished(request, response, receivedAt, log, deps.now, deps.formatRequest);
    const url = request.url ?? "/";
    const query = url.indexOf("?");
    const path = query === -1 ? url : url.slice(0, query);
    // The admin surface gets no CORS at all, preflight included: no page of another origin may read or
    // write it (its guard refuses such pages outright).
    if (!isAdminPath(path) && applyCors(request, response)) return;
    const method = request.method ?? "GET";
    try {
      if (path.startsWith("/api/") || path === "/api") {
        const call: ApiCall = { request, response, method, url, path, receivedAt };
        api(call).then(
          (reply) => {
            if (reply) send(response, reply);
          },
          (error: unknown) => internalError(request, response, path, error),
        );
        return;
      }
      if (isAdminPath(path)) {
        admin(request, response, path);
        return;
      }
      if (method === "GET" || method === "HEAD") {
        const page = pages.get(path);
        if (page) {
          discardBody(request);
          page(request, response);
          return;
        }
        if (docs(request, response, path)) {
          discardBody(request);
          return;
        }
        if (path.startsWith(AUTOLOGIN) && path.length > AUTOLOGIN.length && !path.includes("/", AUTOLOGIN.length)) {
          discardBody(request);
          autologin(request, response, path);
          return;
        }
      }
      discardBody(request);
      send(response, problemReply({ problem: "notFound", detail: `Nothing at ${method} ${path}. The API lives under /api/v1/object/.` }, path));
    } catch (error) {
      internalError(request, response, path, error);
    }
  };
}

const AUTOLOGIN = "/autologin/";

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
