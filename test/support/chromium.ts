/**
 * Debian's Chromium for the browser tests, driven by playwright-core (never a browser download). In CI
 * (`REQUIRE_BROWSER=1`, set by .ci/run, which installs the package) its absence is an error, not a skip.
 */
import { existsSync } from "node:fs";
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from "playwright-core";

export const CHROMIUM = "/usr/bin/chromium";
export const CHROMIUM_AVAILABLE = existsSync(CHROMIUM);
if (!CHROMIUM_AVAILABLE && (process.env.REQUIRE_BROWSER ?? "0") !== "0")
  throw new Error(`${CHROMIUM} is missing; .ci/run installs Debian's chromium package`);

/** What a test file gets of Chromium: pages and contexts of its own, all closed by {@link ChromiumSession.close}. */
export interface ChromiumSession {
  /** A page in a new context of its own (no cookie, storage, cache or service worker shared with another). */
  newPage(options?: BrowserContextOptions): Promise<Page>;
  newContext(options?: BrowserContextOptions): Promise<BrowserContext>;
  /** Closes every context the session opened; the browser stays for the worker's next file. */
  close(): Promise<void>;
}

/**
 * A session of the one Chromium this worker keeps for the files it runs (vitest's workers run file after file, as
 * vitest.config.ts says): a launch takes more CPU than most browser tests do. Each page is in a context of its own,
 * as isolated from the others as a new browser's. The browser goes when the worker does: playwright ends the
 * browsers it launched when their process exits. One that crashed is launched again.
 */
export async function openChromium(): Promise<ChromiumSession> {
  const browser = await sharedBrowser();
  const contexts = new Set<BrowserContext>();
  const open = async (options?: BrowserContextOptions) => {
    const context = await browser.newContext(options);
    contexts.add(context);
    context.on("close", () => contexts.delete(context));
    return context;
  };
  return {
    newPage: async (options) => (await open(options)).newPage(),
    newContext: open,
    close: async () => {
      await Promise.all([...contexts].map((context) => context.close()));
    },
  };
}

let launched: Promise<Browser> | undefined;

async function sharedBrowser(): Promise<Browser> {
  const browser = await (launched ??= launch());
  if (browser.isConnected()) return browser;
  launched = launch();
  return launched;
}

/** Headless, with the flags that keep Chromium from reaching for the network this machine does not have. */
function launch(): Promise<Browser> {
  const browser = chromium.launch({
    executablePath: CHROMIUM,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
  // A launch that failed is tried again by the next file, not handed to it as the same failure.
  browser.catch(() => {
    if (launched === browser) launched = undefined;
  });
  return browser;
}
