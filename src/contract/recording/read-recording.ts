import { isJsonMediaType, normalizeHeaders, type HeaderBag } from "../create-contract.ts";
import type { RecordedExchange, RecordedResponse } from "./recorded-exchange.ts";

/** The exchanges of a recording, or why the text is not one. */
export type RecordingRead =
  | { ok: true; format: "har" | "exchanges"; exchanges: RecordedExchange[] }
  | { ok: false; message: string };

/**
 * Reads recorded traffic: a HAR 1.2 file (what browser developer tools, Playwright's `recordHar`, mitmproxy,
 * Charles or Proxyman export), or a JSON array of `{ request, response }` exchanges in the shape the vitest
 * matcher takes (`request: { method, path or url, headers, body }`, `response: { status, headers, body }`).
 * A text that is neither is an expected failure, returned as a message that says where it went wrong.
 */
export function readRecording(text: string): RecordingRead {
  let document: unknown;
  try {
    document = JSON.parse(text.replace(/^\uFEFF/, ""));
  } catch (error) {
    return { ok: false, message: `not JSON: ${(error as Error).message}` };
  }
  try {
    if (Array.isArray(document)) return { ok: true, format: "exchanges", exchanges: document.map(readExchange) };
    if (isObject(document) && isObject(document.log)) {
      const entries = document.log.entries;
      if (!Array.isArray(entries)) throw new ShapeError("log.entries", "must be a list");
      return { ok: true, format: "har", exchanges: entries.map(readHarEntry) };
    }
  } catch (error) {
    if (error instanceof ShapeError) return { ok: false, message: error.message };
    throw error;
  }
  return {
    ok: false,
    message: "neither a HAR file (an object with log.entries) nor a list of { request, response } exchanges",
  };
}

/** A place in the recording that does not have the shape it should. */
class ShapeError extends Error {
  constructor(where: string, problem: string) {
    super(`${where} ${problem}`);
  }
}

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);

function readHarEntry(entry: unknown, index: number): RecordedExchange {
  const at = `log.entries[${index}]`;
  if (!isObject(entry)) throw new ShapeError(at, "must be an object");
  const request = entry.request;
  if (!isObject(request)) throw new ShapeError(`${at}.request`, "must be an object");
  const method = stringAt(request.method, `${at}.request.method`);
  const url = stringAt(request.url, `${at}.request.url`);
  const requestHeaders = harHeaders(request.headers, `${at}.request.headers`);
  const exchange: RecordedExchange = { label: `entry ${index + 1}`, method: method.toUpperCase(), url, requestHeaders };

  const postData = request.postData;
  if (isObject(postData) && typeof postData.text === "string" && postData.text !== "") {
    const mimeType = requestHeaders["content-type"] ?? (typeof postData.mimeType === "string" ? postData.mimeType : "");
    Object.assign(exchange, readRequestBody(postData.text, mimeType));
  }

  const response = entry.response;
  if (!isObject(response)) throw new ShapeError(`${at}.response`, "must be an object");
  const status = response.status;
  if (typeof status !== "number" || !Number.isInteger(status))
    throw new ShapeError(`${at}.response.status`, "must be a whole number");
  // A status of 0 is how HAR writers record a request that got no answer (blocked, cancelled, failed).
  if (status > 0) {
    const headers = harHeaders(response.headers, `${at}.response.headers`);
    const content = isObject(response.content) ? response.content : {};
    const mimeType = headers["content-type"] ?? (typeof content.mimeType === "string" ? content.mimeType : "");
    let text: string | undefined;
    if (typeof content.text === "string") {
      text = content.encoding === "base64" ? Buffer.from(content.text, "base64").toString("utf8") : content.text;
    } else if (content.size === 0) {
      text = "";
    }
    if (!headers["content-type"] && mimeType) headers["content-type"] = mimeType;
    exchange.response = readResponse(status, headers, text, mimeType);
  }
  if (typeof entry.time === "number" && entry.time >= 0) exchange.durationMs = Math.round(entry.time);
  return exchange;
}

function readExchange(item: unknown, index: number): RecordedExchange {
  const at = `[${index}]`;
  if (!isObject(item)) throw new ShapeError(at, "must be an object with request and response");
  const request = item.request;
  if (!isObject(request)) throw new ShapeError(`${at}.request`, "must be an object");
  const method = stringAt(request.method, `${at}.request.method`);
  const url = typeof request.path === "string" ? request.path : stringAt(request.url, `${at}.request.path (or url)`);
  const exchange: RecordedExchange = {
    label: `exchange ${index + 1}`,
    method: method.toUpperCase(),
    url,
    requestHeaders: plainHeaders(request.headers, `${at}.request.headers`),
  };
  if (request.body !== undefined) exchange.requestBody = request.body;

  const response = item.response;
  if (response !== undefined && response !== null) {
    if (!isObject(response)) throw new ShapeError(`${at}.response`, "must be an object");
    const status = response.status;
    if (typeof status !== "number" || !Number.isInteger(status) || status < 100 || status > 599)
      throw new ShapeError(`${at}.response.status`, "must be an HTTP status (100 to 599)");
    const answer: RecordedResponse = {
      status,
      headers: plainHeaders(response.headers, `${at}.response.headers`),
      text: response.body === undefined ? "" : JSON.stringify(response.body),
      bodyRecorded: true,
    };
    if (response.body !== undefined) answer.body = response.body;
    exchange.response = answer;
  }
  if (typeof item.durationMs === "number") exchange.durationMs = item.durationMs;
  return exchange;
}

function stringAt(value: unknown, where: string): string {
  if (typeof value !== "string" || value === "") throw new ShapeError(where, "must be a non-empty string");
  return value;
}

/** HAR headers (`[{ name, value }]`) by lower-cased name, first value kept; HTTP/2 pseudo-headers left out. */
function harHeaders(list: unknown, where: string): Record<string, string> {
  if (list === undefined) return {};
  if (!Array.isArray(list)) throw new ShapeError(where, "must be a list of { name, value }");
  const headers = new Map<string, string>();
  list.forEach((header, index) => {
    if (!isObject(header) || typeof header.name !== "string" || typeof header.value !== "string")
      throw new ShapeError(`${where}[${index}]`, "must be { name, value } with two strings");
    const name = header.name.toLowerCase();
    if (!name.startsWith(":") && !headers.has(name)) headers.set(name, header.value);
  });
  return Object.fromEntries(headers);
}

/** Headers given as a record, as the matcher takes them, read the way the contract reads them. */
function plainHeaders(record: unknown, where: string): Record<string, string> {
  if (record === undefined) return {};
  if (!isObject(record)) throw new ShapeError(where, "must be an object of header names and values");
  return Object.fromEntries(normalizeHeaders(record as HeaderBag));
}

function readRequestBody(text: string, mimeType: string): Pick<RecordedExchange, "requestBody" | "requestBodyError"> {
  if (!isJsonMediaType(mimeType)) return { requestBody: text };
  try {
    return { requestBody: JSON.parse(text) };
  } catch (error) {
    return { requestBodyError: (error as Error).message };
  }
}

function readResponse(
  status: number,
  headers: Record<string, string>,
  text: string | undefined,
  mimeType: string,
): RecordedResponse {
  if (text === undefined) return { status, headers, text: "", bodyRecorded: false };
  const response: RecordedResponse = { status, headers, text, bodyRecorded: true };
  if (text !== "" && isJsonMediaType(mimeType)) {
    try {
      response.body = JSON.parse(text);
    } catch (error) {
      response.jsonError = (error as Error).message;
    }
  }
  return response;
}
