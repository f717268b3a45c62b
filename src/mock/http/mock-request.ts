/** What reading a request body gave. */
export type BodyRead =
  | { kind: "empty" }
  | { kind: "bytes"; bytes: Uint8Array }
  | { kind: "too-large" }
  | { kind: "aborted" };

/** Request headers by lower-case name, as Node's `IncomingMessage` and a fetch `Request` both give them. */
export type RequestHeaders = Readonly<Record<string, string | string[] | undefined>>;

/** A header's value by its lower-case name, the first one when it was sent several times. */
export function firstHeader(headers: RequestHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * One request as the mock's core sees it, whatever host delivered it (a Node server, MSW's `setupWorker` or
 * `setupServer`, a test): the request line, the headers, and the body, read only when an operation takes one.
 * Reading is a method so that the Node host can stop reading a body past the limit instead of buffering it;
 * any other host hands over the bytes it has ({@link plainRequest}).
 */
export interface MockRequest {
  readonly method: string;
  /** The request target: path and query (`/api/v1/object/property/42?x=1`). */
  readonly url: string;
  /** The target's path, without the query: split once, where the request enters ({@link pathOf}). */
  readonly path: string;
  /** The target's query, after the `?` (empty when there is none; {@link queryOf}). */
  readonly query: string;
  readonly headers: RequestHeaders;
  /** The body, up to `limit` bytes; a larger one is `too-large` and is not kept. */
  readBody(limit: number): Promise<BodyRead>;
  /** Lets go of a body the mock does not read. */
  discardBody(): void;
  /**
   * Calls `left` when the client goes away before it is answered (a Node connection closed); the returned
   * function stops listening. Undefined in hosts where a client cannot leave midway.
   */
  onLeave?(left: () => void): () => void;
}

/** A plain request value: what a host with the whole request at hand gives the core. */
export interface PlainRequest {
  method: string;
  /** Path and query; an absolute URL is reduced to them. */
  url: string;
  /** Header names in any case. */
  headers?: Record<string, string | string[] | undefined> | Iterable<[string, string]>;
  /** The body's bytes (or text, read as UTF-8); none or empty is no body. */
  body?: Uint8Array | ArrayBuffer | string | undefined;
}

const utf8 = new TextEncoder();

/** A {@link MockRequest} over a plain value. */
export function plainRequest(request: PlainRequest): MockRequest {
  const headers: Record<string, string | string[] | undefined> = {};
  const entries =
    request.headers === undefined
      ? []
      : Symbol.iterator in request.headers
        ? request.headers
        : Object.entries(request.headers);
  for (const [name, value] of entries as Iterable<[string, string | string[] | undefined]>) {
    if (value !== undefined) headers[name.toLowerCase()] = value;
  }
  const bytes =
    typeof request.body === "string"
      ? utf8.encode(request.body)
      : request.body instanceof ArrayBuffer
        ? new Uint8Array(request.body)
        : request.body;
  const url = targetOf(request.url);
  return {
    method: request.method.toUpperCase(),
    url,
    path: pathOf(url),
    query: queryOf(url),
    headers,
    readBody: (limit) =>
      Promise.resolve(
        !bytes || bytes.byteLength === 0
          ? { kind: "empty" }
          : bytes.byteLength > limit
            ? { kind: "too-large" }
            : { kind: "bytes", bytes },
      ),
    discardBody: () => {},
  };
}

/** A request target's path, without the query: what each host gives the core as the request enters. */
export function pathOf(url: string): string {
  const at = url.indexOf("?");
  return at === -1 ? url : url.slice(0, at);
}

/** A request target's query, after the `?` (empty when there is none). */
export function queryOf(url: string): string {
  const at = url.indexOf("?");
  return at === -1 ? "" : url.slice(at + 1);
}

/** The path and query of a request target, which may be an absolute URL. */
function targetOf(url: string): string {
  if (url.startsWith("/")) return url;
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
}
