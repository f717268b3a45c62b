/**
 * The console at /__admin/console in a real browser (Debian's Chromium, driven by playwright-core), used as a
 * person uses it: requests an app sends show live without a reload, an invalid one with its offending fields;
 * opening one shows the answer and a curl with placeholders; coverage follows; the state is switched, the mock
 * reset, a fault rule added from the form and removed, latency set from the keyboard. With an admin token the page
 * shows nothing until it is given; a page of another origin cannot read the journal. It asks no other host for
 * anything. With UPDATE_SCREENSHOTS=1 it writes the screenshots docs/console.md shows.
 */
import { mkdirSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createContract } from "../../src/contract/create-contract.ts";
import { createMockServer } from "../../src/hosts/node/create-mock-server.ts";
import { loadSpec } from "../../src/spec/load-spec.ts";
import { PACKAGE_ROOT } from "../../src/package-root.ts";
import { CHROMIUM, CHROMIUM_AVAILABLE, openChromium, type ChromiumSession } from "../support/chromium.ts";
import { HANG_MS } from "../support/deadlines.ts";
import { sharedContract } from "../support/mock-harness.ts";
import { DEMO, tinyFixtures } from "../support/tiny-fixtures.ts";

const available = CHROMIUM_AVAILABLE;
const SCREENSHOTS = (process.env.UPDATE_SCREENSHOTS ?? "0") !== "0";
const IMAGES = join(PACKAGE_ROOT, "docs", "images");
const wait = { timeout: HANG_MS };

/** Writes a screenshot for the docs, only when asked, so that a normal run changes no tracked file. */
async function screenshot(page: Page, name: string): Promise<void> {
  if (!SCREENSHOTS) return;
  mkdirSync(IMAGES, { recursive: true });
  await page.screenshot({ path: join(IMAGES, `console-${name}.png`), fullPage: true });
}

