/**
 * The app's calls to the Property Listing Service, on the page's own origin: in Storybook (and under its Vitest
 * addon) MSW's worker answers them with the kit's mock. An expected failure is a value: the problem+json body.
 */
const HEADERS = { "API-KEY": "demo-key", TOKEN: "demo-token", "content-type": "application/json" };

/** RFC 9457 problem details, as the service answers every error; `errors` lists the offending fields of a 400. */
export interface Problem {
  title: string;
  status: number;
  detail?: string;
  errors?: Array<{ in: string; pointer: string; detail: string }>;
}

export type Answer<T> = { ok: true; data: T } | { ok: false; problem: Problem };

async function call<T>(method: string, path: string, body?: unknown): Promise<Answer<T>> {
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers: HEADERS,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  } catch {
    return { ok: false, problem: { title: "Service Unreachable", status: 0 } };
  }
  const text = await response.text();
  const parsed: unknown = text ? JSON.parse(text) : undefined;
  if (response.ok) return { ok: true, data: parsed as T };
  const problem = (parsed ?? {}) as Partial<Problem>;
  return {
    ok: false,
    problem: {
      title: problem.title ?? response.statusText,
      status: response.status,
      ...(problem.detail ? { detail: problem.detail } : {}),
      ...(problem.errors ? { errors: problem.errors } : {}),
    },
  };
}

/** A property as the card shows it; the service answers scalars as strings. */
export interface Property {
  nid?: string;
  title?: string;
  street?: string;
  city?: string;
  state?: string;
  display_price?: string;
  bedrooms?: string;
  baths?: string;
  listing_status?: string;
}

export const getProperty = (nid: number) => call<Property>("GET", `/api/v1/object/property/${nid}`);

/** The account's agent cards: a map keyed by nid. */
export const listAgents = () =>
  call<Record<string, { nid: string; email: string }>>("GET", "/api/v1/object/agent_cards");

export const addAgent = (agent: { agent_first_name: string; agent_last_name: string; email: string }) =>
  call<{ nid: number | string }>("POST", "/api/v1/object/agent_card/", agent);

export interface NewListing {
  street?: string;
  city?: string;
  state?: string;
  zip?: string;
  bedrooms?: number;
}

export const createListing = (listing: NewListing) =>
  call<{ nid: string; uri?: string }>("POST", "/api/v1/object/property", listing);
