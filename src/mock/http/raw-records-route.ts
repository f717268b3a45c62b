import type { IncomingMessage } from "node:http";
import { mediaTypeOf } from "../../contract/create-contract.ts";
import type { Outcome } from "../problems.ts";
import type { RawRecordService } from "../services/raw-records.ts";
import { discardBody, parseJson, readBody } from "./read-body.ts";
import { okReply, problemReply, type Reply } from "./reply.ts";

/** Collaborators of {@link createRawRecordsRoute}. */
export interface RawRecordsRouteDeps {
  raw: RawRecordService;
  /** Largest request body accepted, in bytes. */
  bodyLimit: number;
}

/** Answers one request under `/__db`; undefined when the client left before its body was read. */
export type RawRecordsRoute = (request: IncomingMessage, path: string, query: URLSearchParams) => Promise<Reply | undefined>;

/**
 * The raw records under `/__db`, json-server 0.17's REST routes (`GET /__db/properties?uid=1`, `POST
 * /__db/agents`, `PUT`/`PATCH`/`DELETE /__db/documents/1004`), translated to {@link RawRecordService} calls. It
 * reads only JSON bodies, within the body limit; everything else is the service's.
 */
export function createRawRecordsRoute(deps: RawRecordsRouteDeps): RawRecordsRoute {
  const { raw } = deps;
  return async (request, path, query) => {
    const method = request.method === "HEAD" ? "GET" : (request.method ?? "GET");
    const segments = path.slice("/__db/".length).split("/").map(decodeSegment);
    const [collection, id, ...rest] = segments;
    if (!collection || rest.length > 0 || id === "" || id === null || segments.includes(null)) {
      discardBody(request);
      return problemReply({ problem: "notFound", detail: "Raw records live at /__db/<collection> and /__db/<collection>/<id>; the collections are accounts, properties, agents and documents." }, path);
    }
    if (id === undefined) {
      if (method === "GET") {
        discardBody(request);
        const listed = raw.list(collection, query);
        if (!listed.ok) return problemReply(listed.failure, path);
        const { records, total } = listed.value;
        return { ...okReply(records), ...(total === undefined ? {} : { headers: { "X-Total-Count": String(total) } }) };
      }
      if (method !== "POST") return notAllowed(request, path, "GET, POST");
      const body = await readJsonBody(request, deps.bodyLimit, path);
      if (body.kind === "reply") return body.reply;
      const created = raw.create(collection, body.value);
      return created.ok ? { ...okReply(created.value), status: 201 } : problemReply(created.failure, path);
    }
    switch (method) {
      case "GET":
        discardBody(request);
        return reply(raw.get(collection, id), path);
      case "DELETE":
        discardBody(request);
        return reply(raw.remove(collection, id), path);
      case "PUT":
      case "PATCH": {
        const body = await readJsonBody(request, deps.bodyLimit, path);
        if (body.kind === "reply") return body.reply;
        return reply(method === "PUT" ? raw.replace(collection, id, body.value) : raw.patch(collection, id, body.value), path);
      }
      default:
        return notAllowed(request, path, "GET, PUT, PATCH, DELETE");
    }
  };
}

/** Reads a raw write's JSON body (the admin guard has already refused any other media type). */
async function readJsonBody(request: IncomingMessage, limit: number, path: string): Promise<{ kind: "json"; value: unknown } | { kind: "reply"; reply: Reply | undefined }> {
  const media = mediaTypeOf(request.headers["content-type"]);
  const read = await readBody(request, limit);
  if (read.kind === "aborted") return { kind: "reply", reply: undefined };
  if (read.kind === "too-large") {
    return { kind: "reply", reply: problemReply({ problem: "payloadTooLarge", detail: `The request body exceeds ${limit} bytes.` }, path, { Connection: "close" }) };
  }
  if (read.kind === "empty") return { kind: "json", value: undefined };
  if (media !== "application/json") {
    return { kind: "reply", reply: problemReply({ problem: "unsupportedMediaType", detail: `Raw records are sent as application/json, not ${media ?? "without a content-type"}.` }, path) };
  }
  const parsed = parseJson(read.bytes);
  if (!parsed.ok) return { kind: "reply", reply: problemReply({ problem: parsed.tooDeep ? "invalidRequest" : "malformedJson", detail: parsed.reason, errors: [{ in: "body", pointer: "", detail: parsed.reason }] }, path) };
  return { kind: "json", value: parsed.value };
}

function reply<T>(outcome: Outcome<T>, path: string): Reply {
  return outcome.ok ? okReply(outcome.value) : problemReply(outcome.failure, path);
}

function notAllowed(request: IncomingMessage, path: string, allowed: string): Reply {
  discardBody(request);
  return problemReply({ problem: "methodNotAllowed", detail: `${request.method} is not a method of ${path}; it allows ${allowed}.` }, path, { Allow: allowed });
}

/** A path segment decoded, or null when its percent-encoding is broken. */
function decodeSegment(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}
