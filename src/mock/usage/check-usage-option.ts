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

/**
 * What is wrong with the `usage` option as a program gives it, in words the host's name goes before, or undefined
 * when it is right.
 */
export function usageOptionProblem(usage: unknown): string | undefined {
  if (usage === null || typeof usage !== "object" || Array.isArray(usage))
    return '"usage" must be an object such as { consumer: "web-app" }.';
  const { consumer, file, limits, ...rest } = usage as Record<string, unknown>;
  const unknown = Object.keys(rest)[0];
  if (unknown !== undefined) return `"usage.${unknown}" is not an option of usage (consumer, file, limits).`;
  if (
    typeof consumer !== "string" ||
    consumer.length === 0 ||
    consumer.length > 200 ||
    /[\u0000-\u001f]/.test(consumer)
  ) {
    const got = JSON.stringify(consumer);
    return `"usage.consumer" must be a name of 1 to 200 characters without control characters, got ${got}.`;
  }
  if (file !== undefined && (typeof file !== "string" || file === ""))
    return `"usage.file" must be a file's path, got ${JSON.stringify(file)}.`;
  if (limits !== undefined) {
    if (limits === null || typeof limits !== "object") return '"usage.limits" must be an object.';
    for (const [name, value] of Object.entries(limits)) {
      if (
        !["maxTests", "maxInteractionsPerTest", "maxBytes"].includes(name) ||
        !(Number.isInteger(value) && (value as number) >= 0)
      ) {
        return `"usage.limits.${name}" must be maxTests, maxInteractionsPerTest or maxBytes, a whole number.`;
      }
    }
  }
  return undefined;
}
