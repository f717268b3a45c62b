import type { ErrorRequestHandler, Express, RequestHandler } from "express";
import jsonServer, { type JsonServerRouter } from "json-server";
import { stringify } from "yaml";
import type { Contract } from "../contract/create-contract.ts";
import { createAdminRoutes } from "./http/create-admin-routes.ts";
import { createApiHandler, type ApiHandlerDeps } from "./http/create-api-handler.ts";
import { cors } from "./http/cors.ts";
import { okReply, problemReply, send } from "./http/reply.ts";
import type { AutologinTokens } from "./services/autologin-tokens.ts";
import type { MockStore } from "./store/mock-store.ts";
import type { Database } from "./store/records.ts";

/** Everything the HTTP layer wires together. */
export interface AppDeps extends ApiHandlerDeps {
  store: MockStore;
  router: JsonServerRouter<Database>;
  tokens: AutologinTokens;
  contract: Contract;
  /** Told of every request once it is answered: `GET /api/v1/object/template_base 200 2ms`. */
  log?: (line: string) => void;
}

/**
 * The mock's Express application (json-server's `create()`): CORS, the health and index routes, the spec, the
 * admin routes, the auto-login pages, and the API. It holds no logic of the service; that is in the services.
 */
export function createApp(deps: AppDeps): Express {
  const app = jsonServer.create();
  app.disable("x-powered-by");
  if (deps.log) app.use(requestLog(deps.log));
  app.use(cors());

  app.get("/healthz", (_request, response) => send(response, okReply({ status: "ok", counts: deps.store.counts() })));
  app.get("/", (_request, response) =>
    send(
      response,
      okReply({
        service: "Property Listing Service mock",
        api: "/api/v1/object/",
        spec: { yaml: "/openapi.yaml", json: "/openapi.json" },
        health: "/healthz",
        admin: { raw: "/__db", reset: "POST /__admin/reset" },
      }),
    ),
  );
  const specYaml = stringify(deps.contract.document);
  app.get("/openapi.yaml", (_request, response) => {
    response.setHeader("content-type", "application/yaml; charset=utf-8");
    response.end(specYaml);
  });
  app.get("/openapi.json", (_request, response) => send(response, okReply(deps.contract.document)));

  app.use(createAdminRoutes(deps.store, deps.router));

  app.get("/autologin/:token", (request, response) => {
    const propertyId = deps.tokens.propertyOf(request.params.token ?? "");
    const property = propertyId === undefined ? undefined : deps.store.property(propertyId);
    if (!property) {
      send(response, problemReply({ problem: "notFound", detail: "This auto-login address is not known to the mock." }, request.path));
      return;
    }
    response.setHeader("content-type", "text/html; charset=utf-8");
    response.end(
      `<!doctype html><title>Signed in</title><p>Signed in to property ${property.id} (${escapeHtml(property.title)}).</p>` +
        `<p>Its site: <a href="${escapeHtml(property.website_url)}">${escapeHtml(property.website_url)}</a></p>`,
    );
  });

  app.use("/api", createApiHandler(deps));

  app.use((request, response) => {
    send(response, problemReply({ problem: "notFound", detail: `Nothing at ${request.method} ${request.path}. The API lives under /api/v1/object/.` }, request.path));
  });
  app.use(errorHandler(deps.log));
  return app;
}

function requestLog(log: (line: string) => void): RequestHandler {
  return (request, response, next) => {
    const started = performance.now();
    response.on("finish", () => {
      log(`${request.method} ${request.originalUrl} ${response.statusCode} ${Math.round(performance.now() - started)}ms`);
    });
    next();
  };
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

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

