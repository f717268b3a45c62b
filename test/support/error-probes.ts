/**
 * A fixed set of requests that each provoke one error situation of a service profile, sent to any
 * implementation as one account (and another account's credentials for the foreign record): issue 20 item 4 (b)
 * compares what the mock playing a profile answers with what the profiled service answers.
 */
export interface ProbeAccount {
  apiKey: string;
  token: string;
}

export interface Probe {
  name: string;
  method: string;
  path: string;
  /** Sent as is; `undefined` sends no body. */
  body?: string;
  headers: Record<string, string>;
  /** A request to run first whose answer the probe's path needs (the nid of a new property). */
  needsProperty?: boolean;
  /** Requests sent first (their answers not compared), as the probe's account; `{nid}` and `{nid2}` as in paths. */
  before?: Array<{ method: string; path: string; body: string }>;
}

export interface ProbeAnswer {
  name: string;
  status: number;
  mediaType: string;
  body: unknown;
}

const API = "/api/v1/object";
const PROPERTY = JSON.stringify({ street: "5 Probe Street", city: "Austin", state: "TX", zip: "78701" });

/**
 * The probes, for an account and another one. `{nid}` in a path or body is a property the account creates first,
 * `{nid2}` a second one.
 */
export function errorProbes(account: ProbeAccount, other: ProbeAccount): Probe[] {
  const json = { "content-type": "application/json", "API-KEY": account.apiKey, TOKEN: account.token };
  return [
    { name: "unknown record", method: "GET", path: `${API}/property/2147483647`, headers: json },
    {
      name: "another account's record",
      method: "GET",
      path: `${API}/property/{nid}`,
      headers: { ...json, "API-KEY": other.apiKey, TOKEN: other.token },
    },
    {
      name: "no credentials",
      method: "GET",
      path: `${API}/property/{nid}`,
      headers: { "content-type": "application/json" },
    },
    {
      name: "a wrong token",
      method: "GET",
      path: `${API}/property/{nid}`,
      headers: { ...json, TOKEN: `${account.token}-wrong` },
    },
    {
      name: "an invalid body",
      method: "POST",
      path: `${API}/property`,
      headers: json,
      body: JSON.stringify({ city: "Austin", state: "TX", zip: "78701" }),
    },
    {
      name: "a body as text/plain",
      method: "POST",
      path: `${API}/property`,
      headers: { ...json, "content-type": "text/plain" },
      body: PROPERTY,
    },
    {
      name: "no content-type",
      method: "GET",
      path: `${API}/property/{nid}`,
      headers: { "API-KEY": account.apiKey, TOKEN: account.token },
    },
    { name: "an unknown route", method: "GET", path: `${API}/nowhere`, headers: json },
    {
      name: "no trailing slash",
      method: "POST",
      path: `${API}/agent_card`,
      headers: json,
      body: JSON.stringify({ agent_first_name: "A", agent_last_name: "B", email: "probe@probe.example" }),
    },
    { name: "a wrong method", method: "DELETE", path: `${API}/property/{nid}`, headers: json },
    {
      name: "an external id in use",
      method: "PUT",
      path: `${API}/property/{nid2}`,
      headers: json,
      body: JSON.stringify({ external_id: "probe-{nid}" }),
      before: [{ method: "PUT", path: `${API}/property/{nid}`, body: JSON.stringify({ external_id: "probe-{nid}" }) }],
    },
    {
      name: "an unknown property reference",
      method: "POST",
      path: `${API}/document/`,
      headers: json,
      body: JSON.stringify({
        title: "Probe",
        property_reference: 2147483647,
        file_url: "https://files.probe.example/x.pdf",
      }),
    },
  ];
}

/** Sends every probe in turn (after creating the property they aim at) and gives back what each answered. */
export async function probeAll(baseUrl: string, probes: Probe[]): Promise<ProbeAnswer[]> {
  const owner = probes[0]!.headers;
  const create = async () =>
    (
      (await (await fetch(`${baseUrl}${API}/property`, { method: "POST", headers: owner, body: PROPERTY })).json()) as {
        nid: string;
      }
    ).nid;
  const nid = await create();
  const nid2 = await create();
  const fill = (text: string) => text.replaceAll("{nid2}", nid2).replaceAll("{nid}", nid);
  const answers: ProbeAnswer[] = [];
  for (const probe of probes) {
    for (const first of probe.before ?? [])
      await (
        await fetch(`${baseUrl}${fill(first.path)}`, { method: first.method, headers: owner, body: fill(first.body) })
      ).arrayBuffer();
    const response = await fetch(`${baseUrl}${fill(probe.path)}`, {
      method: probe.method,
      headers: probe.headers,
      ...(probe.body === undefined ? {} : { body: fill(probe.body) }),
    });
    const text = await response.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // kept as text
    }
    answers.push({
      name: probe.name,
      status: response.status,
      mediaType: response.headers.get("content-type") ?? "",
      body,
    });
  }
  return answers;
}
