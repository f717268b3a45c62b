/**
 * The HTTP layer: finds which of the fifteen endpoints of section 4 a request names, authenticates it, reads its
 * JSON body and hands it to the books. Paths are matched exactly as section 4 writes them (with the trailing slash
 * of `agent_card/` and `document/` on create). Served two ways: on plain node:http, and as a `fetch` function that
 * answers in this process (a run that judges answers, not the network, spends no CPU on sockets: the runner's
 * network is tested against the node:http server, test/contract/runner-network.test.ts).
 */
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from "node:http";
import { authenticate, type Account, type Accounts, type AuthHoles } from "./accounts.ts";
import type { AgentBook } from "./agent-book.ts";
import type { DocumentBook } from "./document-book.ts";
import type { PropertyBook } from "./property-book.ts";
import { malformed, notFound, ok, refused, restyle, type Reply } from "./reply.ts";
import { catalogueAnswer } from "./template-catalogue.ts";
import type { Faults } from "./variants.ts";

/** Everything the routes reach. */
export interface ServiceParts {
  accounts: Accounts;
  properties: PropertyBook;
  agents: AgentBook;
  documents: DocumentBook;
  faults: Faults;
}

type Handler = (caller: Account, param: string, body: unknown) => Reply;

interface Route {
  endpoint: number;
  method: string;
  path: RegExp;
  handle: Handler;
}

const PREFIX = "/api/v1/object";
const MAX_BODY_BYTES = 64 * 1024;

function routes({ properties, agents, documents, faults }: ServiceParts): Route[] {
  const id = "([^/]+)";
  const at = (path: string) => new RegExp(`^${PREFIX}${path}$`);
  return [
    { endpoint: 1, method: "GET", path: at(`/property/${id}`), handle: (c, p) => properties.retrieve(c, p) },
    {
      endpoint: 2,
      method: "GET",
      path: at(`/external-property/${id}`),
      handle: (c, p) => properties.retrieveByExternalId(c, p),
    },
    { endpoint: 3, method: "POST", path: at("/property"), handle: (c, _p, b) => properties.create(c, b) },
    { endpoint: 4, method: "PUT", path: at(`/property/${id}`), handle: (c, p, b) => properties.edit(c, p, b) },
    { endpoint: 5, method: "GET", path: at(`/properties/${id}`), handle: (c, p) => properties.listByUser(c, p) },
    { endpoint: 6, method: "POST", path: at(`/agent_card/${id}`), handle: (c, p) => agents.retrieve(c, p) },
    { endpoint: 7, method: "POST", path: at("/agent_card/"), handle: (c, _p, b) => agents.create(c, b) },
    { endpoint: 8, method: "PUT", path: at(`/agent_card/${id}`), handle: (c, p, b) => agents.update(c, p, b) },
    { endpoint: 9, method: "DELETE", path: at(`/agent_card/${id}`), handle: (c, p) => agents.remove(c, p) },
    { endpoint: 10, method: "GET", path: at("/agent_cards"), handle: (c) => agents.list(c) },
    { endpoint: 11, method: "POST", path: at("/document/"), handle: (c, _p, b) => documents.create(c, b) },
    { endpoint: 12, method: "PUT", path: at(`/document/${id}`), handle: (c, p, b) => documents.update(c, p, b) },
    { endpoint: 13, method: "GET", path: at(`/document/${id}`), handle: (c, p) => documents.retrieve(c, p) },
    { endpoint: 14, method: "DELETE", path: at(`/document/${id}`), handle: (c, p) => documents.remove(c, p) },
    { endpoint: 15, method: "GET", path: at("/template_base"), handle: () => ok(catalogueAnswer(faults)) },
  ];
}

