/**
 * A consumer's usage recorded in a real browser: the kit's MSW handlers with `usage: { consumer }` under MSW's
 * worker in Chromium, tests begun over `POST /__admin/usage/tests` and `usage.beginTest`; the document valid under
 * the published schema, in order, with its bindings, and without the page's credentials.
 */
import { describe, expect, it } from "vitest";
import { CHROMIUM, CHROMIUM_AVAILABLE } from "../support/chromium.ts";
import { pageResults, useMswPageInChromium } from "../support/msw-page.ts";
import { expectValidUsage } from "../usage/usage-check.ts";

const WHY =
  `${CHROMIUM} is missing (.ci/run installs Debian's chromium package; REQUIRE_BROWSER=1 makes its absence an ` +
  `error)`;

describe(`a consumer's usage recorded by MSW's worker in Chromium (needs ${CHROMIUM})`, () => {
  const page = useMswPageInChromium("test/browser/msw-usage-page/page.ts");

  it("records the page's tests in order, valid, without its credentials", { timeout: 120_000 }, async ({ skip }) => {
    skip(!CHROMIUM_AVAILABLE, WHY);
    const tab = await page.newTab();
    await tab.goto(`${page.origin()}/`);
    const results = await pageResults<{ error?: string; begun: number; usage: any }>(tab);
    expect(results.error).toBeUndefined();
    expect(results.begun).toBe(200);
    const { usage } = results;
    expectValidUsage(usage);
    expect(usage.consumer).toBe("browser-app");
    expect(usage.tests.map((test: { name: string }) => test.name)).toEqual(["page > create and read", "page > agents"]);
    expect(usage.tests[0].interactions.map((interaction: { operation: string }) => interaction.operation)).toEqual([
      "createProperty",
      "retrieveProperty",
    ]);
    expect(usage.tests[0].interactions[1].bindings).toEqual([
      { at: "/params/nid", from: "answer", interaction: 0, pointer: "/nid" },
    ]);
    expect(usage.tests[1].interactions[0].request.account).toBe("primary");
    // The browser's own headers (user agent, sec-*, origin, referer) are the transport's, not the client's.
    const names = Object.keys(usage.tests[0].interactions[0].request.headers);
    expect(names).toContain("content-type");
    expect(names.filter((name) => /^(user-agent|origin|referer|host|sec-)/.test(name))).toEqual([]);
    const text = JSON.stringify(usage);
    expect(text).not.toContain("page-key-5f1e9a7c");
    expect(text).not.toContain("page-token-8b2d4c6e");
    await tab.close();
  });
});
