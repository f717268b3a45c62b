/**
 * The manual stays a manual a user finishes: the README and docs/*.md together keep within a quarter under the
 * 37,367 words they held before they were cut (514ca2a), and the performance page within 1,500 words (the goals,
 * the latest figures and how to reproduce them; the history is in the commit log). A page that grows takes its
 * words from another. Words are counted as `wc -w` counts them: runs of characters between white space.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { manualPages } from "../support/manual-pages.ts";
import { PACKAGE_ROOT } from "../support/start-process.ts";

const MANUAL_WORDS = Math.floor(37_367 * 0.75);
const PERFORMANCE_WORDS = 1_500;

const words = (page: string) => readFileSync(join(PACKAGE_ROOT, page), "utf8").split(/\s+/).filter(Boolean).length;

describe("the manual's length", () => {
  it(`is at most ${MANUAL_WORDS} words over the README and docs/*.md`, () => {
    const counts = Object.fromEntries(manualPages().map((page) => [page, words(page)]));
    const total = Object.values(counts).reduce((sum, count) => sum + count, 0);
    expect(total, JSON.stringify(counts, null, 1)).toBeLessThanOrEqual(MANUAL_WORDS);
  });

  it(`keeps docs/performance.md within ${PERFORMANCE_WORDS} words`, () => {
    expect(words("docs/performance.md")).toBeLessThanOrEqual(PERFORMANCE_WORDS);
  });
});
