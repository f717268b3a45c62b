/**
 * Records real HTTP exchanges the way a HAR writer does (HAR 1.2: headers as `{ name, value }` lists, the
 * request body in `postData`, the answer's text in `content`), so the recording checks meet the file format
 * that browsers and proxies export, made from real answers of the mock.
 */
export interface HarEntry {
  startedDateTime: string;
  time: number;
  request: {
    method: string;
    url: string;
    httpVersion: string;
    headers: Array<{ name: string; value: string }>;
    postData?: { mimeType: string; text: string };
  };
  response: {
    status: number;
    statusText: string;
    httpVersion: string;
    headers: Array<{ name: string; value: string }>;
    content: { size: number; mimeType: string; text?: string; encoding?: string };
  };
}

export interface HarRecorder {
  /** Sends a request to `base + path` and records the exchange. `body` is sent as JSON unless it is a string. */
  send(
    method: string,
    path: string,
    options?: { headers?: Record<string, string>; body?: unknown },
  ): Promise<{ status: number; body: unknown }>;
  /** Adds an entry as given, for traffic the recorder cannot make (a preflight, another host, a failed request). */
  add(entry: HarEntry): void;
  entries: HarEntry[];
  /** The HAR document. */
  har(): { log: { version: string; creator: { name: string; version: string }; entries: HarEntry[] } };
}

export function createHarRecorder(base: string, defaultHeaders: Record<string, string> = {}): HarRecorder {
  const entries: HarEntry[] = [];
  return {
    entries,
    add: (entry) => entries.push(entry),
    async send(method, path, { headers = {}, body } = {}) {
      const sentHeaders = { ...defaultHeaders, ...headers };
      const text = body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body);
      const started = Date.now();
      const response = await fetch(`${base}${path}`, { method, headers: sentHeaders, body: text });
      const answer = await response.text();
      const mimeType = response.headers.get("content-type") ?? "";
      const entry: HarEntry = {
        startedDateTime: new Date(started).toISOString(),
        time: Date.now() - started,
        request: {
          method,
          url: `${base}${path}`,
          httpVersion: "HTTP/1.1",
          headers: Object.entries(sentHeaders).map(([name, value]) => ({ name, value })),
        },
        response: {
          status: response.status,
          statusText: response.statusText,
          httpVersion: "HTTP/1.1",
          headers: [...response.headers].map(([name, value]) => ({ name, value })),
          content: { size: Buffer.byteLength(answer), mimeType, text: answer },
        },
      };
      if (text !== undefined) entry.request.postData = { mimeType: sentHeaders["content-type"] ?? "", text };
      entries.push(entry);
      let parsed: unknown;
      try {
        parsed = JSON.parse(answer);
      } catch {
        parsed = answer;
      }
      return { status: response.status, body: parsed };
    },
    har: () => ({ log: { version: "1.2", creator: { name: "har-recorder (tests)", version: "1" }, entries } }),
  };
}

/** An entry to an address outside the service, as a browser records the page and its assets. */
export function otherTraffic(url: string): HarEntry {
  return {
    startedDateTime: new Date(0).toISOString(),
    time: 3,
    request: { method: "GET", url, httpVersion: "HTTP/1.1", headers: [{ name: "accept", value: "text/html" }] },
    response: {
      status: 200,
      statusText: "OK",
      httpVersion: "HTTP/1.1",
      headers: [{ name: "content-type", value: "text/html" }],
      content: { size: 15, mimeType: "text/html", text: "<p>a page</p>" },
    },
  };
}

/** A CORS preflight, as a browser records it before a request with the API-KEY and TOKEN headers. */
export function preflight(url: string): HarEntry {
  return {
    startedDateTime: new Date(0).toISOString(),
    time: 1,
    request: {
      method: "OPTIONS",
      url,
      httpVersion: "HTTP/1.1",
      headers: [
        { name: "origin", value: "http://localhost:3000" },
        { name: "access-control-request-method", value: "POST" },
        { name: "access-control-request-headers", value: "api-key,content-type,token" },
      ],
    },
    response: {
      status: 204,
      statusText: "No Content",
      httpVersion: "HTTP/1.1",
      headers: [],
      content: { size: 0, mimeType: "" },
    },
  };
}
