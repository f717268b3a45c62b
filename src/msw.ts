/**
 * `property-listing-kit/msw`: the stateful, validating mock of the Property Listing Service as MSW request
 * handlers, for `setupWorker` (the browser's service worker) and `setupServer` (vitest, jest, Playwright's
 * Node side). msw is an optional peer dependency (MSW 2 or 3), never bundled.
 *
 * @example
 * import { setupWorker } from "msw/browser";
 * import { createMockHandlers } from "property-listing-kit/msw";
 * const mock = createMockHandlers();
 * await setupWorker(...mock.handlers).start();
 */
export {
  createMockHandlers,
  type MockHandlers,
  type MockHandlersOptions,
  type LoadedPlayback,
} from "./hosts/msw/create-mock-handlers.ts";
export type { ObservedNetwork } from "./hosts/msw/override-observer.ts";
export { loadProfilePlayback } from "./hosts/msw/load-profile-playback.ts";
export { loadRecordChecker } from "./hosts/msw/load-record-checker.ts";
export { ProfileRefused } from "./mock/profile-refused.ts";
export type { ServiceProfile } from "./contract/profile/service-profile.ts";
export type { AccountConfig } from "./mock/account-config.ts";
export type { Database } from "./mock/store/records.ts";
export type { UsageControl } from "./mock/usage/usage-recorder.ts";
export type { AnswersDocument, ServiceAnswer } from "./contract/usage/answers-document.ts";
export type { AnswersServer, NotCovered } from "./mock/answers/answers-server.ts";
export type { JournalEntry, JournalFilter } from "./mock/services/request-journal.ts";
export type { FaultRule } from "./mock/services/fault-rules.ts";
export { MockRefused } from "./mock/mock-refused.ts";
export type { MockFaults } from "./mock/mock-faults.ts";
