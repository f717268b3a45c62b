import { hostname } from "node:os";
import { PINO_LEVELS, type LogFormat, type LogLevel } from "../../mock/log-line.ts";

export { LOG_FORMATS, type LogFormat, type LogLevel } from "../../mock/log-line.ts";

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
  return (
    `{"level":${PINO_LEVELS[level]},"time":${at},"pid":${PROCESS.pid},` +
    `"hostname":${JSON.stringify(PROCESS.hostname)}`
  );
}
