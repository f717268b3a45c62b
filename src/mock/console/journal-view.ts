import { JsonBytes } from "../json-bytes.ts";
import { contentTypeOf, type Reply } from "../http/reply.ts";
import { firstHeader } from "../http/mock-request.ts";
import { PROBLEMS, type FieldError } from "../problems.ts";
import type { AppliedFaults, JournaledCall } from "../services/request-journal.ts";

/** A journaled call as the console's list shows it: what happened, never a credential. */
export interface CallSummary {
  id: number;
  time: string;
  method: string;
  /** Path and query, as sent. */
  url: string;
  operationId: string | null;
  /** `null` while pending, or when nothing was answered (a dropped connection, a client that left). */
  status: number | null;
  durationMs: number | null;
  /** The uid of the account the call authenticated as; `null` when it did not (a 401, a 404 before it). */
  uid: number | null;
  fault: AppliedFaults | null;
  /** The problem's title, for an error answer. */
  problem?: string;
  /** Each offending field of an invalid request, as the problem names it. */
  errors?: FieldError[];
  /** The answer broke the contract (`--validate-responses`): the mock answered 500 in its place. */
  responseInvalid?: true;
}

/**
 * A journaled call opened in the console: the request and the answer, bodies formatted, and a curl to send it again.
 */
export interface CallDetail extends CallSummary {
  request: { headers: Record<string, string>; body: string | null; bodyTruncated?: true; bodySize?: number };
  answer: { headers: Record<string, string>; body: string | null; bodyTruncated?: true; bodySize?: number } | null;
  /** The request as a curl command, its credentials as `$API_KEY` and `$TOKEN`. */
  curl: string;
}

/** Header values never shown, nor put in a curl: credentials. */
const SECRET_HEADERS = new Set(["api-key", "token", "authorization", "proxy-authorization", "cookie"]);
/** The placeholders a curl line has instead of the credentials. */
const CURL_PLACEHOLDERS: Record<string, string> = { "api-key": "API-KEY: $API_KEY", token: "TOKEN: $TOKEN" };
/** The other request headers a curl line keeps: the ones the API reads. */
const CURL_HEADERS: Record<string, string> = { "content-type": "content-type", prefer: "Prefer", accept: "accept" };
const text = new TextDecoder("utf-8");
const VIOLATION = PROBLEMS.responseContractViolation.type;

/** The summary of a call, read now (the call object is the journal's and changes). */
export function summarize(call: JournaledCall): CallSummary {
  const summary: CallSummary = {
    id: call.id,
    time: new Date(call.arrived).toISOString(),
    method: call.method,
    url: call.url,
    operationId: call.operationId ?? null,
    status: call.status,
    durationMs: call.durationMs,
    uid: call.uid ?? null,
    fault: call.applied === null ? null : structuredClone(call.applied),
  };
  if (call.status !== null && call.status >= 400 && call.answered) {
    const problem = problemOf(call);
    if (problem) {
      if (typeof problem.title === "string") summary.problem = problem.title.slice(0, 200);
      if (Array.isArray(problem.errors)) summary.errors = problem.errors.slice(0, 50).filter(isFieldError);
      if (problem.type === VIOLATION) summary.responseInvalid = true;
    }
  }
  return summary;
}

/** The detail of a call: headers (credentials hidden), bodies formatted, and the curl line. */
export function detail(call: JournaledCall): CallDetail {
  const request: CallDetail["request"] = { headers: shownHeaders(call.headers), body: null };
  if (call.bytes !== undefined && call.bytes.length > 0) {
    request.body = formatted(text.decode(call.bytes), call.contentType);
    if (call.bodySize > call.bytes.length) {
      request.bodyTruncated = true;
      request.bodySize = call.bodySize;
    }
  }
  let answer: CallDetail["answer"] = null;
  if (call.answered) {
    const { body, headers } = call.answered;
    const contentType = contentTypeOf(call.answered as Reply);
    answer = {
      headers: { "content-type": contentType, ...headers },
      body: body === undefined ? null : formatted(bodyText(body), contentType),
    };
    if (call.answerSize !== undefined) {
      answer.bodyTruncated = true;
      answer.bodySize = call.answerSize;
    }
  }
  return { ...summarize(call), request, answer, curl: curlOf(call) };
}

/** The request as a curl command for a POSIX shell, credentials as environment variables. */
export function curlOf(call: JournaledCall): string {
  const host = firstHeader(call.headers, "host") ?? "localhost";
  const parts = ["curl", "-X", call.method, quoted(`http://${host}${call.url}`)];
  for (const [name, line] of Object.entries(CURL_PLACEHOLDERS))
    if (call.headers[name] !== undefined) parts.push("-H", `"${line}"`);
  for (const [name, shown] of Object.entries(CURL_HEADERS)) {
    const value = firstHeader(call.headers, name);
    if (value !== undefined) parts.push("-H", quoted(`${shown}: ${value}`));
  }
  if (call.bytes !== undefined && call.bytes.length > 0)
    parts.push(
      "--data-raw",
      quoted(text.decode(call.bytes) + (call.bodySize > call.bytes.length ? "…(cut by the journal)" : "")),
    );
  return parts.join(" ");
}

function problemOf(call: JournaledCall): { title?: unknown; type?: unknown; errors?: unknown } | undefined {
  const body = call.answered?.body;
  if (body === undefined || body === null) return undefined;
  if (!(body instanceof Uint8Array) && !(body instanceof JsonBytes) && typeof body !== "string") return body;
  if (call.answerSize !== undefined || !/json/i.test(contentTypeOf(call.answered as Reply))) return undefined;
  try {
    const parsed = JSON.parse(bodyText(body)) as unknown;
    return parsed !== null && typeof parsed === "object" && !Array.isArray(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

function isFieldError(value: unknown): value is FieldError {
  return (
    value !== null &&
    typeof value === "object" &&
    typeof (value as FieldError).pointer === "string" &&
    typeof (value as FieldError).detail === "string"
  );
}

function bodyText(body: unknown): string {
  if (body instanceof JsonBytes) return body.text();
  return body instanceof Uint8Array ? text.decode(body) : typeof body === "string" ? body : JSON.stringify(body);
}

/** JSON indented for reading; anything else (or JSON cut short) as it is. */
function formatted(body: string, contentType: string | undefined): string {
  if (!contentType || !/json/i.test(contentType)) return body;
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
}

function shownHeaders(headers: JournaledCall["headers"]): Record<string, string> {
  const shown: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    const joined = Array.isArray(value) ? value.join(", ") : value;
    Object.defineProperty(shown, name, {
      value: SECRET_HEADERS.has(name) ? `(hidden: ${joined.length} characters)` : joined,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return shown;
}

/** A word for a POSIX shell: inside single quotes nothing is special but the quote itself. */
function quoted(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}
