import { JsonBytes } from "../json-bytes.ts";
import { toProblemBody, type Failure, type ProblemBody } from "../problems.ts";

/** A response the mock is about to send, before it is written (so it can be checked against the contract). */
export interface Reply {
  status: number;
  contentType: "application/json" | "application/problem+json" | "text/html" | "application/yaml";
  /** A value to encode, or a {@link JsonBytes} already encoded (a text page: its text). */
  body: unknown;
  headers?: Record<string, string>;
  /**
   * The content-type header as a service profile recorded it, sent as it is (`application/json` and its charset
   * otherwise).
   */
  mediaType?: string;
  /**
   * The problem a reply stands for, for the request log, when its body does not say it as a value: a service
   * profile's shape of it, or a problem+json body once encoded ({@link encodeReply}).
   */
  logged?: ProblemBody;
  /** The service profile's point that shaped this error reply (`error.seats`), for a consumer's usage. */
  profilePoint?: string;
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

/** The content-type header of each media type the mock answers with. */
const WITH_CHARSET: Record<Reply["contentType"], string> = {
  "application/json": "application/json; charset=utf-8",
  "application/problem+json": "application/problem+json; charset=utf-8",
  "text/html": "text/html; charset=utf-8",
  "application/yaml": "application/yaml; charset=utf-8",
};

/** A page that is text, not JSON (the auto-login page, the spec as YAML). */
export function textReply(contentType: "text/html" | "application/yaml", text: string): Reply {
  return { status: 200, contentType, body: text };
}

/** The content-type header a reply is sent with. */
export function contentTypeOf(reply: Reply): string {
  return reply.mediaType ?? WITH_CHARSET[reply.contentType];
}

/**
 * The problem a reply stands for, for a request log: its problem+json body while it is a value, else the problem
 * it was noted with (`logged`: a service profile's shape of it, or the value before it was encoded).
 */
export function problemOf(reply: Reply): ProblemBody | undefined {
  return reply.contentType === "application/problem+json" && !(reply.body instanceof JsonBytes)
    ? (reply.body as ProblemBody)
    : reply.logged;
}

/**
 * A reply as it is written: its JSON value encoded into the text sent (a {@link JsonBytes}); a reply already
 * encoded (a kept answer: encoded-retrievals.ts, encoded-property-lists.ts), a text page, or one without a body as
 * it is. The one place a reply's JSON is encoded: every host writes what this gives ({@link bodyOf}), and what
 * needs the text sent (the journal, the usage recorder, `--validate-responses`) takes it from here and passes the
 * encoded reply on, so that nothing is encoded twice. A problem's value stays known, for a request log (`logged`).
 */
export function encodeReply(reply: Reply): Reply {
  const { body } = reply;
  if (body instanceof JsonBytes || body === undefined || isText(reply)) return reply;
  const encoded = new JsonBytes(JSON.stringify(body));
  return reply.contentType === "application/problem+json"
    ? { ...reply, body: encoded, logged: body as ProblemBody }
    : { ...reply, body: encoded };
}

/** The bytes (or text) a reply's body is sent as ({@link encodeReply}): the same in every host. */
export function bodyOf(reply: Reply): string | Uint8Array {
  const { body } = encodeReply(reply);
  return body instanceof JsonBytes ? body.encoded : body === undefined ? "" : String(body);
}

function isText(reply: Reply): boolean {
  return reply.contentType === "text/html" || reply.contentType === "application/yaml";
}
