import type { IncomingMessage, ServerResponse } from "node:http";
import { problemSent } from "./send-reply.ts";
import { requestLogLine, type LoggedRequest } from "./request-log-line.ts";

/** What the log needs of a request once its answer is written. */
interface Pending {
  method: string;
  url: string;
  receivedAt: number;
  log: (line: string) => void;
  now: () => number;
  format: (request: LoggedRequest) => string;
}

/** Where a response keeps its pending log entry until it finishes (a property: no weak map to look it up in). */
const PENDING = Symbol("request log entry");
type Logged = ServerResponse & { [PENDING]?: Pending | undefined };

/**
 * Tells `log` of a request once its answer is written, in `format` ({@link requestLogLine} unless given), with
 * the time of `now`.
 * The target is read now, since a raw route's Express router rewrites `request.url` while it routes. One handler
 * serves every response (no closure and no `once` wrapper per request: this runs for every request the mock
 * answers while it logs).
 */
export function logWhenFinished(
  request: IncomingMessage,
  response: ServerResponse,
  receivedAt: number,
  log: (line: string) => void,
  now: () => number = Date.now,
  format: (request: LoggedRequest) => string = requestLogLine,
): void {
  (response as Logged)[PENDING] = {
    method: request.method ?? "GET",
    url: request.url ?? "/",
    receivedAt,
    log,
    now,
    format,
  };
  response.on("finish", finished);
}

function finished(this: Logged): void {
  const request = this[PENDING];
  if (!request) return;
  this[PENDING] = undefined;
  const problem = problemSent(this);
  request.log(
    request.format({
      at: request.now(),
      method: request.method,
      url: request.url,
      status: this.statusCode,
      durationMs: performance.now() - request.receivedAt,
      ...(problem ? { problem } : {}),
    }),
  );
}
