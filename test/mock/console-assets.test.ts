/**
 * The console's files as they ship: hand-written, served as the build copied them, at most 60 KiB gzipped all
 * together (no build step at the user's, no library), and naming no other host to load anything from.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { CONSOLE_ASSET_DIR, CONSOLE_ASSETS, CONSOLE_SOURCE_DIR } from "../../src/hosts/node/console-assets.ts";

const names = Object.keys(CONSOLE_ASSETS);

describe("the console's assets", () => {
  it("weigh at most 60 KiB gzipped, all together", () => {
    const gzipped = names.reduce(
      (sum, name) => sum + gzipSync(readFileSync(join(CONSOLE_SOURCE_DIR, name)), { level: 9 }).length,
      0,
    );
    expect(names).toEqual(["index.html", "console-views.js", "console.js", "console.css"]);
    expect(gzipped).toBeLessThanOrEqual(60 * 1024);
  });

  it("are what the build copied into dist/console-assets, byte for byte", () => {
    for (const name of names)
      expect(
        readFileSync(join(CONSOLE_ASSET_DIR, name)).equals(readFileSync(join(CONSOLE_SOURCE_DIR, name))),
        name,
      ).toBe(true);
  });

  it("load nothing from another host, and never write markup from data", () => {
    for (const name of names) {
      const text = readFileSync(join(CONSOLE_SOURCE_DIR, name), "utf8");
      expect(text, name).not.toMatch(/(?:https?:)?\/\/[a-z0-9.-]+\.[a-z]{2,}/i);
      expect(text, name).not.toMatch(/@import|url\(\s*['"]?(?!data:)/);
      expect(text, name).not.toMatch(/innerHTML|outerHTML|insertAdjacentHTML|document\.write|eval\(|new Function/);
    }
  });
});
