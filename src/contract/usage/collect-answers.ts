import type { Exchange } from "../runner/http-exchange.ts";
import { ANSWERS_VERSION, type AnswersDocument, type AnswersTest, type ServiceAnswer } from "./answers-document.ts";
import type { UsageDocument } from "./usage-document.ts";

/** Headers of the connection, of the clock and cookies: not what the service answered the client's question. */
const LEFT_OUT = new Set([
  "connection",
  "keep-alive",
  "transfer-encoding",
  "content-length",
  "date",
  "set-cookie",
  "age",
  "expires",
  "last-modified",
  "etag",
  "x-request-id",
  "x-response-time",
  "server-timing",
]);

/**
 * Gathers what a replay was answered into the answers document (`--write-answers`): the replay hands each
 * interaction's answer, or why it was not sent, as it goes (replay-usage.ts), already free of credentials.
 */
export class AnswersCollector {
  readonly #tests = new Map<string, AnswersTest>();

  constructor(private readonly usage: UsageDocument) {
    for (const test of usage.tests) this.#tests.set(test.name, { name: test.name, interactions: [] });
  }

  answered(test: string, index: number, answer: ServiceAnswer): void {
    const entry = this.#tests.get(test);
    if (entry) entry.interactions[index] = answer;
  }

  notReplayed(test: string, reason: string): void {
    const entry = this.#tests.get(test);
    if (entry) entry.notReplayed = reason;
  }

  /**
   * The document: every interaction the replay never reached is marked not sent, so that each test keeps its length.
   */
  document(source: AnswersDocument["source"]): AnswersDocument {
    const tests = this.usage.tests.map((test) => {
      const entry = this.#tests.get(test.name)!;
      const interactions = test.interactions.map(
        (interaction, index) =>
          entry.interactions[index] ?? {
            operation: interaction.operation,
            notSent: entry.notReplayed ?? "the replay did not reach it",
          },
      );
      return { ...entry, interactions };
    });
    return {
      $schema: "https://property-listing.example/schemas/answers.schema.json",
      answersVersion: ANSWERS_VERSION,
      consumer: this.usage.consumer,
      source,
      usage: this.usage,
      tests,
    };
  }
}

/** An answer of the service as the document keeps it. */
export function serviceAnswerOf(operation: string, exchange: Exchange): ServiceAnswer {
  const headers: Record<string, string> = {};
  const names: string[] = [];
  exchange.headers.forEach((_value, name) => names.push(name.toLowerCase()));
  for (const name of [...new Set(names)].sort()) if (!LEFT_OUT.has(name)) headers[name] = exchange.headers.get(name)!;
  const mediaType = exchange.headers.get("content-type")?.split(";")[0]?.trim().toLowerCase() || null;
  const body = exchange.body !== undefined ? exchange.body : exchange.text !== "" ? exchange.text : undefined;
  return {
    operation,
    path: exchange.path,
    status: exchange.status,
    mediaType,
    headers,
    ...(body !== undefined ? { body } : {}),
  };
}
