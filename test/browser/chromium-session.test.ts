/**
 * The browser files share one Chromium per worker (test/support/chromium.ts); what keeps them apart is that every
 * page is in a context of its own. Checked here through the sessions the files get: what one session's page leaves
 * at an origin (a cookie, local storage, an IndexedDB database, a registered service worker) never reaches a page
 * of another session, nor another page of the same session; closing a session closes its pages and leaves the
 * other sessions working; and a browser that went away is launched again for the next session.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHROMIUM, CHROMIUM_AVAILABLE, openChromium, type ChromiumSession } from "../support/chromium.ts";

const WHY =
  `${CHROMIUM} is missing (.ci/run installs Debian's chromium package; REQUIRE_BROWSER=1 makes its absence an ` +
  `error)`;

/** A page and a service worker script at one origin, so that each session visits the same one. */
function startSite(): Promise<Server> {
  const site = createServer((request, response) => {
    if (request.url === "/worker.js") {
      response.setHeader("content-type", "text/javascript");
      response.end("self.addEventListener('fetch', () => {});");
      return;
    }
    response.setHeader("content-type", "text/html");
    if (request.url === "/?leave") response.setHeader("set-cookie", "left=1; Path=/; Max-Age=3600");
    response.end("<!doctype html><title>Origin</title><p>origin</p>");
  });
  return new Promise((resolve) => site.listen(0, "127.0.0.1", () => resolve(site)));
}

/** Leaves every kind of per-origin state the page can: the same kinds a browser test's page may leave. */
async function leaveState(session: ChromiumSession, origin: string): Promise<void> {
  const page = await session.newPage();
  await page.goto(`${origin}?leave`);
  // Page scripts as text: they run in the browser, where the DOM's names are, not in this file's Node types. The
  // cookie comes with the page (Set-Cookie), as a site's would.
  await page.evaluate(`(async () => {
    localStorage.setItem("left", "1");
    await new Promise((resolve, reject) => {
      const open = indexedDB.open("left", 1);
      open.onupgradeneeded = () => open.result.createObjectStore("items");
      open.onsuccess = () => {
        open.result.close();
        resolve();
      };
      open.onerror = () => reject(open.error);
    });
    await navigator.serviceWorker.register("/worker.js");
    await navigator.serviceWorker.ready;
  })()`);
  // The state is there for the page that left it, so that its absence elsewhere means something.
  expect(await seenState(page)).toEqual({ cookie: "left=1", storage: "1", databases: ["left"], workers: 1 });
}

/** What a page at the origin finds left there. */
async function seenState(page: Page): Promise<unknown> {
  return page.evaluate(`(async () => ({
    cookie: document.cookie,
    storage: localStorage.getItem("left"),
    databases: (await indexedDB.databases()).map((database) => database.name),
    workers: (await navigator.serviceWorker.getRegistrations()).length,
  }))()`);
}

const NOTHING = { cookie: "", storage: null, databases: [], workers: 0 };

describe(`the shared Chromium's sessions (needs ${CHROMIUM})`, () => {
  let site: Server | undefined;
  let origin = "";
  const sessions: ChromiumSession[] = [];
  const session = async () => {
    const opened = await openChromium();
    sessions.push(opened);
    return opened;
  };

  beforeAll(async () => {
    if (!CHROMIUM_AVAILABLE) return;
    site = await startSite();
    origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}/`;
  });

  afterAll(async () => {
    await Promise.all(sessions.map((opened) => opened.close()));
    site?.close();
  });

  it("share one browser, and no page sees what another session's page left at the same origin", async ({ skip }) => {
    skip(!CHROMIUM_AVAILABLE, WHY);
    const first = await session();
    const second = await session();
    const [one, two] = [await first.newContext(), await second.newContext()];
    expect(one.browser()).toBe(two.browser());
    await leaveState(first, origin);
    const page = await second.newPage();
    await page.goto(origin);
    expect(await seenState(page)).toEqual(NOTHING);
  });

  it("keep the pages of one session apart too: each is in a context of its own", async ({ skip }) => {
    skip(!CHROMIUM_AVAILABLE, WHY);
    const opened = await session();
    await leaveState(opened, origin);
    const page = await opened.newPage();
    await page.goto(origin);
    expect(await seenState(page)).toEqual(NOTHING);
  });

  it("close their own pages on close, and leave other sessions' pages working", async ({ skip }) => {
    skip(!CHROMIUM_AVAILABLE, WHY);
    const closing = await session();
    const staying = await session();
    const gone = await closing.newPage();
    const kept = await staying.newPage();
    await closing.close();
    expect(gone.isClosed()).toBe(true);
    await kept.goto(origin);
    expect(await kept.title()).toBe("Origin");
  });

  it("launch the browser again for the next session once it went away", async ({ skip }) => {
    skip(!CHROMIUM_AVAILABLE, WHY);
    const before = await session();
    const browser = (await before.newContext()).browser()!;
    await browser.close();
    expect(browser.isConnected()).toBe(false);
    const after = await session();
    const page = await after.newPage();
    expect(page.context().browser()).not.toBe(browser);
    await page.goto(origin);
    expect(await page.title()).toBe("Origin");
  });
});
