/**
 * The core with nothing of a host around it, for test/msw/host-neutral-core.test.ts to bundle for the browser
 * and run where no Node global exists: the mock over the generated contract and the shipped fixtures.
 */
import { builtInContract } from "../../src/contract/built-in-contract.ts";
import { DEFAULT_FIXTURES_JSON } from "../../src/generated/default-fixtures.ts";
import { createMockCore } from "../../src/mock/create-mock-core.ts";
import { plainRequest, type PlainRequest } from "../../src/mock/http/mock-request.ts";
import { bodyOf, contentTypeOf } from "../../src/mock/http/reply.ts";

/** A mock; `answer` takes plain request values and gives plain replies (status, content-type, body text). */
export function createPlainMock() {
  const core = createMockCore({
    contract: builtInContract({ closed: true }),
    seed: () => JSON.parse(DEFAULT_FIXTURES_JSON),
    validateResponses: true,
    autologinSecret: "fixed",
    baseUrl: "http://mock.test",
    tell: () => {},
    reportError: (text) => {
      throw new Error(text);
    },
  });
  return {
    async answer(request: PlainRequest) {
      const answer = await core.answer(plainRequest(request));
      if (!answer?.reply) return { dropped: true };
      const body = bodyOf(answer.reply);
      return {
        status: answer.reply.status,
        contentType: contentTypeOf(answer.reply),
        body: typeof body === "string" ? body : new TextDecoder().decode(body),
      };
    },
    reset: core.reset,
    violations: core.violations,
  };
}
