import type { ServerResponse } from "node:http";
import type { ProblemBody } from "../problems.ts";
import { bodyOf, contentTypeOf, type Reply } from "./reply.ts";

/** The problems sent, by response, for the request log (which sees the response, not the reply). */
const sentProblems = new WeakMap<ServerResponse, ProblemBody>();

/** The problem+json body a response was sent with, if it was one. */
export function problemSent(response: ServerResponse): ProblemBody | undefined {
  return sentProblems.get(response);
}

/** Writes a reply on a Node response (the Node host's side of reply.ts). */
export function send(response: ServerResponse, reply: Reply): void {
  if (reply.contentType === "application/problem+json") sentProblems.set(response, reply.body as ProblemBody);
  else if (reply.logged) sentProblems.set(response, reply.logged);
  response.statusCode = reply.status;
  if (reply.headers) for (const [name, value] of Object.entries(reply.headers)) response.setHeader(name, value);
  response.setHeader("content-type", contentTypeOf(reply));
  response.end(bodyOf(reply));
}
