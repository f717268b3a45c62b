import type { IncomingMessage, ServerResponse } from "node:http";
import type { ProblemBody } from "../../mock/problems.ts";
import { problemOf, type Reply } from "../../mock/http/reply.ts";
import { requestLogLine, type LoggedRequest } from "./request-log-line.ts";

/** What the log needs of a request once its answer is written. */
interface Pending {
  method: string;
  url: string;
  receivedAt: number;
  log: (line: string) => void;
  now: () => number;
  format: (request: LoggedRequest) => string;
  /** The problem the reply written stood for, if it was one (told by {@link replySent}). */
  problem: ProblemBody | undefined;
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
    problem: undefined,
  };
  response.on("finish", finished);
}

/**
 * The reply written on a response (send-reply.ts), whose problem the response's log line names: taken from the
 * reply itself, kept on the entry that waits for the response to finish. Nothing when the request is not logged.
 */
export function replySent(response: ServerResponse, reply: Reply): void {
  const entry = (response as Logged)[PENDING];
  if (entry) entry.problem = problemOf(reply);
}

function finished(this: Logged): void {
  const request = this[PENDING];
  if (!request) return;
  this[PENDING] = undefined;
  const { problem } = request;
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
