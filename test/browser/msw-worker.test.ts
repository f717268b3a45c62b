/**
 * Issue 30, item 4: the kit's handlers in a real browser. esbuild bundles a page (no framework) with msw/browser
 * and property-listing-kit/msw; Chromium opens it from a plain node:http server on 127.0.0.1, the page registers
 * MSW's service worker, and its own fetch creates, retrieves and lists properties, creates an agent twice (409),
 * sends a bad body (400) and no credentials (401), then resets the mock. The page's server must see no API
 * request: the worker answered every one.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bundleForBrowser } from "../../scripts/browser-bundle.ts";
import { CHROMIUM, CHROMIUM_AVAILABLE, launchChromium } from "../support/chromium.ts";
import { serveStaticSite, type StaticSite } from "../support/static-site.ts";

const WHY = `${CHROMIUM} is missing (.ci/run installs Debian's chromium package; REQUIRE_BROWSER=1 makes its absence an error)`;
const WORKER_SCRIPT = createRequire(import.meta.url).resolve("msw/mockServiceWorker.js");

describe(`MSW's worker with the kit's handlers in Chromium (needs ${CHROMIUM})`, () => {
  let site: StaticSite | undefined;
  let browser: Browser;
  let origin = "";
  const reached: string[] = [];

  beforeAll(async () => {
    if (!CHROMIUM_AVAILABLE) return;
    const bundle = await bundleForBrowser("test/browser/msw-page/page.ts", { minify: false });
    if (!bundle.ok) throw new Error(bundle.errors.join("\n"));
    const files: Record<string, [string, string]> = {
      "/": ["text/html", '<!doctype html><title>Front end</title><script type="module" src="/app.js"></script>'],
      "/app.js": ["text/javascript", bundle.code],
      "/mockServiceWorker.js": ["text/javascript", readFileSync(WORKER_SCRIPT, "utf8")],
    };
    site = await serveStaticSite(files, (method, path) => reached.push(`${method} ${path}`));
    origin = site.origin;
    browser = await launchChromium();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    site?.close();
  });

  it("answers the page's own fetch from the worker: create, retrieve, list, 409, 400, 401, reset", { timeout: 120_000 }, async ({ skip }) => {
    skip(!CHROMIUM_AVAILABLE, WHY);
    const tab = await browser.newPage();
    await tab.goto(`${origin}/`);
    await tab.waitForFunction(() => "results" in globalThis, undefined, { timeout: 60_000 });
    const results = (await tab.evaluate(() => (globalThis as unknown as { results: Record<string, unknown> }).results)) as Record<string, any>;
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

  it("reaches the worker with the typed client made before and after worker.start(), and journals an override it answered", { timeout: 120_000 }, async ({ skip }) => {
    skip(!CHROMIUM_AVAILABLE, WHY);
    const tab = await browser.newPage();
    await tab.goto(`${origin}/?client`);
    await tab.waitForFunction(() => "results" in globalThis, undefined, { timeout: 60_000 });
    const results = await tab.evaluate(() => (globalThis as unknown as { results: unknown }).results);
    expect(results).toEqual({
      early: [200, true],
      late: [200, true],
      overridden: [200, {}],
      journal: [
        ["GET", "/api/v1/object/properties/1", 200, false, "demo-key", "application/json"],
        ["GET", "/api/v1/object/properties/1", 200, false, "demo-key", "application/json"],
        ["GET", "/api/v1/object/agent_cards", 200, true, "demo-key", "application/json"],
      ],
    });
    expect(reached.filter((line) => line.includes("/api/"))).toEqual([]);
  });

  it("keeps the state across a reload when asked to (persist: sessionStorage), and reset() clears what is kept", { timeout: 120_000 }, async ({ skip }) => {
    skip(!CHROMIUM_AVAILABLE, WHY);
    const tab = await browser.newPage();
    const loaded = async () => {
      await tab.waitForFunction(() => "results" in globalThis, undefined, { timeout: 60_000 });
      return tab.evaluate(() => (globalThis as unknown as { results: unknown }).results);
    };
    await tab.goto(`${origin}/?persist`);
    expect(await loaded()).toEqual({ load: 1, created: 200 });
    await tab.reload();
    expect(await loaded()).toEqual({ load: 2, retrieved: [200, "2 Kept Lane"] });
    await tab.reload();
    expect(await loaded()).toEqual({ load: 3, retrieved: [404, null] });
    expect(reached.filter((line) => line.includes("/api/"))).toEqual([]);
  });
});