/** The one authentication hole a variant opens, on its one endpoint (section 5 names endpoints 1-5 and 15). */
function holesFor(endpoint: number, faults: Faults): AuthHoles {
  return {
    noKey: (endpoint === 1 && faults.on("auth-ep1-no-key")) || (endpoint === 15 && faults.on("auth-ep15-no-key")),
    noToken: endpoint === 2 && faults.on("auth-ep2-no-token"),
    wrongToken: endpoint === 4 && faults.on("auth-ep4-wrong-token"),
    foreignToken:
      (endpoint === 3 && faults.on("auth-ep3-foreign-token")) ||
      (endpoint === 5 && faults.on("auth-ep5-foreign-token")),
  };
}

/** Endpoints whose `content-type: application/json` header the document calls required (4.1, 4.4). */
const NEEDS_JSON_CONTENT_TYPE = new Set([1, 2, 3, 4, 5, 15]);

/** A request as the routes read it, from either transport. */
interface ServiceRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: { text: string } | { tooLarge: true };
}

function readBody(req: IncomingMessage): Promise<{ text: string } | { tooLarge: true }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    req.on("end", () =>
      resolve(size > MAX_BODY_BYTES ? { tooLarge: true } : { text: Buffer.concat(chunks).toString("utf8") }),
    );
    req.on("error", reject);
  });
}

function answer(req: ServiceRequest, parts: ServiceParts, table: Route[]): Reply {
  const pathname = new URL(req.url, "http://service.invalid").pathname;
  const matching = table.filter((r) => r.path.test(pathname));
  const route = matching.find((r) => r.method === req.method);
  const read = req.body;
  if (route === undefined) {
    return matching.length > 0
      ? refused(405, `method ${req.method} not allowed here`)
      : notFound(`no endpoint at ${pathname}`);
  }
  const caller = authenticate(req.headers, parts.accounts, holesFor(route.endpoint, parts.faults));
  if ("status" in caller) return caller;
  if (NEEDS_JSON_CONTENT_TYPE.has(route.endpoint)) {
    const type = (req.headers["content-type"] ?? "").split(";")[0]?.trim().toLowerCase();
    if (type !== "application/json") return refused(415, "content-type must be application/json");
  }
  if ("tooLarge" in read) return refused(413, `body over ${MAX_BODY_BYTES} bytes`);
  let body: unknown;
  if (read.text.trim() !== "") {
    try {
      body = JSON.parse(read.text);
    } catch {
      return malformed("body is not JSON");
    }
  }
  let param = "";
  const raw = route.path.exec(pathname)?.[1];
  if (raw !== undefined) {
    try {
      param = decodeURIComponent(raw);
    } catch {
      return malformed("path parameter is not valid percent-encoding");
    }
  }
  return route.handle(caller, param, body);
}

/** The reply to a request, restyled as the variant answers, with its headers. */
function respond(
  req: ServiceRequest,
  parts: ServiceParts,
  table: Route[],
): { status: number; headers: Record<string, string>; json: string } {
  let given: Reply;
  try {
    given = answer(req, parts, table);
  } catch (error) {
    given = { status: 500, json: JSON.stringify({ error: `bug: ${String(error)}` }) };
  }
  const reply = restyle(given, parts.faults);
  // Header names in unusual case: HTTP header names are case-insensitive.
  const headers: Record<string, string> = {
    "Content-TYPE": parts.faults.chooses("no-charset") ? "application/json" : "application/json; charset=utf-8",
  };
  if (!parts.faults.chooses("no-extra-fields")) headers["X-Listing-SERVICE"] = "independent";
  return { status: reply.status, headers, json: reply.json };
}

/** A node:http server answering the fifteen endpoints; listening is the caller's business. */
export function createHttpServer(parts: ServiceParts): Server {
  const table = routes(parts);
  return createServer((req: IncomingMessage, res: ServerResponse) => {
    // Every failure is caught and answered above; writing the answer cannot reject.
    void readBody(req)
      .then((body) =>
        respond({ method: req.method ?? "GET", url: req.url ?? "/", headers: req.headers, body }, parts, table),
      )
      .catch((error: unknown) => ({
        status: 500,
        headers: {},
        json: JSON.stringify({ error: `bug: ${String(error)}` }),
      }))
      .then((reply) => {
        res.statusCode = reply.status;
        for (const [name, value] of Object.entries(reply.headers)) res.setHeader(name, value);
        res.end(reply.json);
      });
  });
}

