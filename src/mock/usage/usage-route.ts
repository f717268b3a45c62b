import { discardBody } from "../http/read-body.ts";
import { readAdminJson } from "../http/read-admin-json.ts";
import type { MockRequest } from "../http/mock-request.ts";
import { okReply, problemReply, type Reply } from "../http/reply.ts";
import { testNameProblem, type UsageControl } from "./usage-recorder.ts";

export const USAGE_TESTS_PATH = "/__admin/usage/tests";
/** A test's name is short; a larger body is refused before it is read whole. */
const BODY_LIMIT = 16 * 1024;

/**
 * `POST /__admin/usage/tests` with `{"name": "<suite > test>"}`: the test under way ends and this one begins, from
 * the state the mock is in (what a client's test runner calls in its `beforeEach` when the mock runs as a process).
 * A body that is not that is a 400 listing what is wrong, and changes nothing; a mock that does not record usage
 * answers 409 saying how to turn it on.
 */
export function createUsageRoute(
  usage: UsageControl | undefined,
): (request: MockRequest) => Promise<Reply | undefined> {
  return async (request) => {
    if (request.method !== "POST") {
      discardBody(request);
      return problemReply(
        {
          problem: "methodNotAllowed",
          detail: `${request.method} is not a method of ${USAGE_TESTS_PATH}; it allows POST.`,
        },
        USAGE_TESTS_PATH,
        { Allow: "POST" },
      );
    }
    if (!usage) {
      discardBody(request);
      return problemReply(
        {
          problem: "usageNotRecorded",
          detail:
            "This mock does not record a consumer's usage: " +
            "start it with --record-usage <file> --consumer <name> (MOCK_RECORD_USAGE, MOCK_CONSUMER), " +
            "or give createMockServer / createMockHandlers the option usage: { consumer }.",
        },
        USAGE_TESTS_PATH,
      );
    }
    const parsed = await readAdminJson(request, BODY_LIMIT, USAGE_TESTS_PATH, {
      tooLarge: `A test's name is sent in under ${BODY_LIMIT} bytes.`,
      empty: 'The body is empty; send {"name": "<the test\'s name>"}.',
    });
    if (!parsed.ok) return parsed.reply;
    const body = parsed.value;
    const refuse = (pointer: string, detail: string) =>
      problemReply(
        {
          problem: "invalidUsageTest",
          detail: 'Send {"name": "<the test\'s name>"}, as the test runner names it (suite > test).',
          errors: [{ in: "body", pointer, detail }],
        },
        USAGE_TESTS_PATH,
      );
    if (body === null || typeof body !== "object" || Array.isArray(body)) return refuse("", "must be a JSON object");
    const extra = Object.keys(body).find((key) => key !== "name");
    if (extra !== undefined)
      return refuse(
        `/${extra.slice(0, 100).replace(/~/g, "~0").replace(/\//g, "~1")}`,
        "is not a field of this route (name)",
      );
    if (!("name" in body)) return refuse("/name", "is required");
    const problem = testNameProblem(body.name);
    if (problem) return refuse("/name", problem);
    const name = (body as { name: string }).name;
    usage.beginTest(name);
    return okReply({ status: "test", name });
  };
}
