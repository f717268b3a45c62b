/**
 * A page of the browser tests that runs the kit's MSW handlers under MSW's worker: its entry bundled by esbuild,
 * served on loopback with the worker's script beside it, and the results the page leaves in `globalThis.results`
 * read back once it has finished.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Page } from "playwright-core";
import { afterAll, beforeAll } from "vitest";
import { bundleForBrowser } from "../../scripts/browser-bundle.ts";
import { CHROMIUM_AVAILABLE, openChromium, type ChromiumSession } from "./chromium.ts";
import { serveStaticSite, type StaticSite } from "./static-site.ts";

const WORKER_SCRIPT = createRequire(import.meta.url).resolve("msw/mockServiceWorker.js");

/**
 * Serves the page whose entry is `entry` (a path from the package root); each request's path is told to `onRequest`.
 */
export async function serveMswPage(
  entry: string,
  onRequest?: (method: string, path: string) => void,
): Promise<StaticSite> {
  const bundle = await bundleForBrowser(entry, { minify: false });
  if (!bundle.ok) throw new Error(bundle.errors.join("\n"));
  return serveStaticSite(
    {
      "/": ["text/html", '<!doctype html><title>Front end</title><script type="module" src="/app.js"></script>'],
      "/app.js": ["text/javascript", bundle.code],
      "/mockServiceWorker.js": ["text/javascript", readFileSync(WORKER_SCRIPT, "utf8")],
    },
    onRequest,
  );
}

/** What the page left in `globalThis.results`, once it is there. */
export async function pageResults<T>(tab: Page): Promise<T> {
  await tab.waitForFunction(() => "results" in globalThis, undefined, { timeout: 60_000 });
  return (await tab.evaluate(() => (globalThis as unknown as { results: unknown }).results)) as T;
}

/** A page served and Chromium launched for a test file (its `beforeAll` and `afterAll`), when Chromium is there. */
export interface MswPageInChromium {
  /** The page's origin: `http://127.0.0.1:<port>`. */
  origin(): string;
  /** A new tab of the browser. */
  newTab(): Promise<Page>;
}

/** Serves the page of `entry` and launches Chromium before the file's tests, and stops both after them. */
export function useMswPageInChromium(
  entry: string,
  onRequest?: (method: string, path: string) => void,
): MswPageInChromium {
  let site: StaticSite | undefined;
  let browser: ChromiumSession | undefined;
  beforeAll(async () => {
    if (!CHROMIUM_AVAILABLE) return;
    site = await serveMswPage(entry, onRequest);
    browser = await openChromium();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    site?.close();
  });
  return { origin: () => site!.origin, newTab: () => browser!.newPage() };
}
