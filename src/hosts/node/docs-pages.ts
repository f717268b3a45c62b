import { readFileSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import { join } from "node:path";
import { setCorsHeaders } from "./cors.ts";
import { DOCS_ASSET_DIR, DOCS_ASSETS } from "./docs-assets.ts";
import { problemReply } from "../../mock/http/reply.ts";
import { send } from "./send-reply.ts";

/** Where the API reference is served; not under `/__admin` or `/__db`, so the admin guard does not apply. */
export const DOCS_PATH = "/docs";

/** Demo credentials filled in for "Try it out" (the seeded demo account, docs/mock.md: Accounts and credentials). */
export interface DocsCredentials {
  apiKey: string;
  token: string;
}

/**
 * `/docs`: an API reference of the contract (Swagger UI, from the copies of swagger-ui-dist's files that the build
 * puts in the package: no CDN, it works offline) whose "Try it out" calls the mock itself with the demo
 * credentials filled in. Nothing of it is read until `/docs` is first asked for, so a mock nobody reads the docs
 * of never loads it.
 *
 * @param assetDir where the copies are (docs-assets.ts); a test may point elsewhere.
 * @returns a handler that answers a GET or HEAD under `/docs` and tells whether the path was its own.
 */
export function createDocsPages(
  credentials: () => DocsCredentials | undefined,
  assetDir: string = DOCS_ASSET_DIR,
): (request: IncomingMessage, response: ServerResponse, path: string) => boolean {
  const cache = new Map<string, Buffer>();

  const asset = (name: string): Buffer | undefined => {
    const cached = cache.get(name);
    if (cached) return cached;
    let bytes: Buffer;
    try {
      bytes = readFileSync(join(assetDir, name));
    } catch {
      return undefined; // not built: answered below with a 404 saying so, rather than a 500
    }
    cache.set(name, bytes);
    return bytes;
  };

  return (request, response, path) => {
    if (path !== DOCS_PATH && !path.startsWith(`${DOCS_PATH}/`)) return false;
    setCorsHeaders(response);
    const name = path.slice(DOCS_PATH.length + 1);
    if (name === "" || name === "index.html") {
      response.setHeader("content-type", "text/html; charset=utf-8");
      response.setHeader("cache-control", "no-cache");
      response.end(request.method === "HEAD" ? undefined : PAGE);
      return true;
    }
    if (name === "docs-init.js") {
      response.setHeader("content-type", "text/javascript; charset=utf-8");
      response.setHeader("cache-control", "no-cache");
      response.end(request.method === "HEAD" ? undefined : initScript(credentials()));
      return true;
    }
    const type = Object.hasOwn(DOCS_ASSETS, name) ? DOCS_ASSETS[name] : undefined;
    const bytes = type ? asset(name) : undefined;
    if (!type || !bytes) {
      const detail = type
        ? `The API reference's ${name} is not built: ` +
          "`npm run build` copies it from swagger-ui-dist into dist/docs-assets/."
        : `Nothing at ${path}; the API reference is at ${DOCS_PATH}.`;
      send(response, problemReply({ problem: "notFound", detail }, path));
      return true;
    }
    response.setHeader("content-type", type);
    response.setHeader("cache-control", "public, max-age=3600");
    response.end(request.method === "HEAD" ? undefined : bytes);
    return true;
  };
}

const CONSOLE_LINK =
  '<p style="margin:8px 20px;font-family:sans-serif"><a href="/__admin/console">Open the console</a>: ' +
  "the requests the mock received and its answers, coverage, states, faults and latency.</p>";

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Property Listing Service: API reference (mock)</title>
<link rel="icon" type="image/png" href="${DOCS_PATH}/favicon-32x32.png">
<link rel="stylesheet" href="${DOCS_PATH}/swagger-ui.css">
</head>
<body>
${CONSOLE_LINK}
<div id="swagger-ui"></div>
<script src="${DOCS_PATH}/swagger-ui-bundle.js"></script>
<script src="${DOCS_PATH}/docs-init.js"></script>
</body>
</html>
`;

/**
 * The page's script: reads the contract from the mock, points "Try it out" at the mock itself (the origin the
 * page came from), fills in the credentials, and adds `content-type: application/json` where a request lacks
 * it, since the service requires it even on the GETs of properties and templates (section 5) and Swagger UI
 * sends none without a body. No validator badge: that would call validator.swagger.io.
 */
function initScript(credentials: DocsCredentials | undefined): string {
  return `"use strict";
(async () => {
  const spec = await (await fetch("/openapi.json")).json();
  spec.servers = [{ url: window.location.origin, description: "this mock" }];
  const credentials = ${JSON.stringify(credentials ?? null)};
  const ui = SwaggerUIBundle({
    spec,
    dom_id: "#swagger-ui",
    deepLinking: true,
    tryItOutEnabled: true,
    persistAuthorization: false,
    validatorUrl: null,
    displayOperationId: true,
    requestInterceptor: (request) => {
      const names = Object.keys(request.headers).map((name) => name.toLowerCase());
      if (!names.includes("content-type")) request.headers["content-type"] = "application/json";
      return request;
    },
    onComplete: () => {
      if (!credentials) return;
      ui.preauthorizeApiKey("apiKey", credentials.apiKey);
      ui.preauthorizeApiKey("token", credentials.token);
    },
  });
  window.ui = ui;
})();
`;
}
