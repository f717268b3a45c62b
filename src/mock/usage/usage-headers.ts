import type { RequestHeaders } from "../http/mock-request.ts";

/** Headers that carry a credential: never recorded, whatever their value. */
const CREDENTIAL_HEADERS = new Set([
  "api-key",
  "token",
  "authorization",
  "proxy-authorization",
  "cookie",
  "set-cookie",
]);
/** A header whose name says it holds a secret (`x-api-key`, `x-auth-token`, `x-session`). */
const CREDENTIAL_NAME = /key|token|secret|passw|auth|cookie|session|signature|credential/i;
/**
 * Headers the transport, the runtime or the page sets rather than the client's code: they differ from run to
 * run (a port in `host`, a version in `user-agent`) and a replay sends its own.
 */
const TRANSPORT_HEADERS = new Set([
  "host",
  "connection",
  "content-length",
  "transfer-encoding",
  "keep-alive",
  "upgrade",
  "te",
  "trailer",
  "expect",
  "user-agent",
  "accept-encoding",
  "accept-language",
  "origin",
  "referer",
  "priority",
  "pragma",
  "cache-control",
  "dnt",
]);
const TRANSPORT_PREFIXES = ["sec-", "x-forwarded-", "proxy-"];
/** A header value longer than this is cut (the usage schema's bound). */
const MAX_HEADER_VALUE = 8192;
/** At most this many headers of one request are recorded. */
const MAX_HEADERS = 50;
/** What a header name may be (RFC 9110 token, lower case), as the usage schema says. */
const HEADER_NAME = /^[a-z0-9!#$%&'*+.^_`|~-]+$/;

/** What a header name is to the usage, decided once per name: kept, a credential, or left out. */
const KINDS = new Map<string, "kept" | "credential" | "left-out">();
const MAX_KINDS = 1_000;

function kindOf(name: string): "kept" | "credential" | "left-out" {
  let kind = KINDS.get(name);
  if (kind) return kind;
  kind =
    CREDENTIAL_HEADERS.has(name) || CREDENTIAL_NAME.test(name)
      ? "credential"
      : TRANSPORT_HEADERS.has(name) ||
          !HEADER_NAME.test(name) ||
          TRANSPORT_PREFIXES.some((prefix) => name.startsWith(prefix))
        ? "left-out"
        : "kept";
  if (KINDS.size < MAX_KINDS) KINDS.set(name, kind);
  return kind;
}

/**
 * The headers of a request as the usage records them: lower-case, sorted, without credentials (by name) and
 * without what the transport sets. A credential is recorded as the role of the account it opened, elsewhere.
 */
export function recordedHeaders(headers: RequestHeaders): Array<[string, string]> {
  const kept: Array<[string, string]> = [];
  for (const name in headers) {
    if (kept.length >= MAX_HEADERS) break;
    if (kindOf(name) !== "kept") continue;
    const value = headers[name];
    if (value === undefined) continue;
    const text = Array.isArray(value) ? value.join(", ") : value;
    kept.push([name, text.length > MAX_HEADER_VALUE ? text.slice(0, MAX_HEADER_VALUE) : text]);
  }
  return kept.length < 2 ? kept : kept.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/** The values of every header that may hold a credential, to be kept out of whatever the usage writes. */
export function credentialValues(headers: RequestHeaders): string[] {
  const found: string[] = [];
  for (const name in headers) {
    if (kindOf(name) !== "credential") continue;
    const value = headers[name];
    for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value]) {
      found.push(one);
      // `Authorization: Bearer <secret>`: the secret alone too.
      const space = one.indexOf(" ");
      if (space > 0) found.push(one.slice(space + 1).trim());
    }
  }
  return found;
}