/** What an app under test sends: a request to the API from outside the page, as a frontend's fetch would. */
function send(url: string, method: string, path: string, body?: unknown): Promise<Response> {
  return fetch(`${url}/api/v1/object${path}`, {
    method,
    headers: { ...DEMO, "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

describe.runIf(available)(`the console at /__admin/console (needs ${CHROMIUM}; .ci/run installs it)`, () => {
  const mock = createMockServer({
    fixtures: tinyFixtures(),
    contract: sharedContract(),
    validateResponses: true,
    log: () => {},
  });
  let url = "";
  let browser: ChromiumSession;
  let context: BrowserContext;
  let page: Page;
  const otherHosts: string[] = [];
  const consoleErrors: string[] = [];

  beforeAll(async () => {
    ({ url } = await mock.listen(0));
    browser = await openChromium();
    context = await browser.newContext({ viewport: { width: 1440, height: 1000 } });
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: new URL(url).origin });
    page = await context.newPage();
    page.on("request", (request) => {
      if (new URL(request.url()).origin !== new URL(url).origin && !request.url().startsWith("data:"))
        otherHosts.push(request.url());
    });
    page.on("console", (message) => {
      if (message.type() === "error") consoleErrors.push(message.text());
    });
    page.on("pageerror", (error) => consoleErrors.push(error.message));
    await page.goto(`${url}/__admin/console`);
    await page.locator("#connection", { hasText: "Live" }).waitFor(wait);
  }, HANG_MS);

  afterAll(async () => {
    await browser?.close();
    await mock.close();
  });

  const rowOf = (path: string) => page.locator("#calls tr", { has: page.locator(`button.open:text-is("${path}")`) });

  it("shows a request live, without a reload, and an invalid one with each offending field", async () => {
    expect((await send(url, "GET", "/property/1001")).status).toBe(200);
    const retrieved = rowOf("/api/v1/object/property/1001").first();
    await retrieved.waitFor(wait);
    await expect.poll(() => retrieved.locator(".status").textContent(), wait).toBe("200");
    expect(await retrieved.textContent()).toContain("retrieveProperty");
    expect(await retrieved.textContent()).toContain("uid 1");

    expect((await send(url, "POST", "/property", { street: "1 Main St", state: "TXX" })).status).toBe(400);
    const invalid = rowOf("/api/v1/object/property").first();
    await expect.poll(() => invalid.locator(".status").textContent(), wait).toBe("400");
    const fields = await invalid.locator("ul.fields li code").allTextContents();
    expect(fields.map((field) => field.trim()).sort()).toEqual(["body /city", "body /state", "body /zip"]);
    expect(await page.textContent("body")).not.toMatch(/demo-key|demo-token/);
  });

  it("opens a request from the keyboard: the answer beside it, a curl with placeholder credentials", async () => {
    await rowOf("/api/v1/object/property").first().locator("button.open").focus();
    await page.keyboard.press("Enter");
    const detail = page.locator("#detail-body");
    await detail.locator("h3").waitFor(wait);
    expect(await detail.locator("h3").textContent()).toContain("POST /api/v1/object/property");
    const bodies = await detail.locator("pre.body").allTextContents();
    expect(bodies[0]).toContain('"state": "TXX"');
    expect(bodies[1]).toContain('"title": "Invalid Request"');
    expect(await detail.locator("dl.headers").last().textContent()).toContain("application/problem+json");
    const curl = await page.inputValue("#curl");
    expect(curl).toContain('"API-KEY: $API_KEY"');
    expect(curl).toContain('"TOKEN: $TOKEN"');
    expect(curl).not.toMatch(/demo-key|demo-token/);
    await page.getByRole("button", { name: "Copy as curl" }).click();
    await expect.poll(() => detail.textContent(), wait).toContain("Copied");
    expect(await page.evaluate("navigator.clipboard.readText()")).toBe(curl);
    await screenshot(page, "journal");
  });

  it("updates the coverage as requests are answered", async () => {
    await expect.poll(() => page.textContent("#coverage-summary"), wait).toContain("Operations exercised: 2 of 15");
    const retrieve = page.locator('#coverage-rows tr[data-operation="retrieveProperty"]');
    expect(await retrieve.locator(".chip.hit").allTextContents()).toEqual(["200 ×1"]);
    expect((await send(url, "GET", "/template_base")).status).toBe(200);
    await expect.poll(() => page.textContent("#coverage-summary"), wait).toContain("Operations exercised: 3 of 15");
    expect(await page.locator("#assumptions li").count()).toBeGreaterThan(0);
    if (SCREENSHOTS) await page.locator("#coverage").screenshot({ path: join(IMAGES, "console-coverage.png") });
  });

  it("switches the state and resets the mock, with the journal emptied", async () => {
    await page.selectOption("#state-select", "seats-full");
    await page.getByRole("button", { name: "Switch state" }).click();
    await expect.poll(() => page.textContent("#state-current"), wait).toBe("seats-full");
    await expect.poll(() => page.locator("#calls tr").count(), wait).toBe(0);
    expect(
      (
        await send(url, "POST", "/agent_card/", {
          agent_first_name: "Ada",
          agent_last_name: "Lovelace",
          email: "ada@example.test",
        })
      ).status,
    ).toBe(402);
    await expect
      .poll(() => rowOf("/api/v1/object/agent_card/").first().locator(".status").textContent(), wait)
      .toBe("402");

    await page.getByRole("button", { name: "Reset" }).click();
    await expect.poll(() => page.textContent("#state-current"), wait).toBe("fixtures");
    await expect.poll(() => page.locator("#calls tr").count(), wait).toBe(0);
    expect(mock.requests()).toEqual([]);
  });

  it("adds a fault rule from the form, shows it applied, and removes another by its button", async () => {
    await page.selectOption("#fault-operation", { label: "GET /api/v1/object/property/{nid} (retrieveProperty)" });
    const statuses = await page.locator("#fault-status option").allTextContents();
    expect(statuses).toEqual(expect.arrayContaining(["400", "401", "404", "503"]));
    await page.selectOption("#fault-status", "503");
    await page.fill("#fault-times", "1");
    await page.getByRole("button", { name: "Add rule" }).click();
    await expect
      .poll(() => page.textContent("#fault-list"), wait)
      .toContain("#1 GET /api/v1/object/property/{nid} (retrieveProperty): answer 503, 1 more time");
    expect(mock.faults.list()).toEqual([
      { id: 1, method: "GET", path: "/api/v1/object/property/{nid}", status: 503, times: 1 },
    ]);

    expect((await send(url, "GET", "/property/1001")).status).toBe(503);
    const steered = rowOf("/api/v1/object/property/1001").first();
    await expect.poll(() => steered.locator(".badge.steer").textContent(), wait).toBe("rule 1: 503");
    expect(await steered.locator(".operation").textContent()).toBe("retrieveProperty");
    await expect.poll(() => page.locator("#fault-list li").count(), wait).toBe(0);

    await page.selectOption("#fault-operation", { label: "DELETE /api/v1/object/agent_card/{nid} (deleteAgentCard)" });
    await page.selectOption("#fault-effect", "drop");
    await page.getByRole("button", { name: "Add rule" }).click();
    await expect.poll(() => page.textContent("#fault-list"), wait).toContain("drop the connection");
    await screenshot(page, "steering");
    await page.getByRole("button", { name: "Remove rule 2" }).click();
    await expect.poll(() => page.locator("#fault-list li").count(), wait).toBe(0);
    expect(mock.faults.list()).toEqual([]);
  });

  it("sets latency from the keyboard and removes it", async () => {
    await page.fill("#latency-min", "25");
    await page.press("#latency-min", "Enter");
    await expect.poll(() => page.textContent("#latency-current"), wait).toBe("25 ms");
    expect((await send(url, "GET", "/property/1001")).status).toBe(200);
    await expect
      .poll(() => rowOf("/api/v1/object/property/1001").first().locator(".badge.steer").textContent(), wait)
      .toBe("latency 25 ms");
    await page.getByRole("button", { name: "No latency" }).click();
    await expect.poll(() => page.textContent("#latency-current"), wait).toBe("none");
    expect(await fetch(`${url}/__admin/latency`).then((answer): Promise<unknown> => answer.json())).toEqual({
      latency: null,
    });
  });

  it("clears the requests with its button", async () => {
    await page.getByRole("button", { name: "Clear requests" }).click();
    await expect.poll(() => page.locator("#calls tr").count(), wait).toBe(0);
    expect(mock.requests()).toEqual([]);
  });

  it("labels every control it has, for a keyboard or a screen reader", async () => {
    const unlabelled = await page.evaluate(`[...document.querySelectorAll("input, select, textarea, button")]
      .filter((control) => !(control.labels && control.labels.length))
      .filter((control) => !control.getAttribute("aria-label") && !control.textContent.trim())
      .map((control) => control.outerHTML)`);
    expect(unlabelled).toEqual([]);
  });

  it("asked no other host for anything and logged no error", () => {
    expect(otherHosts).toEqual([]);
    expect(consoleErrors).toEqual([]);
  });
});

describe.runIf(available)(`the console shows an answer that failed --validate-responses (needs ${CHROMIUM})`, () => {
  // A contract whose catalogue answer the mock cannot meet: the mock's answer is a violation, answered 500.
  const document = structuredClone(loadSpec());
  document.paths["/api/v1/object/template_base"]!.get!.responses["200"] = {
    description: "never met",
    content: {
      "application/json": { schema: { type: "object", properties: { templates: { type: "array", maxItems: 0 } } } },
    },
  };
  const mock = createMockServer({
    fixtures: tinyFixtures(),
    contract: createContract({ closed: true, document }),
    validateResponses: true,
    log: () => {},
    quiet: true,
  });
  let url = "";
  let browser: ChromiumSession;

  beforeAll(async () => {
    ({ url } = await mock.listen(0));
    browser = await openChromium();
  }, HANG_MS);

  afterAll(async () => {
    await browser?.close();
    await mock.close();
  });

  it("marks the row and says so when it is opened", async () => {
    const page = await browser.newPage();
    await page.goto(`${url}/__admin/console`);
    await page.locator("#connection", { hasText: "Live" }).waitFor(wait);
    expect((await send(url, "GET", "/template_base")).status).toBe(500);
    const row = page.locator("#calls tr.invalid-answer");
    await row.waitFor(wait);
    expect(await row.locator(".badge.bad").textContent()).toContain("broke the contract");
    await row.locator("button.open").click();
    await expect.poll(() => page.textContent("#detail-body"), wait).toContain("a bug of the mock");
    await page.close();
  });
});

describe.runIf(available)(`the console behind an admin token, and a page of another origin (needs ${CHROMIUM})`, () => {
  const TOKEN = "console-test-admin-token";
  const log: string[] = [];
  const mock = createMockServer({
    fixtures: tinyFixtures(),
    contract: sharedContract(),
    adminToken: TOKEN,
    log: (line) => log.push(line),
  });
  let url = "";
  let browser: ChromiumSession;
  let site: Server;

  beforeAll(async () => {
    ({ url } = await mock.listen(0));
    browser = await openChromium();
    site = createServer((_request, response) => {
      response.setHeader("content-type", "text/html");
      response.end("<!doctype html><title>Some other site</title>");
    });
    await new Promise<void>((resolve) => site.listen(0, "127.0.0.1", resolve));
  }, HANG_MS);

  afterAll(async () => {
    await browser?.close();
    site?.close();
    await mock.close();
  });

  it("asks for the token and shows no record until it is given", async () => {
    expect((await send(url, "GET", "/property/1001")).status).toBe(200);
    const page = await browser.newPage({ viewport: { width: 1200, height: 700 } });
    await page.goto(`${url}/__admin/console`);
    await page.locator("#token-gate").waitFor(wait);
    expect(await page.isVisible("#app")).toBe(false);
    expect(await page.locator("#calls tr").count()).toBe(0);
    await screenshot(page, "token");

    await page.getByLabel("Admin token").fill("not-the-token");
    await page.getByRole("button", { name: "Unlock" }).click();
    await expect.poll(() => page.textContent("#token-error"), wait).toContain("refused");
    expect(await page.isVisible("#app")).toBe(false);

    await page.getByLabel("Admin token").fill(TOKEN);
    await page.keyboard.press("Enter");
    await expect.poll(() => page.textContent("#connection"), wait).toContain("Live");
    await expect.poll(() => page.locator("#calls tr").count(), wait).toBe(1);
    expect((await send(url, "GET", "/template_base")).status).toBe(200);
    await expect.poll(() => page.locator("#calls tr").count(), wait).toBe(2);
    expect(log.join("\n")).not.toContain(TOKEN);
    await page.close();
  });

  it("cannot be read by a page of another origin", async () => {
    const page = await browser.newPage();
    await page.goto(`http://localhost:${(site.address() as AddressInfo).port}/`);
    const outcome = await page.evaluate(
      async ([base, token]) => {
        const tryFetch = async (path: string) => {
          try {
            return String((await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${token}` } })).status);
          } catch {
            return "blocked";
          }
        };
        return { journal: await tryFetch("/__admin/journal"), events: await tryFetch("/__admin/events") };
      },
      [url, TOKEN] as const,
    );
    expect(outcome).toEqual({ journal: "blocked", events: "blocked" });
    await page.close();
  });
});
