import { hostname } from "node:os";

/** How the mock writes its log (`--log-format`): lines for people, or one JSON object per line for log tooling. */
export type LogFormat = "text" | "json";
export const LOG_FORMATS: readonly LogFormat[] = ["text", "json"];

/** How much a message matters; in JSON, pino's numbers (30, 40, 50), which log tooling reads. */
export type LogLevel = "info" | "warn" | "error";
export const PINO_LEVELS: Record<LogLevel, number> = { info: 30, warn: 40, error: 50 };

/** The fields pino puts first on every line. */
const PROCESS = { pid: process.pid, hostname: hostname() };

/**
 * A message of the mock that is not a request (a contract violation, a state file that cannot be written, an
 * internal error): as it is in text, and in JSON as pino writes a message, `{"level":50,"time":…,"pid":…,
 * "hostname":…,"msg":"…"}`.
 */
export function messageLine(format: LogFormat, level: LogLevel, text: string, at: number): string {
  return format === "text" ? text : JSON.stringify({ level: PINO_LEVELS[level], time: at, ...PROCESS, msg: text });
}

/** The start of every JSON line after the level, for the request log (built once: this runs per request). */
export function jsonLineStart(level: LogLevel, at: number): string {
  return `{"level":${PINO_LEVELS[level]},"time":${at},"pid":${PROCESS.pid},"hostname":${JSON.stringify(PROCESS.hostname)}`;
}
