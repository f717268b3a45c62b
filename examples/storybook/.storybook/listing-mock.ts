/**
 * The kit's stateful mock behind every story, and how a story chooses the state it starts from.
 *
 * A story says what it needs under `parameters.listingMock`; before the story renders, the mock is set to that
 * state (records, fault rules and the request journal alike), whatever the stories before it wrote, so each
 * story starts from its own state in the Storybook UI and under the Vitest addon alike.
 */
import { createMockHandlers, loadRecordChecker, type Database, type FaultRule } from "property-listing-kit/msw";

/** What a story may ask of the mock. */
export interface ListingMockParameters {
  /**
   * A shipped state (`"fixtures"`, `"empty-account"`, `"seats-full"`, `"many-properties"`) or records of the
   * story's own; `"fixtures"` when not given.
   */
  state?: string | Database;
  /** Fault rules, as `mock.faults.add` takes them: `{ path, method?, status?, delay?, drop?, times? }`. */
  faults?: Array<Omit<FaultRule, "id">>;
  /** Milliseconds every API answer waits, for loading states. */
  latency?: number;
}

export const mock = createMockHandlers({
  // Lets a story give records of its own, each checked as the service would hold it.
  checkRecords: await loadRecordChecker(),
  // An answer the contract does not allow is a 500 and is kept in mock.violations: a story never shows one.
  validateResponses: true,
  // Each story's requests and answers, under the story's id, for the consumer contracts.
  usage: { consumer: "listing-storybook" },
});

/** Sets the mock to the state a story asks for and begins the story's usage under its id. */
export function applyListingMock(storyId: string, parameters: ListingMockParameters | undefined): void {
  mock.useState(parameters?.state ?? "fixtures");
  mock.usage?.beginTest(storyId);
  for (const rule of parameters?.faults ?? []) mock.faults.add(rule);
  if (parameters?.latency) mock.faults.add({ path: "/api/*", delay: parameters.latency });
}
