import type { ServerResponse } from "node:http";
import { bodyOf, contentTypeOf, type Reply } from "../../mock/http/reply.ts";
import { replySent } from "./request-log.ts";

const NO_HEADERS: readonly string[] = [];

/**
 * Writes a reply on a Node response (the Node host's side of reply.ts), after `headers` (a flat list of names
 * and values: the CORS headers, cors.ts), in one `writeHead`. Headers a page set on the response before are
 * kept, and `headers` then left out if the first of them is among those (a page that set the CORS headers itself).
 * The request log, if it waits for this response, is given the reply written (request-log.ts).
 */
export function send(response: ServerResponse, reply: Reply, headers: readonly string[] = NO_HEADERS): void {
  replySent(response, reply);
  const list = headers.length > 0 && !response.hasHeader(headers[0]!) ? headers.slice() : [];
  if (reply.headers) for (const [name, value] of Object.entries(reply.headers)) list.push(name, value);
  const body = bodyOf(reply);
  // Given with the head, which Node writes before it sees the body: else it would send the body chunked.
  const length = typeof body === "string" ? Buffer.byteLength(body) : body.byteLength;
  list.push("content-type", contentTypeOf(reply), "content-length", String(length));
  response.writeHead(reply.status, list);
  response.end(body);
}
