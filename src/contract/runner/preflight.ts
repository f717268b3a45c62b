import type { Exchange, Exchanger, NoAnswer } from "./http-exchange.ts";
import type { AccountName, Credentials } from "./run-context.ts";

/** Why a run cannot give a verdict: nothing answers, or the run was set up wrongly (exit 2, not BROKEN). */
export type PreflightProblem = { kind: "unreachable" | "usage"; message: string };

/** An answer the preflight got: the run holds it to the contract like any other (a 5xx there fails too). */
export interface PreflightAnswer {
  step: string;
  operation: "retrieveTemplateCatalogue" | "listAgentCards";
  exchange: Exchange;
}

const API = "/api/v1/object";
const OPTIONS: Record<AccountName, string> = {
  primary: "--api-key and --token",
  other: "--other-api-key and --other-token",
  fresh: "--fresh-api-key and --fresh-token",
};

/**
 * Looks for the mistakes a new user makes before the scenario runs, with two read-only requests per account:
 * a base URL under which every route answers 404 (often one that already ends in `/api/v1/object`),
 * credentials the service refuses everywhere, an address that does not answer or fails TLS, and a "fresh"
 * account that already has agents (another run on it, or one stopped before it cleaned up).
 */
export async function preflight(
  exchange: Exchanger,
  baseUrl: string,
  accounts: Partial<Record<AccountName, Credentials>>,
  {
    needFreshEmpty,
    answers,
    late,
  }: {
    needFreshEmpty: boolean;
    /** Every answer the preflight gets is added here. */
    answers: PreflightAnswer[];
    /**
     * Every request that got no answer within the limit: it fails on its own, and the run goes on (a late answer is no
     * sign of a wrong address).
     */
    late: Array<{ step: string; operation: PreflightAnswer["operation"]; failure: NoAnswer }>;
  },
): Promise<PreflightProblem | undefined> {
  const get = async (path: "template_base" | "agent_cards", credentials: Credentials) => {
    const sent = await exchange({
      method: "GET",
      path: `${API}/${path}`,
      headers: {
        "content-type": "application/json",
        accept: "application/json",
        "API-KEY": credentials.apiKey,
        TOKEN: credentials.token,
      },
    });
    const account =
      (Object.keys(accounts) as AccountName[]).find((name) => accounts[name] === credentials) ?? "primary";
    const step = `preflight: GET ${API}/${path} as the ${account} account`;
    const operation = path === "template_base" ? "retrieveTemplateCatalogue" : "listAgentCards";
    if (sent.ok) answers.push({ step, operation, exchange: sent.exchange });
    else if (sent.failure.kind === "timeout") late.push({ step, operation, failure: sent.failure });
    return sent;
  };

  const primary = accounts.primary!;
  for (const account of ["other", "fresh"] as const) {
    const credentials = accounts[account];
    if (credentials && (credentials.apiKey === primary.apiKey || credentials.token === primary.token)) {
      return {
        kind: "usage",
        message:
          `${OPTIONS[account]} must be another account's, with its own API-KEY and TOKEN: the ${account} ` +
          `account's ${credentials.apiKey === primary.apiKey ? "API-KEY" : "TOKEN"} is the same as yours.`,
      };
    }
  }
  let catalogue = await get("template_base", primary);
  // A connection the service closed while idle (its keep-alive timeout) may be reset under the first request of
  // a run that follows another in the same process; that GET is sent once more on a new connection.
  if (!catalogue.ok && /ECONNRESET|socket hang up|other side closed/i.test(catalogue.failure.reason))
    catalogue = await get("template_base", primary);
  if (!catalogue.ok && catalogue.failure.kind !== "timeout")
    return { kind: "unreachable", message: `Cannot reach ${baseUrl}: ${catalogue.failure.reason}.` };
  // 407 is a proxy's answer, not the service's (RFC 9110 15.5.8): no verdict on the service can follow.
  if (catalogue.ok && catalogue.exchange.status === 407) {
    return {
      kind: "usage",
      message:
        `A proxy between the runner and ${baseUrl} asks for credentials (407 Proxy Authentication Required): ` +
        `give them in its address, HTTP_PROXY or HTTPS_PROXY=http://user:password@host:port.`,
    };
  }
  if (catalogue.ok && catalogue.exchange.status === 404) {
    const agents = await get("agent_cards", primary);
    if (agents.ok && agents.exchange.status === 404) return { kind: "usage", message: wrongBase(baseUrl) };
  }
  for (const account of ["primary", "other", "fresh"] as const) {
    const credentials = accounts[account];
    if (!credentials) continue;
    const first = account === "primary" ? catalogue : await get("template_base", credentials);
    if (!first.ok && first.failure.kind === "timeout") continue;
    if (!first.ok) return { kind: "unreachable", message: `Cannot reach ${baseUrl}: ${first.failure.reason}.` };
    if (first.exchange.status < 400 || first.exchange.status >= 500 || first.exchange.status === 404) continue;
    const second = await get("agent_cards", credentials);
    if (second.ok && second.exchange.status >= 400 && second.exchange.status < 500 && second.exchange.status !== 404) {
      return {
        kind: "usage",
        message:
          `The service refuses the ${account === "primary" ? "" : `${account} account's `}credentials: GET ` +
          `${API}/template_base answered ${first.exchange.status} and GET ${API}/agent_cards ` +
          `${second.exchange.status}. ` +
          `Check ${OPTIONS[account]} (or their CONTRACT_ environment variables): the API-KEY and TOKEN of ` +
          `one account, for this service (section 5).`,
      };
    }
  }
  const fresh = accounts.fresh;
  if (fresh && needFreshEmpty) {
    const listed = await get("agent_cards", fresh);
    const body = listed.ok && listed.exchange.status === 200 ? listed.exchange.body : undefined;
    const count = body !== null && typeof body === "object" ? Object.keys(body).length : 0;
    if (count > 0) {
      return {
        kind: "usage",
        message:
          `The fresh account (${OPTIONS.fresh}) already has ${count} agent${count === 1 ? "" : "s"}; the ` +
          `seat checks need an account without agents. ` +
          "Another run may be using it right now, or a run was stopped before it could clean up: delete its " +
          "agents, or leave out --fresh-api-key (or give --skip-seat-checks).",
      };
    }
  }
  return undefined;
}

function wrongBase(baseUrl: string): string {
  const url = new URL(baseUrl);
  const path = url.pathname.replace(/\/+$/, "");
  const suffix = ["/api/v1/object", "/api/v1", "/api"].find((end) => path.endsWith(end));
  const hint = suffix
    ? ` Yours already ends in ${suffix}, which the runner adds itself: try --base-url ` +
      `${baseUrl.replace(/\/+$/, "").slice(0, -suffix.length) || url.origin}`
    : " Check the host, the port and any path prefix of a gateway.";
  return (
    `Every route tried answers 404 under ${baseUrl}: GET ${API}/template_base and GET ${API}/agent_cards. ` +
    `--base-url must be the address the service's paths ${API}/… hang from.${hint}`
  );
}
