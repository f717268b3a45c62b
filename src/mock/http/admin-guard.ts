import { mediaTypeOf } from "../../contract/build-contract.ts";
import { firstHeader, type MockRequest, type RequestHeaders } from "./mock-request.ts";
import type { Failure } from "../problems.ts";
import { admittedHosts, hostnameOf, isHostAllowed } from "./allowed-hosts.ts";
import { clip } from "../clip.ts";

/** What the admin guard knows of the mock's configuration, read once by the CLI. */
export interface AdminGuardOptions {
  /**
   * Host names or addresses (no port) the admin routes answer to besides the loopback ones; `.example.test` admits
   * subdomains.
   */
  allowedHosts?: readonly string[];
  /** The mock's public base address; its host is admitted, and its origin counts as the mock's own. */
  baseUrl?: string;
  /** When set, admin requests must carry `Authorization: Bearer <adminToken>`. */
  adminToken?: string;
  /** The address the mock listens on, once it does: admitted like Vite admits `server.host`. */
  listenHost?: () => string | undefined;
  /**
   * The host hands over requests from inside the process that made them (MSW's handlers): no page of another name
   * or origin can reach such a mock through the network, so `Host` and `Origin` are not checked (rules 1 and 2).
   * The other rules hold.
   */
  inProcess?: boolean;
}

/**
 * Decides whether a request to the admin surface (every path under `/__admin` and `/__db`) may reach its
 * handler: `undefined` lets it through, a {@link Failure} refuses it with that problem (and the handler never
 * runs, so a refused request changes nothing). It runs before the body is read; a refused body is discarded.
 */
export type AdminGuard = (request: MockRequest, path: string) => Failure | undefined;

/** The one guard in front of the admin routes (`admin-routes.ts` calls it first, for every admin request). */
export function createAdminGuard(options: AdminGuardOptions = {}): AdminGuard {
  const base = options.baseUrl ? new URL(options.baseUrl) : undefined;
  const configured = [...(options.allowedHosts ?? []), ...(base ? [hostnameOf(base.host) ?? base.hostname] : [])].map(
    (host) => host.toLowerCase(),
  );
  const token = options.adminToken;
  return (request) => {
    const allowedHosts = admittedHosts(configured, options.listenHost?.());
    return checkAdminRequest(
      { method: request.method, headers: request.headers },
      {
        allowedHosts,
        ...(options.inProcess ? { inProcess: true } : {}),
        ...(base ? { baseOrigin: base.origin } : {}),
        ...(token ? { token } : {}),
      },
    );
  };
}

/** What {@link checkAdminRequest} compares a request with. */
export interface AdminCheckOptions {
  allowedHosts: readonly string[];
  /**
   * The requests come from inside the process (MSW): any `Host` and any `Origin` is admitted, since neither DNS
   * rebinding nor a page of another origin can reach such a mock (rules 1 and 2).
   */
  inProcess?: boolean;
  /** The origin of `--base-url`, which counts as the mock's own. */
  baseOrigin?: string;
  token?: string;
}

/**
 * The rules of the admin surface, for a request's method and headers. In order:
 * 1. `Host` must be a loopback name or address, the host of `--base-url`, or an allowed host (DNS rebinding): 403.
 * 2. An `Origin`, when sent, must be the mock's own (the origin of the `Host` it was sent to, or of
 *    `--base-url`): a page of another origin gets 403. Browsers send `Origin` with every cross-origin fetch and
 *    every form post, so no web page can reach the admin routes; curl and test clients send none.
 * 3. With `--admin-token`, `Authorization: Bearer <token>`: 401.
 * 4. A write's body must be `application/json`: the form encodings and `text/plain` a page can send without a
 *    CORS preflight get 415.
 */
export function checkAdminRequest(
  request: { method: string; headers: RequestHeaders },
  options: AdminCheckOptions,
): Failure | undefined {
  const { headers } = request;
  const host = firstHeader(headers, "host");
  if (!options.inProcess && !isHostAllowed(host, options.allowedHosts)) {
    const name = hostnameOf(host);
    return {
      problem: "forbidden",
      detail:
        `The admin routes do not answer to the host ${JSON.stringify(name ?? host ?? "")}: ` +
        "a page of a name pointed at this machine must not reach them (DNS rebinding). " +
        `If the mock is meant to be reached under that name, start it with --allowed-hosts ${name ?? "<host>"} ` +
        "(env ALLOWED_HOSTS).",
    };
  }
  const origin = firstHeader(headers, "origin");
  if (origin !== undefined && !options.inProcess && !isOwnOrigin(origin, host, options.baseOrigin)) {
    return {
      problem: "forbidden",
      detail:
        `The admin routes refuse requests from web pages of other origins (this one came from ${clip(origin, 200)}): ` +
        "a page the developer has open must not reset or rewrite the mock. " +
        "Call them from the mock's own origin, or from a client that sends no Origin (curl, a test).",
    };
  }
  if (options.token && !bearerMatches(firstHeader(headers, "authorization"), options.token)) {
    return {
      problem: "unauthorized",
      detail: "The admin routes of this mock require Authorization: Bearer <the --admin-token it was started with>.",
    };
  }
  const method = request.method.toUpperCase();
  if (method !== "GET" && method !== "HEAD" && method !== "OPTIONS" && sendsBody(headers)) {
    const media = mediaTypeOf(firstHeader(headers, "content-type"));
    if (media !== "application/json") {
      return {
        problem: "unsupportedMediaType",
        detail:
          "Admin routes take application/json bodies only, " +
          `not ${media ? clip(media, 200) : "a body without a content-type"}.`,
      };
    }
  }
  return undefined;
}

/** Whether an `Origin` is the mock's own: the origin of the host the request was sent to, or of `--base-url`. */
function isOwnOrigin(origin: string, host: string | undefined, baseOrigin: string | undefined): boolean {
  if (baseOrigin !== undefined && origin === baseOrigin) return true;
  let parsed: URL;
  try {
    parsed = new URL(origin); // "null" (a sandboxed frame, a file) is not a URL: never the mock's own
  } catch {
    return false;
  }
  return (
    (parsed.protocol === "http:" || parsed.protocol === "https:") &&
    host !== undefined &&
    parsed.host === new URL(`http://${host.trim()}`).host
  );
}

/** A body is coming when it is announced: a content-type, a length above zero, or chunked transfer. */
function sendsBody(headers: RequestHeaders): boolean {
  return (
    headers["content-type"] !== undefined ||
    Number(firstHeader(headers, "content-length") ?? 0) > 0 ||
    headers["transfer-encoding"] !== undefined
  );
}

function bearerMatches(authorization: string | undefined, token: string): boolean {
  const match = /^Bearer[ ]+(.+)$/i.exec(authorization?.trim() ?? "");
  return match !== null && sameInConstantTime(match[1]!, token);
}

const utf8 = new TextEncoder();

/** Whether two strings are equal, comparing every byte whatever the first difference (as `timingSafeEqual`). */
function sameInConstantTime(given: string, expected: string): boolean {
  const a = utf8.encode(given);
  const b = utf8.encode(expected);
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let index = 0; index < a.length; index += 1) difference |= a[index]! ^ b[index]!;
  return difference === 0;
}
