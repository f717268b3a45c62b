/**
 * The kit's mock, as MSW handlers in this test process, recording this suite's usage. `property-listing-kit/vitest`
 * (loaded before this file) starts a test of the usage as each vitest test starts; the usage is written once the
 * suite is done, for `property-listing-contract --usage` to replay against the real service.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { setupServer } from "msw/node";
import { createMockHandlers, loadProfilePlayback } from "property-listing-kit/msw";
import { afterAll, beforeAll, beforeEach } from "vitest";

export const BASE_URL = "http://listing.test";
// With SERVICE_PROFILE, the mock answers as the service was recorded to (docs/profiles.md), and the usage says
// which answers rest on that profile rather than on the mock's own choices.
const profile = process.env.SERVICE_PROFILE;
const playback = profile ? await loadProfilePlayback(readFileSync(profile, "utf8")) : undefined;
export const mock = createMockHandlers({
  baseUrl: BASE_URL,
  autologinSecret: "example",
  usage: { consumer: "listing-web" },
  ...(playback ? { playback } : {}),
});
const server = setupServer(...mock.handlers);

beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
beforeEach(() => mock.reset());
afterAll(() => {
  server.close();
  writeFileSync(process.env.USAGE_FILE ?? "usage.json", `${JSON.stringify(mock.usage!.toJSON(), null, 2)}\n`);
});
