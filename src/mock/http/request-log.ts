import type { IncomingMessage, ServerResponse } from "node:http";

/**
 * Tells `log` of a request once its answer is written: `GET /api/v1/object/template_base 200 2ms`.
 * The target is read now, since a raw route's Express router rewrites `request.url` while it routes.
 */
export function logWhenFinished(request: IncomingMessage, response: ServerResponse, receivedAt: number, log: (line: string) => void): void {
  const line = `${request.method} ${request.url}`;
  response.once("finish", () => log(`${line} ${response.statusCode} ${Math.round(performance.now() - receivedAt)}ms`));
}
