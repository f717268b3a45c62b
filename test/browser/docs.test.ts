/**
 * `/docs` in a real browser (Debian's Chromium, driven by playwright-core): the API reference renders every
 * operation of the contract from the mock's own assets, asks no other host for anything, logs no error, and its
 * "Try it out" reaches the mock with the demo credentials already filled in.
 */
import type { Page } from "playwright-core";
import { CHROMIUM, CHROMIUM_AVAILABLE, openChromium, type ChromiumSession } from "../support/chromium.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMockServer } from "../../src/hosts/node/create-mock-server.ts";
import { sharedContract } from "../support/mock-harness.ts";
import { HANG_MS } from "../support/deadlines.ts";

const available = CHROMIUM_AVAILABLE;
const WHY =
  `${CHROMIUM} is missing (.ci/run installs Debian's chromium package; REQUIRE_BROWSER=1 makes its absence an ` +
  `error)`;

/** Every operation of the contract as the page shows it: `GET /api/v1/object/template_base`. */
const operations = sharedContract()
  .operations.map((operation) => `${operation.method.toUpperCase()} ${operation.pathTemplate}`)
  .sort();

describe(`the API reference at /docs (needs ${CHROMIUM})`, () => {
  const mock = createMockServer({ contract: sharedContract(), validateResponses: true });
  let url = "";
  let browser: ChromiumSession;
  let page: Page;
  const otherHosts: string[] = [];
  const consoleErrors: string[] = [];
  const tryItRequests: Array<{ url: string; headers: Record<string, string> }> = [];

  beforeAll(async () => {
    if (!available) return;
    ({ url } = await mock.listen(0));
    browser = await openChromium();
    page = await browser.newPage();
    const origin = new URL(url).origin;
    page.on("request", (request) => {
      if (new URL(request.url()).origin !== origin && !request.url().startsWith("data:"))
        otherHosts.push(request.url());
      if (request.url().includes("/api/v1/object/"))
        tryItRequests.push({ url: request.url(), headers: request.headers() });
    });
    page.on("console", (message) => {
      if (message.type() === "error") consoleErrors.push(message.text());
    });
    page.on("pageerror", (error) => consoleErrors.push(error.message));
    await page.goto(`${url}/docs`);
    await page.waitForSelector(".opblock", { timeout: HANG_MS });
  });

  afterAll(async () => {
    await browser?.close();
    await mock.close();
  });

  it("shows every operation of the contract", async ({ skip }) => {
    skip(!available, WHY);
    const shown = await page.$$eval(".opblock", (blocks) =>
      blocks.map(
        (block) =>
          `${block.querySelector(".opblock-summary-method")?.textContent?.trim()} ` +
          `${block.querySelector(".opblock-summary-path")?.getAttribute("data-path")}`,
      ),
    );
    expect(operations).toHaveLength(15);
    expect(shown.sort()).toEqual(operations);
  });

  it("sends one 'Try it out' request that the mock answers 200, with the demo credentials filled in", async ({
    skip,
  }) => {
    skip(!available, WHY);
    const block = page
      .locator(".opblock", { has: page.locator('.opblock-summary-path[data-path="/api/v1/object/property/{nid}"]') })
      .filter({ has: page.locator(".opblock-summary-method", { hasText: "GET" }) });
    await block.locator(".opblock-summary").click();
    const nid = String(mock.store.propertiesOf(1)[0]!.id); // one of the demo account's seeded properties
    await block.locator('tr[data-param-name="nid"] input').fill(nid);
    const answered = page.waitForResponse((response) => response.url().endsWith(`/api/v1/object/property/${nid}`));
    await block.locator("button.execute").click();
    expect((await answered).status()).toBe(200);
    await expect
      .poll(() => block.locator(".live-responses-table tbody .response-col_status").first().textContent())
      .toMatch(/^200/);
    expect(tryItRequests.at(-1)!.headers).toMatchObject({
      "api-key": "demo-key",
      token: "demo-token",
      "content-type": "application/json",
    });
    expect(new URL(tryItRequests.at(-1)!.url).origin).toBe(new URL(url).origin);
    expect(mock.violations).toEqual([]);
  });

  it("asked no other host for anything and logged no error", async ({ skip }) => {
    skip(!available, WHY);
    expect(otherHosts).toEqual([]);
    expect(consoleErrors).toEqual([]);
  });
});
