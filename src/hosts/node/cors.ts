import type { IncomingMessage, ServerResponse } from "node:http";

/** The headers a client of the service sends (section 5), and Prism's `Prefer`. */
const DEFAULT_ALLOWED_HEADERS = "API-KEY, TOKEN, Content-Type, Prefer";

/**
 * Open CORS for browsers on the API and the public pages: every answer is marked readable from any origin, and
 * exposes `Allow`, `Content-Type` and `Preference-Applied` (what a `Prefer` got); a preflight is answered here,
 * allowing the API-KEY, TOKEN, Content-Type and Prefer headers (and any other header the browser asks for), so a
 * front end served from another port can call the mock. The admin routes never get them (create-app.ts).
 *
 * As a flat list of names and values, which `send` (send-reply.ts) writes in one `writeHead` with the reply's own
 * headers: on every API request's path, where setting them one by one first cost more than Node's own writing.
 */
export const CORS_HEADERS: readonly string[] = [
  "Access-Control-Allow-Origin",
  "*",
  "Access-Control-Expose-Headers",
  "Allow, Content-Type, Preference-Applied",
];

/** Sets {@link CORS_HEADERS} on a response a page of this host writes by itself (the API reference's files). */
export function setCorsHeaders(response: ServerResponse): void {
  for (let index = 0; index < CORS_HEADERS.length; index += 2)
    response.setHeader(CORS_HEADERS[index]!, CORS_HEADERS[index + 1]!);
}

/**
 * Answers a CORS preflight (204, with {@link CORS_HEADERS} and what it allows).
 *
 * @returns true when the request was a preflight and has been answered.
 */
export function answerPreflight(request: IncomingMessage, response: ServerResponse): boolean {
  if (request.method !== "OPTIONS" || !request.headers["access-control-request-method"]) return false;
  setCorsHeaders(response);
  response.setHeader("Access-Control-Allow-Methods", "GET, POST, PUT, DELETE, OPTIONS");
  response.setHeader(
    "Access-Control-Allow-Headers",
    request.headers["access-control-request-headers"] ?? DEFAULT_ALLOWED_HEADERS,
  );
  response.setHeader("Access-Control-Max-Age", "600");
  response.setHeader("Vary", "Access-Control-Request-Headers");
  response.statusCode = 204;
  response.end();
  return true;
}
