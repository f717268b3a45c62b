import { failure, success, type FieldError, type Outcome } from "../problems.ts";
import { readAdminJson } from "../http/read-admin-json.ts";
import type { RequestJournal } from "../services/request-journal.ts";
import { MAX_DELAY_MS } from "../services/delay-limit.ts";
import type { Latency } from "../services/latency.ts";
import type { MockRequest } from "../http/mock-request.ts";
import { discardBody } from "../http/read-body.ts";
import { okReply, problemReply, type Reply } from "../http/reply.ts";
import type { Coverage } from "./coverage.ts";
import { detail, summarize } from "./journal-view.ts";

/** The most calls `GET /__admin/journal` lists: the newest, which is what a page shows. */
export const MAX_LISTED_CALLS = 500;
/** A latency is two numbers; a larger body is not one. */
const LATENCY_BODY_LIMIT = 1024;
const JOURNAL_PREFIX = "/__admin/journal/";

/** The `--latency` in use, which the console (and `PUT /__admin/latency`) changes while the mock runs. */
export interface LatencyControl {
  get(): Latency | undefined;
  set(latency: Latency | undefined): void;
}

/** What the console's routes read and steer. */
export interface ConsoleRoutesDeps {
  journal: RequestJournal;
  coverage: Coverage;
  latency: LatencyControl;
}

/**
 * Answers a request the console's routes own, behind the admin guard, or gives `false` when the path is not
 * theirs (the admin routes then go on); `undefined` when the client left before its body was read.
 */
export type ConsoleRoutes = (request: MockRequest, path: string) => false | Reply | Promise<Reply | undefined>;

/**
 * The admin routes the console reads and steers through, host-neutral: `GET /__admin/journal` (the newest
 * calls, summed up), `GET /__admin/journal/<id>` (one call, request and answer, with a curl line),
 * `GET`/`DELETE /__admin/coverage`, and `GET`/`PUT`/`DELETE /__admin/latency`. The live journal
 * (`/__admin/events`, server-sent events) is the Node host's, over the journal's subscription.
 */
export function createConsoleRoutes(deps: ConsoleRoutesDeps): ConsoleRoutes {
  const latencyReply = () => okReply({ latency: deps.latency.get() ?? null });
  return (request, path) => {
    const { method } = request;
    if (path === "/__admin/journal") {
      if (method !== "GET" && method !== "HEAD") return notAllowed(request, path, "GET, HEAD");
      discardBody(request);
      const calls = deps.journal.calls();
      return okReply({ calls: calls.slice(-MAX_LISTED_CALLS).map(summarize), held: calls.length });
    }
    if (path.startsWith(JOURNAL_PREFIX)) {
      if (method !== "GET" && method !== "HEAD") return notAllowed(request, path, "GET, HEAD");
      discardBody(request);
      const id = path.slice(JOURNAL_PREFIX.length);
      const call = /^[1-9][0-9]{0,14}$/.test(id) ? deps.journal.call(Number(id)) : undefined;
      if (!call)
        return problemReply(
          {
            problem: "notFound",
            detail:
              `The journal holds no call ${JSON.stringify(id.slice(0, 100))} (a reset empties it, and it keeps ` +
              `the newest calls only).`,
          },
          path,
        );
      return okReply(detail(call));
    }
    if (path === "/__admin/coverage") {
      if (method !== "GET" && method !== "HEAD" && method !== "DELETE")
        return notAllowed(request, path, "GET, HEAD, DELETE");
      discardBody(request);
      if (method === "DELETE") deps.coverage.clear();
      return okReply(deps.coverage.report());
    }
    if (path === "/__admin/latency") {
      if (method === "GET" || method === "HEAD" || method === "DELETE") {
        discardBody(request);
        if (method === "DELETE") deps.latency.set(undefined);
        return latencyReply();
      }
      if (method !== "PUT") return notAllowed(request, path, "GET, HEAD, PUT, DELETE");
      return setLatency(request, path, deps.latency);
    }
    return false;
  };
}

async function setLatency(request: MockRequest, path: string, control: LatencyControl): Promise<Reply | undefined> {
  // JSON only (415 otherwise) is the admin guard's rule for every admin write, checked before this runs.
  const parsed = await readAdminJson(request, LATENCY_BODY_LIMIT, path, {
    tooLarge: `A latency must be under ${LATENCY_BODY_LIMIT} bytes.`,
    empty: 'The body is empty; send {"min": 200} or {"min": 100, "max": 400}.',
  });
  if (!parsed.ok) return parsed.reply;
  const latency = readLatency(parsed.value);
  if (!latency.ok) return problemReply(latency.failure, path);
  control.set(latency.value);
  return okReply({ latency: latency.value });
}

/** `{"min": 200}` (fixed) or `{"min": 100, "max": 400}` (drawn in between), whole milliseconds, strictly read. */
export function readLatency(input: unknown): Outcome<Latency> {
  if (input === null || typeof input !== "object" || Array.isArray(input)) {
    return failure("invalidLatency", 'A latency is a JSON object such as {"min": 200} or {"min": 100, "max": 400}.');
  }
  const body = input as Record<string, unknown>;
  const errors: FieldError[] = [];
  for (const field of Object.keys(body)) {
    if (field !== "min" && field !== "max")
      errors.push({
        in: "body",
        pointer: `/${field.slice(0, 100).replace(/~/g, "~0").replace(/\//g, "~1")}`,
        detail: "is not a field of a latency (min, max)",
      });
  }
  const whole = (value: unknown): value is number =>
    typeof value === "number" && Number.isInteger(value) && value >= 0 && value <= MAX_DELAY_MS;
  if (!whole(body.min))
    errors.push({ in: "body", pointer: "/min", detail: `must be whole milliseconds from 0 to ${MAX_DELAY_MS}` });
  if (body.max !== undefined && !whole(body.max))
    errors.push({
      in: "body",
      pointer: "/max",
      detail: `must be whole milliseconds from 0 to ${MAX_DELAY_MS}, or left out for a fixed latency`,
    });
  if (errors.length === 0 && whole(body.min) && whole(body.max) && body.max < body.min)
    errors.push({ in: "body", pointer: "/max", detail: "must not be less than min" });
  if (errors.length > 0)
    return failure(
      "invalidLatency",
      `The latency is wrong in ${errors.length === 1 ? "1 field" : `${errors.length} fields`}.`,
      errors.slice(0, 20),
    );
  const min = body.min as number;
  return success({ min, max: (body.max as number | undefined) ?? min });
}

function notAllowed(request: MockRequest, path: string, allow: string): Reply {
  discardBody(request);
  return problemReply(
    { problem: "methodNotAllowed", detail: `${request.method} is not a method of ${path}; it allows ${allow}.` },
    path,
    { Allow: allow },
  );
}
