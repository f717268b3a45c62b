/**
 * A proxy in front of a conforming implementation that breaks the contract in one chosen way, to show that
 * the contract checks catch each kind of breakage.
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface ForwardedRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string;
}

export interface ProxiedResponse {
  status: number;
  contentType: string;
  /** The parsed JSON body (undefined when not JSON); a breakage may replace it. */
  body: unknown;
  /** More headers to answer with (Retry-After, say). */
  headers?: Record<string, string>;
}

/** One way to break the contract: change the request on its way in, the response on its way out, or both. */
export interface Breakage {
  /**
   * Changes the request before it is forwarded; answer a response here to not forward it at all. A promise holds
   * the request until it settles (an answer that comes late, or never until the test releases it).
   */
  // biome-ignore lint/suspicious/noConfusingVoidType: a hook that returns nothing lets the request through as it is
  request?(request: ForwardedRequest): ProxiedResponse | "hang-up" | void | Promise<ProxiedResponse | "hang-up" | void>;
  /** Changes the answer before it is sent back. */
  // biome-ignore lint/suspicious/noConfusingVoidType: a hook that returns nothing leaves the answer as it is
  response?(request: ForwardedRequest, response: ProxiedResponse): ProxiedResponse | void;
}

export async function startBreakingProxy(
  target: string,
  breakage: Breakage,
): Promise<{ url: string; close(): Promise<void> }> {
  // eslint-disable-next-line @typescript-eslint/no-misused-promises -- a test's proxy: a failure in it is the test's
  const server: Server = createServer(async (incoming, outgoing) => {
    const request: ForwardedRequest = {
      method: incoming.method ?? "GET",
      path: incoming.url ?? "/",
      headers: flatHeaders(incoming),
      body: await readAll(incoming),
    };
    const early = await breakage.request?.(request);
    if (incoming.socket.destroyed) return;
    if (early === "hang-up") {
      outgoing.socket?.destroy();
      return;
    }
    let response: ProxiedResponse;
    if (early) {
      response = early;
    } else {
      const answer = await fetch(`${target}${request.path}`, {
        method: request.method,
        headers: request.headers,
        body: request.body === "" ? undefined : request.body,
      });
      const text = await answer.text();
      const contentType = answer.headers.get("content-type") ?? "";
      response = {
        status: answer.status,
        contentType,
        body: contentType.includes("json") && text ? JSON.parse(text) : text,
      };
    }
    response = breakage.response?.(request, response) ?? response;
    outgoing.statusCode = response.status;
    outgoing.setHeader("content-type", response.contentType);
    for (const [name, value] of Object.entries(response.headers ?? {})) outgoing.setHeader(name, value);
    outgoing.end(typeof response.body === "string" ? response.body : JSON.stringify(response.body));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function flatHeaders(incoming: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(incoming.headers)) {
    if (value === undefined || ["host", "connection", "content-length", "transfer-encoding"].includes(name)) continue;
    headers[name] = Array.isArray(value) ? value.join(", ") : value;
  }
  return headers;
}

function readAll(incoming: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
    incoming.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
  });
}
