import { readFileSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import { join } from "node:path";
import { CONSOLE_ASSET_DIR, CONSOLE_ASSETS, CONSOLE_PATH } from "./console-assets.ts";
import { problemReply } from "../../mock/http/reply.ts";
import { send } from "./send-reply.ts";

/**
 * The console's page forbids anything from elsewhere: scripts, styles and requests of its own origin only, no
 * frame, no form sent anywhere, no `<base>`.
 */
export const CONSOLE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; " +
  "base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/**
 * `/__admin/console`: the console's page and its two files, read on first request (the build's copies,
 * console-assets.ts). The route table puts the admin guard's rules of `Host` and `Origin` before it; its token
 * does not hold, since a browser cannot send it when it opens a page: the page holds no record, and asks for the
 * token before it reads any.
 */
export function createConsolePages(
  assetDir: string = CONSOLE_ASSET_DIR,
): (request: IncomingMessage, response: ServerResponse, path: string) => void {
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
    request.resume();
    if (request.method !== "GET" && request.method !== "HEAD") {
      send(
        response,
        problemReply(
          { problem: "methodNotAllowed", detail: `${request.method} is not a method of ${path}; it allows GET, HEAD.` },
          path,
          { Allow: "GET, HEAD" },
        ),
      );
      return;
    }
    const name =
      path === CONSOLE_PATH || path === `${CONSOLE_PATH}/` ? "index.html" : path.slice(CONSOLE_PATH.length + 1);
    const type = Object.hasOwn(CONSOLE_ASSETS, name) ? CONSOLE_ASSETS[name] : undefined;
    const bytes = type ? asset(name) : undefined;
    if (!type || !bytes) {
      const detail = type
        ? `The console's ${name} is not built: \`npm run build\` copies it from src/console/ into dist/console-assets/.`
        : `Nothing at ${path}; the console is at ${CONSOLE_PATH}.`;
      send(response, problemReply({ problem: "notFound", detail }, path));
      return;
    }
    response.setHeader("content-type", type);
    response.setHeader("cache-control", "no-cache");
    response.setHeader("content-security-policy", CONSOLE_CSP);
    response.setHeader("x-content-type-options", "nosniff");
    response.setHeader("referrer-policy", "no-referrer");
    response.end(request.method === "HEAD" ? undefined : bytes);
  };
}
