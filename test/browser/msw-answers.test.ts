/**
 * A service's answers served in a real browser: the kit's MSW handlers with the `answers` option under MSW's worker
 * in Chromium, a test begun over `POST /__admin/usage/tests`; its request gets the service's answer, the next one
 * past the answers the mock's own, listed as not covered; the usage read back is the one the answers were made from.
 */
import { describe, expect, it } from "vitest";
import { CHROMIUM, CHROMIUM_AVAILABLE } from "../support/chromium.ts";
import { pageResults, useMswPageInChromium } from "../support/msw-page.ts";

const WHY =
  `${CHROMIUM} is missing (.ci/run installs Debian's chromium package; REQUIRE_BROWSER=1 makes its absence an ` +
  `error)`;

describe(`a service's answers served by MSW's worker in Chromium (needs ${CHROMIUM})`, () => {
  const page = useMswPageInChromium("test/browser/msw-answers-page/page.ts");

  it("serves the test's answer, then answers as the mock would and lists it", { timeout: 120_000 }, async ({
    skip,
  }) => {
    skip(!CHROMIUM_AVAILABLE, WHY);
    const tab = await page.newTab();
    await tab.goto(`${page.origin()}/`);
    const results = await pageResults<{
      error?: string;
      begun: number;
      served: { status: number; body: unknown };
      past: number;
      notCovered: Array<{ test: string; reason: string }>;
      usage: { consumer: string; tests: unknown[] };
    }>(tab);
    expect(results.error).toBeUndefined();
    expect(results.begun).toBe(200);
    expect(results.served).toEqual({ status: 200, body: { nid: "500007", title: "Quiet cottage", country: null } });
    expect(results.past).toBe(404);
    expect(results.notCovered).toEqual([
      expect.objectContaining({ test: "page > header", reason: "the test's 1 answers were used up" }),
    ]);
    expect(results.usage).toMatchObject({ consumer: "browser-app", tests: [] });
    await tab.close();
  });
});