/**
 * The same service as a `fetch` function answering in this process: the request as fetch makes it (its headers
 * checked and joined by the Fetch standard, as undici sends them), the answer a `Response`.
 */
export function createServiceFetch(parts: ServiceParts): typeof globalThis.fetch {
  const table = routes(parts);
  return async (input, init) => {
    const request = plainRequest(input, init) ?? (await throughRequest(new Request(input, init)));
    const reply = respond(request, parts, table);
    return new Response(request.method === "HEAD" ? null : reply.json, {
      status: reply.status,
      headers: reply.headers,
    });
  };
}

/** What a `Request` carries, as the books read it: its text (or that it is too large), its headers as a record. */
async function throughRequest(request: Request): Promise<ServiceRequest> {
  const bytes = new Uint8Array(await request.arrayBuffer());
  const body = bytes.length > MAX_BODY_BYTES ? { tooLarge: true as const } : { text: new TextDecoder().decode(bytes) };
  const url = new URL(request.url);
  return { method: request.method, url: url.pathname + url.search, headers: Object.fromEntries(request.headers), body };
}

/** Methods a `Request` keeps as written (it upper-cases the other spellings of the first six). */
const PLAIN_METHODS = new Set(["GET", "HEAD", "POST", "PUT", "DELETE", "OPTIONS", "PATCH"]);
const PLAIN_INIT = new Set(["method", "headers", "body", "signal", "redirect"]);
const REDIRECTS = new Set([undefined, "follow", "manual", "error"]);

/**
 * The request of a fetch call made the plain way the runner makes every one (an absolute URL, a record of headers,
 * a text body), read straight from its arguments: what `throughRequest` would give, without building a `Request`
 * and its streams, which cost more than the service's answer. Undefined for any other call, which goes through a
 * `Request` (and meets its refusals: a body on a GET, a method it does not send).
 */
function plainRequest(input: Parameters<typeof fetch>[0], init: RequestInit | undefined): ServiceRequest | undefined {
  const { method = "GET", headers, body, signal, redirect } = init ?? {};
  if (typeof input !== "string" || !PLAIN_METHODS.has(method) || !REDIRECTS.has(redirect)) return undefined;
  if (init !== undefined && Object.keys(init).some((key) => !PLAIN_INIT.has(key))) return undefined;
  if (signal !== undefined && signal !== null && !(signal instanceof AbortSignal)) return undefined;
  if (headers !== undefined && (headers === null || Object.getPrototypeOf(headers) !== Object.prototype))
    return undefined;
  if (body !== undefined && body !== null && (typeof body !== "string" || method === "GET" || method === "HEAD"))
    return undefined;
  // Parsed once: a URL that does not parse goes through a Request, which refuses it.
  const url = URL.parse(input);
  if (url === null || url.username !== "" || url.password !== "") return undefined;
  // Checked and joined as a Request's headers are; a text body without a content-type is announced as text.
  const fields = new Headers(headers);
  if (typeof body === "string" && !fields.has("content-type")) fields.set("content-type", "text/plain;charset=UTF-8");
  // Sent as UTF-8, a lone surrogate becomes U+FFFD.
  const text =
    typeof body !== "string" ? "" : /\p{Surrogate}/u.test(body) ? Buffer.from(body, "utf8").toString("utf8") : body;
  const sent = Buffer.byteLength(text, "utf8") > MAX_BODY_BYTES ? { tooLarge: true as const } : { text };
  return { method, url: url.pathname + url.search, headers: Object.fromEntries(fields), body: sent };
}
