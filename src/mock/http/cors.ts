import type { IncomingMessage, ServerResponse } from "node:http";

/** The headers a client of the service sends (section 5), and Prism's `Prefer`. */
const DEFAULT_ALLOWED_HEADERS = "API-KEY, TOKEN, Content-Type, Prefer";

/**
 * Open CORS for browsers on the API and the public pages: any origin, and a preflight that allows the
 * API-KEY, TOKEN, Content-Type and Prefer headers (and any other header the browser asks for), so a front end
 * served from another port can call the mock. Marks every answer as readable from any origin, and answers a
 * preflight by itself; exposes `Preference-Applied` (what a `Prefer` got). The admin routes never pass through here (create-app.ts): they have no CORS.
 *
 * @returns true when the request was a preflight and has been answered (204).
 */
export function applyCors(request: IncomingMessage, response: ServerResponse): boolean {
  response.setHeader("Access-Control-Allow-Origin", "*");
  response.setHeader("Access-Control-Expose-Headers", "Allow, Content-Type, Preference-Applied");
  if (request.method !== "OPTIONS" || !request.headers["access-control-request-method"]) return false;
  response.setHeader("Access-Control-Allow-Methods", "GET, POST, PUT, DELETE, OPTIONS");
  response.setHeader("Access-Control-Allow-Headers", request.headers["access-control-request-headers"] ?? DEFAULT_ALLOWED_HEADERS);
  response.setHeader("Access-Control-Max-Age", "600");
  response.setHeader("Vary", "Access-Control-Request-Headers");
  response.statusCode = 204;
  response.end();
  return true;
}
