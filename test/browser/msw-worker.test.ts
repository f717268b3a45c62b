/**
 * Issue 30, item 4: the kit's handlers in a real browser. esbuild bundles a page (no framework) with msw/browser
 * and property-listing-kit/msw; Chromium opens it from a plain node:http server on 127.0.0.1, the page registers
 * MSW's service worker, and its own fetch creates, retrieves and lists properties, creates an agent twice (409),
 * sends a bad body (400) and no credentials (401), then resets the mock. The page's server must see no API
 * request: the worker answered every one.
 */
import { describe, expect, it } from "vitest";
import { CHROMIUM, CHROMIUM_AVAILABLE } from "../support/chromium.ts";
import { pageResults, useMswPageInChromium } from "../support/msw-page.ts";

const WHY =
  `${CHROMIUM} is missing (.ci/run installs Debian's chromium package; REQUIRE_BROWSER=1 makes its absence an ` +
  `error)`;

describe(`MSW's worker with the kit's handlers in Chromium (needs ${CHROMIUM})`, () => {
  const reached: string[] = [];
  const page = useMswPageInChromium("test/browser/msw-page/page.ts", (method, path) =>
    reached.push(`${method} ${path}`),
  );

  it("answers the page's own fetch from the worker: create, retrieve, list, 409, 400, 401, reset", {
    timeout: 120_000,
  }, async ({ skip }) => {
    skip(!CHROMIUM_AVAILABLE, WHY);
    const tab = await page.newTab();
    await tab.goto(`${page.origin()}/`);
    const results = await pageResults<Record<string, any>>(tab);
    expect(results.error).toBeUndefined();
    const seeded = results.listed[1] as number;
    expect(results).toEqual({
      listed: [200, seeded],
      created: [200, "string"],
      retrieved: [200, "1 Worker Way"],
      listedAfter: [200, seeded + 1],
      firstAgent: 200,
      duplicate: [409, "Agent Already Exists", "application/problem+json; charset=utf-8"],
      badBody: [400, "application/problem+json; charset=utf-8"],
      anonymous: [401, "Unauthorized"],
      journal: 8,
      listedAfterReset: [200, seeded],
      retrievedAfterReset: 404,
      violations: 0,
      controlled: true,
    });
    expect(seeded).toBeGreaterThan(0);
    // The page's own server served the page, its script and the worker, and no API request reached it.
    expect(reached.filter((line) => !/^GET \/(app\.js|mockServiceWorker\.js|favicon\.ico)?$/.test(line))).toEqual([]);
    expect(reached).toContain("GET /mockServiceWorker.js");
  });

  it("reaches the worker with a typed client made before and after worker.start(); journals an override", {
    timeout: 120_000,
  }, async ({ skip }) => {
    skip(!CHROMIUM_AVAILABLE, WHY);
    const tab = await page.newTab();
    await tab.goto(`${page.origin()}/?client`);
    const results = await pageResults<unknown>(tab);
    expect(results).toEqual({
      early: [200, true],
      late: [200, true],
      overridden: [200, {}],
      journal: [
        ["GET", "/api/v1/object/properties/1", 200, false, "demo-key", "application/json"],
        ["GET", "/api/v1/object/properties/1", 200, false, "demo-key", "application/json"],
        ["GET", "/api/v1/object/agent_cards", 200, true, "demo-key", "application/json"],
      ],
      listed: [200, 200, 200],
    });
    expect(reached.filter((line) => line.includes("/api/"))).toEqual([]);
  });

  it("keeps the state across a reload when asked to (persist: sessionStorage), and reset() clears what is kept", {
    timeout: 120_000,
  }, async ({ skip }) => {
    skip(!CHROMIUM_AVAILABLE, WHY);
    const tab = await page.newTab();
    const loaded = async () => {
      return pageResults(tab);
    };
    await tab.goto(`${page.origin()}/?persist`);
    expect(await loaded()).toEqual({ load: 1, created: 200 });
    await tab.reload();
    expect(await loaded()).toEqual({ load: 2, retrieved: [200, "2 Kept Lane"] });
    await tab.reload();
    expect(await loaded()).toEqual({ load: 3, retrieved: [404, null] });
    expect(reached.filter((line) => line.includes("/api/"))).toEqual([]);
  });
});
