import { jsonLineStart, type LogFormat } from "./log-line.ts";
import type { ProblemBody } from "../../mock/problems.ts";

/** One answered request, as the request log tells it. */
export interface LoggedRequest {
  /** When the answer was sent, in milliseconds since the epoch. */
  at: number;
  method: string;
  url: string;
  status: number;
  durationMs: number;
  /** The problem+json the answer carried, if it was an error of the mock's catalogue. */
  problem?: ProblemBody;
}

/**
 * The log line of an answered request: `2026-01-01T10:00:00.000Z PUT /api/v1/object/property/1031 400 3ms
 * Invalid Request: body /garage must be one of ...`. The time places the line beside the client's own logs;
 * for an error, the title and the first thing wrong tell why without a second request to see the body.
 */
export function requestLogLine(request: LoggedRequest): string {
  const line =
    `${isoTime(request.at)} ${request.method} ${request.url} ` +
    `${request.status} ${Math.round(request.durationMs)}ms`;
  const { problem } = request;
  if (!problem) return line;
  const [first, ...others] = problem.errors ?? [];
  const why = first
    ? `${first.in} ${first.pointer || "/"} ${first.detail}${others.length > 0 ? ` (and ${others.length} more)` : ""}`
    : problem.detail;
  return `${line} ${problem.title}: ${oneLine(why)}`;
}

let lastAt = Number.NaN;
let lastIso = "";

/** The time as ISO 8601, kept for the next line: under load, many lines share a millisecond. */
function isoTime(at: number): string {
  if (at !== lastAt) {
    lastIso = new Date(at).toISOString();
    lastAt = at;
  }
  return lastIso;
}

/** Keeps a line a line, and a long detail from flooding the log. */
function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > 200 ? `${flat.slice(0, 199)}…` : flat;
}

/**
 * The same request as one JSON object on one line, in the shape pino and pino-http give (`--log-format json`), so
 * that log tooling reads it as it reads a Node service's own logs:
 * `{"level":30,"time":1767225600000,"pid":7,"hostname":"ci",
 * "req":{"method":"GET","url":"/api/v1/object/property/1001"},
 * "res":{"statusCode":200},"responseTime":1,"msg":"request completed"}`. An answer with a 4xx status is logged at
 * level 40 (warn), a 5xx at 50 (error); an error of the mock's catalogue adds `problem`: its title, detail and
 * offending fields, as the answer carried them.
 */
export function requestLogJson(request: LoggedRequest): string {
  const level = request.status >= 500 ? "error" : request.status >= 400 ? "warn" : "info";
  const { problem } = request;
  const errors = problem?.errors ? { errors: problem.errors } : {};
  const why = problem
    ? `,"problem":${JSON.stringify({ title: problem.title, detail: problem.detail, ...errors })}`
    : "";
  return (
    `${jsonLineStart(level, request.at)},` +
    `"req":{"method":${JSON.stringify(request.method)},"url":${JSON.stringify(request.url)}},` +
    `"res":{"statusCode":${request.status}},"responseTime":${Math.round(request.durationMs)}` +
    `${why},"msg":"request completed"}`
  );
}

/** The request log's line in a format. */
export function formatRequestLog(format: LogFormat): (request: LoggedRequest) => string {
  return format === "json" ? requestLogJson : requestLogLine;
}
