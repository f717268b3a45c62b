import type { ServerResponse } from "node:http";
import { JsonBytes } from "../json-bytes.ts";
import { toProblemBody, type Failure, type ProblemBody } from "../problems.ts";

/** A response the mock is about to send, before it is written (so it can be checked against the contract). */
export interface Reply {
  status: number;
  contentType: "application/json" | "application/problem+json";
  /** A value to encode, or a {@link JsonBytes} already encoded. */
  body: unknown;
  headers?: Record<string, string>;
  /** The content-type header as a service profile recorded it, sent as it is (`application/json` and its charset otherwise). */
  mediaType?: string;
  /** The problem a reply shaped by a service profile stands for, for the request log. */
  logged?: ProblemBody;
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

/** The problems sent, by response, for the request log (which sees the response, not the reply). */
const sentProblems = new WeakMap<ServerResponse, ProblemBody>();

/** The problem+json body a response was sent with, if it was one. */
export function problemSent(response: ServerResponse): ProblemBody | undefined {
  return sentProblems.get(response);
}

/** The content-type header of each media type the mock answers with. */
const WITH_CHARSET: Record<Reply["contentType"], string> = {
  "application/json": "application/json; charset=utf-8",
  "application/problem+json": "application/problem+json; charset=utf-8",
};

/** Writes a reply. */
export function send(response: ServerResponse, reply: Reply): void {
  if (reply.contentType === "application/problem+json") sentProblems.set(response, reply.body as ProblemBody);
  else if (reply.logged) sentProblems.set(response, reply.logged);
  response.statusCode = reply.status;
  if (reply.headers) for (const [name, value] of Object.entries(reply.headers)) response.setHeader(name, value);
  response.setHeader("content-type", reply.mediaType ?? WITH_CHARSET[reply.contentType]);
  response.end(reply.body instanceof JsonBytes ? reply.body.encoded : JSON.stringify(reply.body));
}
