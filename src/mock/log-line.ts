// The words of the mock's log, which the core and its store speak too; the lines themselves (with the process's
// pid and hostname) are written by the Node host (src/hosts/node/log-line.ts).

/** How the mock writes its log (`--log-format`): lines for people, or one JSON object per line for log tooling. */
export type LogFormat = "text" | "json";
export const LOG_FORMATS: readonly LogFormat[] = ["text", "json"];

/** How much a message matters; in JSON, pino's numbers (30, 40, 50), which log tooling reads. */
export type LogLevel = "info" | "warn" | "error";
export const PINO_LEVELS: Record<LogLevel, number> = { info: 30, warn: 40, error: 50 };
