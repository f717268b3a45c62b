import type { IncomingMessage, ServerResponse } from "node:http";
import { pathOf, queryOf, type BodyRead, type MockRequest } from "../../mock/http/mock-request.ts";

/**
 * Node's side of a {@link MockRequest}: the request line and headers as `node:http` parsed them, and a body read
 * from the stream only when the core asks for it, stopped at the limit. One small object per request, with no
 * function made for it (this is on every request's path).
 */
export class NodeRequest implements MockRequest {
  readonly method: string;
  readonly url: string;
  readonly path: string;
  readonly headers: IncomingMessage["headers"];

  constructor(
    readonly incoming: IncomingMessage,
    readonly response: ServerResponse,
  ) {
    this.method = incoming.method ?? "GET";
    this.url = incoming.url ?? "/";
    this.path = pathOf(this.url);
    this.headers = incoming.headers;
  }

  /**
   * Read by the few routes that take a query (the journal's filter, `/__db`), so a GET of the API does not split it.
   */
  get query(): string {
    return queryOf(this.url);
  }

  readBody(limit: number): Promise<BodyRead> {
    return readNodeBody(this.incoming, limit);
  }

  discardBody(): void {
    this.incoming.resume();
  }

  onLeave(left: () => void): () => void {
    const response = this.response;
    if (response.destroyed) {
      left();
      return () => {};
    }
    response.once("close", left);
    return () => response.off("close", left);
  }
}

/**
 * Reads a request body from Node's stream into memory, up to `limit` bytes. A larger body is not buffered:
 * reading stops, the rest is discarded, and the caller answers 413.
 */
export function readNodeBody(request: IncomingMessage, limit: number): Promise<BodyRead> {
  const declared = Number(request.headers["content-length"]);
  if (Number.isFinite(declared) && declared > limit) {
    request.resume();
    return Promise.resolve({ kind: "too-large" });
  }
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const settle = (result: BodyRead) => {
      if (settled) return;
      settled = true;
      request.off("data", onData);
      resolve(result);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        settle({ kind: "too-large" });
        request.resume();
        return;
      }
      chunks.push(chunk);
    };
    request.on("data", onData);
    request.on("end", () =>
      settle(size === 0 ? { kind: "empty" } : { kind: "bytes", bytes: Buffer.concat(chunks, size) }),
    );
    request.on("error", () => settle({ kind: "aborted" }));
    request.on("aborted", () => settle({ kind: "aborted" }));
  });
}
