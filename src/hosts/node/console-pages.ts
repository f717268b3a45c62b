import { readFileSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import { join } from "node:path";
import type { AdminGuard } from "../../mock/http/admin-guard.ts";
import { CONSOLE_ASSET_DIR, CONSOLE_ASSETS, CONSOLE_PATH } from "./console-assets.ts";
import { NodeRequest } from "./node-request.ts";
import { problemReply } from "../../mock/http/reply.ts";
import { send } from "./send-reply.ts";

/**
 * The console's page forbids anything from elsewhere: scripts, styles and requests of its own origin only, no
 * frame, no form sent anywhere, no `<base>`.
 */
export const CONSOLE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/**
 * `/__admin/console`: the console's page and its two files, read on first request (the build's copies,
 * console-assets.ts). The admin guard's rules of `Host` and `Origin` hold; its token does not, since a browser
 * cannot send it when it opens a page: the page holds no record, and asks for the token before it reads any.
 *
 * @returns a handler that answers a request under `/__admin/console` and tells whether the path was its own.
 */
export function createConsolePages(guard: AdminGuard, assetDir: string = CONSOLE_ASSET_DIR): (request: IncomingMessage, response: ServerResponse, path: string) => boolean {
  const cache = new Map<string, Buffer>();
  const asset = (name: string): Buffer | undefined => {
    const cached = cache.get(name);
    if (cached) return cached;
    try {
      const bytes = readFileSync(join(assetDir, name));
      cache.set(name, bytes);
      return bytes;
    } catch {
      return undefined; // not built: answered below with a 404 saying so
    }
  };

  return (request, response, path) => {
    if (path !== CONSOLE_PATH && !path.startsWith(`${CONSOLE_PATH}/`)) return false;
    request.resume();
    const refused = guard(new NodeRequest(request, response), path);
    if (refused && refused.problem !== "unauthorized") {
      send(response, problemReply(refused, path));
      return true;
    }
    if (request.method !== "GET" && request.method !== "HEAD") {
      send(response, problemReply({ problem: "methodNotAllowed", detail: `${request.method} is not a method of ${path}; it allows GET, HEAD.` }, path, { Allow: "GET, HEAD" }));
      return true;
    }
    const name = path === CONSOLE_PATH || path === `${CONSOLE_PATH}/` ? "index.html" : path.slice(CONSOLE_PATH.length + 1);
    const type = Object.hasOwn(CONSOLE_ASSETS, name) ? CONSOLE_ASSETS[name] : undefined;
    const bytes = type ? asset(name) : undefined;
    if (!type || !bytes) {
      const detail = type ? `The console's ${name} is not built: \`npm run build\` copies it from src/console/ into dist/console-assets/.` : `Nothing at ${path}; the console is at ${CONSOLE_PATH}.`;
      send(response, problemReply({ problem: "notFound", detail }, path));
      return true;
    }
    response.setHeader("content-type", type);
    response.setHeader("cache-control", "no-cache");
    response.setHeader("content-security-policy", CONSOLE_CSP);
    response.setHeader("x-content-type-options", "nosniff");
    response.setHeader("referrer-policy", "no-referrer");
    response.end(request.method === "HEAD" ? undefined : bytes);
    return true;
  };
}
