import type { UsageLimits } from "./usage-recorder.ts";

/** The `usage` option: a consumer's usage recorded. */
export interface UsageOption {
  /** The consumer's name (a Pact file's consumer): up to 200 characters, no control characters. */
  consumer: string;
  /** Where the Node host writes the document (as each test ends, and on close). */
  file?: string;
  /** Bounds other than the defaults (2,000 tests, 500 interactions per test, 32 MiB). */
  limits?: Partial<UsageLimits>;
}

/** Checks the `usage` option as a program gives it; a mistake throws a TypeError naming it. */
export function checkUsageOption(usage: unknown, caller: string): void {
  if (usage === null || typeof usage !== "object" || Array.isArray(usage))
    throw new TypeError(`${caller}: "usage" must be an object such as { consumer: "web-app" }.`);
  const { consumer, file, limits, ...rest } = usage as Record<string, unknown>;
  const unknown = Object.keys(rest)[0];
  if (unknown !== undefined)
    throw new TypeError(`${caller}: "usage.${unknown}" is not an option of usage (consumer, file, limits).`);
  if (
    typeof consumer !== "string" ||
    consumer.length === 0 ||
    consumer.length > 200 ||
    /[\u0000-\u001f]/.test(consumer)
  ) {
    throw new TypeError(
      `${caller}: "usage.consumer" must be a name of 1 to 200 characters without control characters, got ${JSON.stringify(consumer)}.`,
    );
  }
  if (file !== undefined && (typeof file !== "string" || file === ""))
    throw new TypeError(`${caller}: "usage.file" must be a file's path, got ${JSON.stringify(file)}.`);
  if (limits !== undefined) {
    if (limits === null || typeof limits !== "object")
      throw new TypeError(`${caller}: "usage.limits" must be an object.`);
    for (const [name, value] of Object.entries(limits)) {
      if (
        !["maxTests", "maxInteractionsPerTest", "maxBytes"].includes(name) ||
        !(Number.isInteger(value) && (value as number) >= 0)
      ) {
        throw new TypeError(
          `${caller}: "usage.limits.${name}" must be maxTests, maxInteractionsPerTest or maxBytes, a whole number.`,
        );
      }
    }
  }
}
