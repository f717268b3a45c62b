/**
 * Debian's Chromium for the browser tests, driven by playwright-core (never a browser download). In CI
 * (`REQUIRE_BROWSER=1`, set by .ci/run, which installs the package) its absence is an error, not a skip.
 */
import { existsSync } from "node:fs";
import { chromium, type Browser } from "playwright-core";

export const CHROMIUM = "/usr/bin/chromium";
export const CHROMIUM_AVAILABLE = existsSync(CHROMIUM);
if (!CHROMIUM_AVAILABLE && (process.env.REQUIRE_BROWSER ?? "0") !== "0")
  throw new Error(`${CHROMIUM} is missing; .ci/run installs Debian's chromium package`);

/** Headless, with the flags that keep Chromium from reaching for the network this machine does not have. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
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
}
