import type { Contract } from "../../contract/build-contract.ts";
import type { AnswersDocument, ServiceAnswer } from "../../contract/usage/answers-document.ts";
import type { UsageDocument } from "../../contract/usage/usage-document.ts";
import type { Answered, ApiInterceptor } from "../http/api-interceptor.ts";
import { andThen } from "../http/maybe-async.ts";
import type { AppliedFaults } from "../services/journal-entry.ts";
import type { Reply } from "../http/reply.ts";
import { JsonBytes } from "../json-bytes.ts";
import { runningTestName } from "../usage/running-test-name.ts";
import { testNameProblem, UNNAMED_TEST, type UsageControl } from "../usage/usage-recorder.ts";
import type { OperationId } from "../../contract/operation-id.ts";

/** A request of a test that the service's answers do not cover, as the run's end reports it. */
export interface NotCovered {
  test: string;
  method: string;
  path: string;
  /** Why: no answer for that test, its answers used up, another operation expected, or the service was not asked. */
  reason: string;
}

/** Kept per test, so that a suite that never stops cannot grow the mock. */
const MAX_NOT_COVERED = 100;

/**
 * Paths whose operation is kept once matched; past it the cache starts again, so a client inventing paths cannot grow
 * it.
 */
const MAX_MATCHED_PATHS = 10_000;

/**
 * How far past the first unanswered interaction a request may be matched: requests a test sends at once
 * (`Promise.all`) reach the mock in any order.
 */
const WINDOW = 32;

/** One test's answers, each with the two paths that name its records: the service's ids, and the mock's. */
interface Planned {
  answer: ServiceAnswer;
  /** The path the replay sent (the service's ids); undefined for an interaction not sent. */
  servicePath: string | undefined;
  /** The path the client sent while recording (the mock's ids, literal ones included). */
  mockPath: string | undefined;
}

interface ServedTest {
  name: string;
  planned: Planned[] | undefined;
  used: boolean[];
  /** The first interaction not yet answered. */
  next: number;
  notCovered: NotCovered[];
}

/**
 * The service's answers, served back to the suite that recorded the usage they answer (`--answers`,
 * `MOCK_ANSWERS`, the `answers` option): while consumer test T runs, its n-th request that matches the n-th
 * recorded interaction's operation gets the service's n-th answer. Requests sent at once reach the mock in any
 * order: one whose path is an interaction's (with the ids the service gave, or the mock's) takes that
 * interaction's answer, so an id the service gave, sent back, is answered about its record. A request the answers do
 * not cover is answered as the mock would, marked in the journal (`fault.answers: "not-covered"`) and kept for the
 * run's end. Tests begin as recording begins them (vitest's current test, `POST /__admin/usage/tests`,
 * `usage.beginTest`); the usage it reads back is the one the answers were made from, so a suite that writes its usage
 * while answers are served writes what was recorded, never the re-run.
 */
export class AnswersServer implements UsageControl {
  readonly #byName = new Map<string, Planned[]>();
  readonly #usage: UsageDocument;
  readonly #contract: Contract;
  readonly #tests: ServedTest[] = [];
  /** Each answer's reply, encoded once: a test's suite sends the same answers again on every run. */
  readonly #replies = new WeakMap<ServiceAnswer, Reply>();
  /** The operation of each path sent (undefined: none), matched once. */
  readonly #operations = new Map<string, OperationId | undefined>();
  #open: ServedTest | undefined;
  #runnerTest: string | undefined;

