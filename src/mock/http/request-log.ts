import type { IncomingMessage, ServerResponse } from "node:http";
import { problemSent } from "./reply.ts";
import { requestLogLine } from "./request-log-line.ts";

/**
 * Tells `log` of a request once its answer is written (see {@link requestLogLine}), with the time of `now`.
 * The target is read now, since a raw route's Express router rewrites `request.url` while it routes.
 */
export function logWhenFinished(request: IncomingMessage, response: ServerResponse, receivedAt: number, log: (line: string) => void, now: () => number = Date.now): void {
  const method = request.method ?? "GET";
  const url = request.url ?? "/";
  response.once("finish", () => {
    const problem = problemSent(response);
    log(requestLogLine({ at: now(), method, url, status: response.statusCode, durationMs: performance.now() - receivedAt, ...(problem ? { problem } : {}) }));
  });
}
