import type { Answer } from "../../mock/http/answer-requests.ts";
import type { BodyRead, MockRequest } from "../../mock/http/mock-request.ts";
import { bodyOf, contentTypeOf } from "../../mock/http/reply.ts";

/**
 * A fetch `Request` as the core's {@link MockRequest}: what MSW's resolvers get, in a service worker or in
 * Node's interceptors alike. `path` is the mock's own path (the base URL's prefix taken off). The body is read
 * when the core asks for it; one announced past the limit is not read at all.
 */
export function mockRequestOf(request: Request, path: string, search: string): MockRequest {
  const headers: Record<string, string> = {};
  request.headers.forEach((value, name) => {
    headers[name] = value;
  });
  // A fetch Request carries no Host header: the host is the URL's, as a server would have been sent it.
  headers.host ??= new URL(request.url).host;
  return {
    method: request.method.toUpperCase(),
    url: `${path}${search}`,
    path,
    query: search.slice(1),
    headers,
    readBody: async (limit): Promise<BodyRead> => {
      const declared = Number(headers["content-length"]);
      if (Number.isFinite(declared) && declared > limit) return { kind: "too-large" };
      if (request.body === null) return { kind: "empty" };
      let bytes: Uint8Array;
      try {
        bytes = new Uint8Array(await request.arrayBuffer());
      } catch {
        return { kind: "aborted" };
      }
      if (bytes.byteLength === 0) return { kind: "empty" };
      return bytes.byteLength > limit ? { kind: "too-large" } : { kind: "bytes", bytes };
    },
    discardBody: () => {},
  };
}

/**
 * The core's answer as a fetch `Response`: the same status, content-type and body bytes the Node host writes
 * (reply.ts gives both), and a network error where a fault rule drops the connection.
 */
export function responseOf(answer: Answer): Response {
  const reply = answer?.reply;
  if (!reply) return Response.error();
  const headers = new Headers(reply.headers);
  headers.set("content-type", contentTypeOf(reply));
  const body = bodyOf(reply);
  return new Response(typeof body === "string" ? body : (body as Uint8Array<ArrayBuffer>), {
    status: reply.status,
    headers,
  });
}