  constructor(answers: AnswersDocument, contract: Contract) {
    const recorded = new Map(answers.usage.tests.map((test) => [test.name, test.interactions] as const));
    for (const test of answers.tests) {
      const sent = recorded.get(test.name);
      this.#byName.set(
        test.name,
        test.interactions.map((answer, index) => ({
          answer,
          servicePath: "path" in answer ? answer.path : undefined,
          mockPath: sent?.[index]?.request.path,
        })),
      );
    }
    this.#usage = answers.usage;
    this.#contract = contract;
  }

  beginTest(name: string): void {
    const problem = testNameProblem(name);
    if (problem) throw new TypeError(`beginTest: the test's name ${problem}.`);
    this.#runnerTest = runningTestName();
    this.#open = { name, planned: this.#byName.get(name), used: [], next: 0, notCovered: [] };
    this.#tests.push(this.#open);
    // Only what the run's end reports is kept of an ended test.
    if (this.#tests.length > 10_000) this.#tests.splice(0, this.#tests.length - 10_000);
  }

  toJSON(): UsageDocument {
    return structuredClone(this.#usage);
  }

  text(): string {
    return `${JSON.stringify(this.#usage, null, 2)}\n`;
  }

  /** The requests the answers did not cover, test by test, oldest first (`test` given: that test's only). */
  notCovered(test?: string): NotCovered[] {
    const tests = test === undefined ? this.#tests : this.#tests.filter((served) => served.name === test);
    return tests.flatMap((served) => served.notCovered);
  }

  /** The API interceptor that serves the answers; inside the faults, so that a fault a test asks for is the mock's. */
  interceptor(): ApiInterceptor {
    return (call, next) => {
      const test = this.#current();
      const operation = this.#operationOf(call.method, call.path);
      if (operation === undefined) return next(call);
      const at = this.#match(test, operation, call.path);
      if (at !== undefined) {
        test.used[at] = true;
        while (test.used[test.next]) test.next += 1;
        const planned = test.planned![at]!.answer;
        if (!("notSent" in planned)) {
          call.request.discardBody();
          let reply = this.#replies.get(planned);
          if (!reply) this.#replies.set(planned, (reply = replyOf(planned)));
          return { reply, operationId: operation, fault: SERVED };
        }
        return this.#uncovered(test, call, next, `the service was not asked it: ${planned.notSent}`);
      }
      const first = test.planned?.[test.next]?.answer;
      const reason =
        test.planned === undefined
          ? `the answers hold no test named ${JSON.stringify(test.name)}`
          : first === undefined
            ? `the test's ${test.planned.length} answers were used up`
            : `the next answer is for ${first.operation}, not ${operation}`;
      return this.#uncovered(test, call, next, reason);
    };
  }

  /**
   * The interaction a request answers: among the next unanswered ones of its operation, the one whose path it
   * sent (with the ids the service gave, or the mock's), else the first of them.
   */
  #match(test: ServedTest, operation: OperationId, path: string): number | undefined {
    const planned = test.planned;
    if (!planned) return undefined;
    let first: number | undefined;
    for (let at = test.next; at < planned.length && at < test.next + WINDOW; at += 1) {
      const candidate = planned[at]!;
      if (test.used[at] || candidate.answer.operation !== operation) continue;
      if (candidate.servicePath === path || candidate.mockPath === path) return at;
      first ??= at;
    }
    // In order, the first unanswered interaction is the only one a request of another path takes.
    return first === test.next ? first : undefined;
  }

  #operationOf(method: string, path: string): OperationId | undefined {
    const key = `${method} ${path}`;
    if (this.#operations.has(key)) return this.#operations.get(key);
    if (this.#operations.size >= MAX_MATCHED_PATHS) this.#operations.clear();
    const found = this.#contract.match(method, path);
    const operation = found.kind === "operation" ? found.operation.id : undefined;
    this.#operations.set(key, operation);
    return operation;
  }

  #uncovered(
    test: ServedTest,
    call: Parameters<ApiInterceptor>[0],
    next: Parameters<ApiInterceptor>[1],
    reason: string,
  ) {
    if (test.notCovered.length < MAX_NOT_COVERED)
      test.notCovered.push({ test: test.name, method: call.method, path: call.path, reason });
    return andThen(
      next(call),
      (answered): Answered => ({ ...answered, fault: { ...answered.fault, answers: "not-covered" } }),
    );
  }

  #current(): ServedTest {
    const running = runningTestName();
    if (running !== undefined && running !== this.#runnerTest && testNameProblem(running) === undefined)
      this.beginTest(running);
    if (!this.#open) this.beginTest(UNNAMED_TEST);
    return this.#open!;
  }
}

/** What the journal notes of a call a service's answer answered (one object for all: nobody changes it). */
const SERVED: AppliedFaults = { answers: "service" };

/** The service's answer as the mock sends it: its status, its content-type as sent, its other headers and its body. */
function replyOf(answer: Extract<ServiceAnswer, { status: number }>): Reply {
  const { "content-type": contentType, ...headers } = answer.headers;
  const body =
    answer.body === undefined
      ? new JsonBytes("")
      : new JsonBytes(typeof answer.body === "string" ? answer.body : JSON.stringify(answer.body));
  return {
    status: answer.status,
    contentType: answer.mediaType === "application/problem+json" ? "application/problem+json" : "application/json",
    ...(contentType !== undefined
      ? { mediaType: contentType }
      : answer.mediaType
        ? { mediaType: answer.mediaType }
        : {}),
    headers,
    body,
  };
}
