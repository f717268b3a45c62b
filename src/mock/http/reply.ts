import type { ServerResponse } from "node:http";
import { toProblemBody, type Failure, type ProblemBody } from "../problems.ts";

/** A response the mock is about to send, before it is written (so it can be checked against the contract). */
export interface Reply {
  status: number;
  contentType: "application/json" | "application/problem+json";
  body: unknown;
  headers?: Record<string, string>;
}

/** A 200 answer. */
export function okReply(body: unknown): Reply {
  return { status: 200, contentType: "application/json", body };
}

/** A problem+json answer for an expected failure. */
export function problemReply(failed: Failure, instance?: string, headers?: Record<string, string>): Reply {
  const body: ProblemBody = toProblemBody(failed, instance);
  return { status: body.status, contentType: "application/problem+json", body, ...(headers ? { headers } : {}) };
}

/** Writes a reply. */
export function send(response: ServerResponse, reply: Reply): void {
  response.statusCode = reply.status;
  for (const [name, value] of Object.entries(reply.headers ?? {})) response.setHeader(name, value);
  response.setHeader("content-type", `${reply.contentType}; charset=utf-8`);
  response.end(JSON.stringify(reply.body));
}
