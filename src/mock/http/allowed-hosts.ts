/**
 * Whether a `Host` header names a host the admin routes answer to (DNS rebinding: a page of a name its
 * owner points at 127.0.0.1 is same-origin with that name, so only the `Host` header tells the mock that the
 * request was not meant for it). Modelled on Vite's `server.allowedHosts` (`hostCheck.ts`, itself after
 * webpack-dev-server's `checkHeader`): `localhost` and any `*.localhost` (RFC 6761 §6.3 keeps them on the
 * loopback), the loopback addresses, and each listed host, where a leading dot (`.example.test`) admits the name
 * and all its subdomains. Unlike Vite, an IP address other than the loopback must be listed: the mock has
 * nothing to tell a LAN address meant for it from one a rebinding page reached it through.
 *
 * @param hostHeader the `Host` header as sent (`localhost:4010`, `[::1]:4010`).
 * @param allowed host names or addresses, without port, lower case.
 */
export function isHostAllowed(hostHeader: string | undefined, allowed: readonly string[]): boolean {
  const hostname = hostnameOf(hostHeader);
  if (hostname === undefined) return false;
  if (hostname === "localhost" || hostname.endsWith(".localhost")) return true;
  if (hostname === "127.0.0.1" || hostname === "::1") return true;
  for (const entry of allowed) {
    if (entry === hostname) return true;
    if (entry.startsWith(".") && (hostname === entry.slice(1) || hostname.endsWith(entry))) return true;
  }
  return false;
}

/**
 * The hosts the mock answers to by name: the configured ones, and the address it listens on unless that is a
 * wildcard (Vite admits `server.host` alike). The admin guard and the auto-login base read the same list.
 */
export function admittedHosts(configured: readonly string[], listening: string | undefined): readonly string[] {
  return listening && !isWildcardHost(listening)
    ? [...configured, listening.replace(/^\[|\]$/g, "").toLowerCase()]
    : configured;
}

/** An address that listens on every interface: it names no host of its own. */
export function isWildcardHost(host: string): boolean {
  return host === "0.0.0.0" || host === "::" || host === "";
}

/** The host name of a `Host` header, lower case, without port or IPv6 brackets; undefined when malformed. */
export function hostnameOf(hostHeader: string | undefined): string | undefined {
  const host = hostHeader?.trim().toLowerCase();
  if (!host) return undefined;
  if (host.startsWith("[")) {
    const end = host.indexOf("]");
    if (end < 0 || !/^(?::[0-9]*)?$/.test(host.slice(end + 1))) return undefined;
    const address = host.slice(1, end);
    return isIpv6(address) ? address : undefined;
  }
  const match = /^([a-z0-9.-]+)(?::[0-9]*)?$/.exec(host);
  return match?.[1];
}

/**
 * The origin a client reached the mock at, from its `Host` header (`http://localhost:4010`), when that host is one
 * {@link isHostAllowed} admits; undefined otherwise (an unknown name, a malformed header or port). The auto-login
 * `uri` starts with it when no `--base-url` is given, so that a client gets back the address it used; a name a
 * rebinding page reached the mock through is never echoed back.
 */
export function clientOrigin(hostHeader: string | undefined, allowed: readonly string[]): string | undefined {
  const host = hostHeader?.trim().toLowerCase();
  if (!host || !isHostAllowed(host, allowed)) return undefined;
  const port = /:([0-9]{1,5})$/.exec(host.startsWith("[") ? host.slice(host.indexOf("]")) : host)?.[1];
  if (port !== undefined && (Number(port) < 1 || Number(port) > 65_535)) return undefined;
  const hostname = hostnameOf(host)!;
  const shown = hostname.includes(":") ? `[${hostname}]` : hostname;
  return `http://${shown}${port === undefined ? "" : `:${Number(port)}`}`;
}

/**
 * Whether text is an IPv6 address (RFC 4291 §2.2: eight groups, `::` once for a run of zero groups, an IPv4
 * tail), as `node:net`'s `isIP(text) === 6` says for the addresses a `Host` header carries (no zone).
 */
function isIpv6(text: string): boolean {
  let groups = text;
  let tail = 0;
  const lastColon = text.lastIndexOf(":");
  if (text.includes(".", lastColon)) {
    const ipv4 = text.slice(lastColon + 1).split(".");
    if (ipv4.length !== 4 || !ipv4.every((part) => /^(?:0|[1-9][0-9]{0,2})$/.test(part) && Number(part) <= 255))
      return false;
    groups = `${text.slice(0, lastColon + 1)}0`;
    tail = 1; // the IPv4 tail stands for two groups; "0" above took one place
  }
  const halves = groups.split("::");
  if (halves.length > 2) return false;
  const parts = halves.map((half) => (half === "" ? [] : half.split(":")));
  if (!parts.every((list) => list.every((group) => /^[0-9a-f]{1,4}$/i.test(group)))) return false;
  const count = parts.reduce((sum, list) => sum + list.length, 0) + tail;
  return halves.length === 2 ? count <= 7 : count === 8;
}
