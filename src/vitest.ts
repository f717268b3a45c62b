/**
 * `import "property-listing-kit/vitest"` (or list it in vitest's `setupFiles`) adds the matchers
 * `toSatisfyContract` and `toHaveReceived` to `expect`, and begins each test on every mock of the process that
 * records a consumer's usage (the `usage` option) or serves a service's answers (`MOCK_ANSWERS`); with
 * `MOCK_ANSWERS_RESULTS` set (`property-listing-contract --rerun`), each test's own result is added to that file.
 *
 * @example
 * const response = await request(app).get("/api/v1/object/property/42").set(headers);
 * expect(response).toSatisfyContract();
 * expect({ method: "POST", path: "/api/v1/object/property", headers, body }).toSatisfyContract();
 * expect(mock).toHaveReceived({ method: "POST", path: "/api/v1/object/property", body: expect.objectContaining({
 * street: "1 Main St" }) });
 */
import { afterEach, beforeEach, expect, onTestFinished } from "vitest";
import { toSatisfyContract, type ContractMatcherOptions } from "./contract/to-satisfy-contract.ts";
import { toHaveReceived, type ReceivedOptions, type ReceivedPattern } from "./mock/to-have-received.ts";
import { setTestNameSource } from "./mock/usage/running-test-name.ts";
import { usageInProcess } from "./mock/usage/usage-registry.ts";
import { reportTestResult, RESULTS_VARIABLE } from "./mock/answers/report-test-result.ts";

expect.extend({ toSatisfyContract, toHaveReceived });

// Each test begins, under its name (`suite > test`), on every mock of this process that records a consumer's
// usage (the `usage` option of createMockServer and createMockHandlers): before the test's own hooks, so that
// the state they set is the state the test starts from.
// A runner that loads this module once for many files (vitest with `isolate: false`) runs this hook in the first
// file only; the mocks then ask which test runs on their first call in each test.
// While a service's answers are served (`property-listing-contract --rerun`), each test's own result is added
// to the file MOCK_ANSWERS_RESULTS names: the verdict of that consumer test against the service.
const reportResults = Boolean(
  (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.[RESULTS_VARIABLE],
);
// vitest's browser mode leaves expect's `currentTestName` unset, so the name comes from the hook's own task there.
let hookTestName: string | undefined;
setTestNameSource(() => expect.getState().currentTestName ?? hookTestName);
beforeEach((context) => {
  hookTestName = expect.getState().currentTestName ?? nameOf(context.task);
  if (reportResults) {
    const name = hookTestName || "(unnamed test)";
    onTestFinished(({ task }) => reportTestResult(name, task.result?.state, task.result?.errors ?? []));
  }
  const mocks = usageInProcess();
  if (mocks.length === 0) return;
  const name = hookTestName || "(unnamed test)";
  for (const usage of mocks) usage.beginTest(name);
});
afterEach(() => {
  hookTestName = undefined;
});

/** A test's name as vitest writes it (its `currentTestName`): its suites' names and its own, without the file's. */
interface NamedTask {
  name: string;
  suite?: NamedTask | undefined;
  file?: NamedTask | undefined;
}
function nameOf(task: NamedTask): string {
  const names = [task.name];
  let at = task;
  while (at.suite) {
    at = at.suite;
    if (at.name) names.unshift(at.name);
  }
  // The outermost name is the file's, whether or not the chain of suites reached it.
  if (at !== task.file) names.unshift(task.file?.name ?? "");
  return names.slice(1).join(" > ");
}

declare module "vitest" {
  // biome-ignore lint/suspicious/noExplicitAny: the declaration merges with vitest's own, which defaults T to any
  interface Matchers<T = any> {
    /** Passes when the request or response is legal under the Property Listing Service contract. */
    toSatisfyContract(options?: ContractMatcherOptions): T;
    /**
     * Passes when the mock (or its `requests()`, or the body of `GET /__admin/requests`) holds a request matching
     * the pattern (exactly `times` of them when given); when it fails, it lists what was received.
     */
    toHaveReceived(pattern: ReceivedPattern, options?: ReceivedOptions): T;
  }
}

export { useContract, checkAgainstContract, type ContractMatcherOptions } from "./contract/to-satisfy-contract.ts";
export type { ReceivedPattern, ReceivedOptions, ReceivedSource } from "./mock/to-have-received.ts";
