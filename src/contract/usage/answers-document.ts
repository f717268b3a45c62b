import type { UsageDocument } from "./usage-document.ts";

/**
 * What a service answered a consumer's usage: for each consumer test, each interaction in order, the service's
 * status, media type, headers and body (`--write-answers`). The mock serves it back to the same suite
 * (`--answers`, `MOCK_ANSWERS`, `answers` of `createMockServer` and `createMockHandlers`), so that each test's own
 * result against the service's answers is the verdict (`--rerun`). It carries the usage it was made from, so that
 * a suite that writes its usage while answers are served writes what was recorded, not the re-run. Versioned,
 * with a published JSON Schema (`spec/answers.schema.json`); it never holds a credential's value.
 */

/** The version of the answers format this kit reads and writes; a reader refuses another. */
export const ANSWERS_VERSION = 1;

export interface AnswersDocument {
  $schema?: string;
  answersVersion: typeof ANSWERS_VERSION;
  consumer: string;
  /** Who answered: a service (its base address), or the mock playing a service profile, nothing sent. */
  source:
    | { kind: "service"; baseUrl: string }
    | { kind: "profile"; profile: string; runId: string; recordedAt: string };
  /** The usage the answers were made from, as it was read. */
  usage: UsageDocument;
  /** One per test of the usage, in its order and under its name. */
  tests: AnswersTest[];
}

export interface AnswersTest {
  name: string;
  /** Why the test was not replayed at all (its start state could not be made, an account is missing). */
  notReplayed?: string;
  /** One per interaction of the usage's test, in order. */
  interactions: ServiceAnswer[];
}

/** What the service answered one interaction, or why it was not sent. */
export type ServiceAnswer =
  | {
      operation: string;
      /** The path the replay sent, the service's ids in it (`/api/v1/object/property/500007`). */
      path: string;
      status: number;
      /** Without parameters (`application/json`); null when the answer had no content-type. */
      mediaType: string | null;
      /** The answer's headers, lower-case and sorted, less those of the connection, the clock and cookies. */
      headers: Record<string, string>;
      /** The parsed JSON body; the text for a body that is not JSON; absent when empty. */
      body?: unknown;
    }
  | { operation: string; notSent: string };
