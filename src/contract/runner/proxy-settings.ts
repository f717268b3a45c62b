import { BlockList, isIP } from "node:net";

/**
 * The proxies a run goes through, read from the environment once at the edge (src/cli/contract.ts), as curl reads
 * them: `http_proxy` for http:// addresses, `https_proxy` for https:// ones, `all_proxy` for either when its own is
 * not set, and `no_proxy` for the hosts reached directly. Each name is read in lower case first, then in upper
 * case (curl reads HTTP_PROXY only in lower case; the upper case is accepted here too, as most tools do).
 */
export interface ProxySettings {
  httpProxy?: string;
  httpsProxy?: string;
  noProxy?: string;
}

/** The proxy variables of an environment; empty values count as unset. */
export function readProxySettings(env: NodeJS.ProcessEnv): ProxySettings {
  const read = (name: string) => env[name.toLowerCase()] || env[name.toUpperCase()] || undefined;
  const all = read("all_proxy");
  const settings: ProxySettings = {};
  const httpProxy = read("http_proxy") ?? all;
  const httpsProxy = read("https_proxy") ?? all;
  const noProxy = read("no_proxy");
  if (httpProxy) settings.httpProxy = withScheme(httpProxy);
  if (httpsProxy) settings.httpsProxy = withScheme(httpsProxy);
  if (noProxy) settings.noProxy = noProxy;
  return settings;
}

/** Whether any proxy is set. */
export function usesProxy(settings: ProxySettings): boolean {
  return settings.httpProxy !== undefined || settings.httpsProxy !== undefined;
}

/** An address (a proxy's, a service's) without its user and password, for a progress line. */
export function shownAddress(address: string): string {
  try {
    const url = new URL(address);
    if (url.username || url.password) {
      url.username = "***";
      url.password = "";
    }
    return url.href.replace(/\/$/, "");
  } catch {
    return "(an address that does not parse)";
  }
}

/** The proxy for one address, or undefined to go directly: by its scheme, unless no_proxy names its host. */
export function proxyFor(address: string, settings: ProxySettings): string | undefined {
  const url = new URL(address);
  const proxy =
    url.protocol === "https:" ? settings.httpsProxy : url.protocol === "http:" ? settings.httpProxy : undefined;
  if (proxy === undefined) return undefined;
  const port = Number(url.port) || (url.protocol === "https:" ? 443 : 80);
  return bypassesProxy(url.hostname, port, settings.noProxy ?? "") ? undefined : proxy;
}

/**
 * Whether no_proxy sends a host directly, as curl reads it: a comma (or space) separated list; `*` alone for
 * every host; a name matches itself and every host under it (`example.com` and `.example.com` both match
 * `api.example.com`, a leading `*.` too); an IP address matches itself, an IPv4 or IPv6 range in CIDR form
 * (`10.0.0.0/8`) every address in it, IPv6 with or without brackets; `host:port` only that port.
 */
export function bypassesProxy(hostname: string, port: number, noProxy: string): boolean {
  const host = hostname
    .replace(/^\[|\]$/g, "")
    .replace(/\.$/, "")
    .toLowerCase();
  for (const raw of noProxy.split(/[,\s]+/)) {
    const entry = raw.trim().toLowerCase();
    if (entry === "") continue;
    if (entry === "*") return true;
    const { name, entryPort } = splitPort(entry);
    if (entryPort !== undefined && entryPort !== port) continue;
    if (name.includes("/")) {
      if (inRange(host, name)) return true;
      continue;
    }
    const bare = name.replace(/^\*?\./, "").replace(/\.$/, "");
    if (bare === "") continue;
    if (host === bare) return true;
    if (isIP(bare) === 0 && host.endsWith(`.${bare}`)) return true;
  }
  return false;
}

/** `[::1]:8080`, `host:8080`, `::1` (an IPv6 address has no port unless bracketed). */
function splitPort(entry: string): { name: string; entryPort?: number } {
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry);
  if (bracketed)
    return bracketed[2] ? { name: bracketed[1]!, entryPort: Number(bracketed[2]) } : { name: bracketed[1]! };
  if (isIP(entry.split("/")[0]!) === 6) return { name: entry };
  const withPort = /^(.+):(\d+)$/.exec(entry);
  return withPort ? { name: withPort[1]!, entryPort: Number(withPort[2]) } : { name: entry };
}

function inRange(host: string, cidr: string): boolean {
  const [network, bitsText] = cidr.split("/");
  const family = isIP(network!);
  const bits = Number(bitsText);
  if (family === 0 || isIP(host) !== family || !Number.isInteger(bits)) return false;
  const list = new BlockList();
  try {
    list.addSubnet(network!, bits, family === 6 ? "ipv6" : "ipv4");
  } catch {
    return false;
  }
  return list.check(host, family === 6 ? "ipv6" : "ipv4");
}

/** A proxy given without a scheme (`proxy.corp:3128`) is an HTTP proxy, as curl takes it. */
function withScheme(address: string): string {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(address) ? address : `http://${address}`;
}

/**
 * A fetch that goes through the proxies of `settings` (undici's ProxyAgent): an http:// address through an HTTP
 * proxy in absolute form, as curl sends it, an https:// one through a CONNECT tunnel, so TLS stays end to end and
 * NODE_EXTRA_CA_CERTS still names the CAs trusted. Hosts of no_proxy are reached directly. undici is loaded
 * only when a proxy is set.
 */
export async function proxiedFetch(settings: ProxySettings): Promise<typeof globalThis.fetch> {
  const undici = await import("undici");
  const agents = new Map<string, InstanceType<typeof undici.ProxyAgent>>();
  const direct = new undici.Agent();
  const dispatcherFor = (address: string) => {
    const proxy = proxyFor(address, settings);
    if (proxy === undefined) return direct;
    let agent = agents.get(proxy);
    if (!agent) agents.set(proxy, (agent = new undici.ProxyAgent({ uri: proxy, proxyTunnel: false })));
    return agent;
  };
  return ((input: string | URL, init?: RequestInit) =>
    undici.fetch(String(input), {
      ...(init as object),
      dispatcher: dispatcherFor(String(input)),
    })) as unknown as typeof globalThis.fetch;
}
