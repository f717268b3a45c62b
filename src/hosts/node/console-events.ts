import type { IncomingMessage, ServerResponse } from "node:http";
import { summarize } from "../../mock/console/journal-view.ts";
import type { JournaledCall, RequestJournal } from "../../mock/services/request-journal.ts";
import { problemReply } from "../../mock/http/reply.ts";
import { send } from "./send-reply.ts";

/** Where the live journal is served, behind the admin guard (token included). */
export const EVENTS_PATH = "/__admin/events";
/** The most consoles that follow the journal at once; one more is told 503. */
export const MAX_CONSOLE_VIEWERS = 8;
/** Bytes waiting to be written to one console; a console that reads slower than this is let go (it reconnects). */
export const MAX_VIEWER_BACKLOG = 256 * 1024;
/** A comment line this often keeps proxies from closing a quiet stream and finds consoles that are gone. */
const HEARTBEAT_MS = 15_000;

/**
 * `GET /__admin/events`: the request journal live, as server-sent events (the Node host's: it holds a response
 * open), for the console, behind the admin guard (route-table.ts). Each call is sent when it arrives (`status`
 * null) and again once it is over (`event: call`, its summary: never a credential); `event: cleared` when a reset
 * empties the journal. The
 * journal is subscribed to only while a console follows it, so a mock nobody watches pays nothing per request;
 * each event is encoded once for every console. At most {@link MAX_CONSOLE_VIEWERS} consoles, each with at most
 * {@link MAX_VIEWER_BACKLOG} bytes waiting; a console that leaves is dropped.
 */
export function createConsoleEvents(
  journal: RequestJournal,
): (request: IncomingMessage, response: ServerResponse) => void {
  const viewers = new Set<ServerResponse>();
  let unsubscribe: (() => void) | undefined;

  const leave = (viewer: ServerResponse): void => {
    if (!viewers.delete(viewer)) return;
    if (viewers.size === 0) {
      unsubscribe?.();
      unsubscribe = undefined;
    }
  };
  const broadcast = (event: "arrived" | "answered" | "cleared", call: JournaledCall | undefined): void => {
    const text =
      event === "cleared"
        ? "event: cleared\ndata: {}\n\n"
        : `event: call\ndata: ${JSON.stringify(summarize(call!))}\n\n`;
    for (const viewer of viewers) {
      if (viewer.writableLength > MAX_VIEWER_BACKLOG) {
        leave(viewer);
        viewer.destroy();
      } else viewer.write(text);
    }
  };

  return (request, response) => {
    request.resume();
    if (request.method !== "GET") {
      return send(
        response,
        problemReply(
          {
            problem: "methodNotAllowed",
            detail: `${request.method} is not a method of ${EVENTS_PATH}; it allows GET.`,
          },
          EVENTS_PATH,
          { Allow: "GET" },
        ),
      );
    }
    if (viewers.size >= MAX_CONSOLE_VIEWERS) {
      return send(
        response,
        problemReply(
          {
            problem: "tooManyConsoleViewers",
            detail:
              `At most ${MAX_CONSOLE_VIEWERS} consoles follow the journal at once; ` +
              "close one, or read GET /__admin/journal.",
          },
          EVENTS_PATH,
          { "Retry-After": "5" },
        ),
      );
    }
    response.writeHead(200, {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
    });
    response.write("retry: 2000\n\nevent: ready\ndata: {}\n\n");
    viewers.add(response);
    unsubscribe ??= journal.subscribe(broadcast);
    const heartbeat = setInterval(() => response.write(": keep-alive\n\n"), HEARTBEAT_MS);
    heartbeat.unref();
    response.on("close", () => {
      clearInterval(heartbeat);
      leave(response);
    });
  };
}
