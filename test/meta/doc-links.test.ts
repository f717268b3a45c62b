/**
 * Every relative link of the README and the manual's pages (docs/*.md) leads somewhere: the file or folder it
 * names exists, and a `#anchor` (to another page or within the page) is the GitHub slug of a heading of the page
 * it points to, or an `id` of an HTML anchor there. Links inside code (fenced blocks, inline code) are not links.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { manualPages } from "../support/manual-pages.ts";
import { PACKAGE_ROOT } from "../support/start-process.ts";

const PAGES = manualPages();

/** A page's text without its fenced code blocks and inline code, where brackets and `#` are code, not Markdown. */
function prose(text: string): string {
  return text.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, "").replace(/`[^`\n]*`/g, "``");
}

/** GitHub's slug of a heading: lower case, punctuation dropped (letters, digits, `-` and `_` kept), spaces as `-`. */
function githubSlug(heading: string): string {
  return heading
    .replace(/<[^>]+>/g, "")
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\p{M}\s_-]/gu, "")
    .replace(/\s/g, "-");
}

/** The anchors of a Markdown page: each heading's slug (repeats numbered as GitHub numbers them) and HTML ids. */
function anchorsOf(text: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  const body = text.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, "");
  for (const [, heading] of body.matchAll(/^#{1,6}[ \t]+(.+?)[ \t#]*$/gm)) {
    const slug = githubSlug(heading!);
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  for (const [, id] of body.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(id!);
  return anchors;
}

/** Each inline link or image of a page, as `[text](target)` writes it. */
function linksOf(text: string): string[] {
  return [...prose(text).matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((match) => match[1]!);
}

/** What is wrong with one link of a page, or undefined when it resolves. */
function brokenLink(page: string, target: string): string | undefined {
  if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return undefined; // https:, mailto:: not ours to check offline
  const [path, anchor] = target.split("#", 2) as [string, string | undefined];
  const file = path === "" ? join(PACKAGE_ROOT, page) : resolve(dirname(join(PACKAGE_ROOT, page)), decodeURI(path));
  if (!file.startsWith(PACKAGE_ROOT)) return `${target}: leaves the repository`;
  if (!existsSync(file)) return `${target}: no such file (${relative(PACKAGE_ROOT, file)})`;
  if (anchor === undefined) return undefined;
  if (statSync(file).isDirectory() || !file.endsWith(".md"))
    return `${target}: an anchor into a file that is not a Markdown page`;
  if (!anchorsOf(readFileSync(file, "utf8")).has(anchor))
    return `${target}: no heading of ${relative(PACKAGE_ROOT, file)} has the slug #${anchor}`;
  return undefined;
}

describe("the links of the README and docs/", () => {
  it("finds links on every page, so the check cannot pass by reading nothing", () => {
    const counts = PAGES.map((page) => linksOf(readFileSync(join(PACKAGE_ROOT, page), "utf8")).length);
    expect(counts.reduce((sum, count) => sum + count, 0)).toBeGreaterThan(20);
  });

  it.each(PAGES)("%s: every relative link and anchor resolves", (page) => {
    const text = readFileSync(join(PACKAGE_ROOT, page), "utf8");
    const broken = linksOf(text).flatMap((target) => brokenLink(page, target) ?? []);
    expect(broken).toEqual([]);
  });
});

describe("the checker itself", () => {
  it("slugs headings as GitHub does", () => {
    expect(githubSlug("In a Vite app's browser")).toBe("in-a-vite-apps-browser");
    expect(githubSlug("`Prefer` on one request")).toBe("prefer-on-one-request");
    expect(githubSlug("Raw records: json-server's routes")).toBe("raw-records-json-servers-routes");
    expect(githubSlug("A CI job: hold a service to the contract")).toBe("a-ci-job-hold-a-service-to-the-contract");
    expect(githubSlug("In your own tests: the mock as a library")).toBe("in-your-own-tests-the-mock-as-a-library");
  });

  it("reports a missing file, a missing anchor, and no link inside code", () => {
    expect(brokenLink("README.md", "docs/nothing.md")).toMatch(/no such file/);
    expect(brokenLink("README.md", "docs/mock.md#no-such-heading")).toMatch(/no heading of docs\/mock.md/);
    expect(brokenLink("docs/mock.md", "../README.md#quick-start")).toBeUndefined();
    expect(brokenLink("docs/mock.md", "#running-it")).toBeUndefined();
    expect(linksOf("see [a](b.md) and `[c](d.md)`\n```md\n[e](f.md)\n```\n")).toEqual(["b.md"]);
    expect(anchorsOf("# Title\n```sh\n# not a heading\n```\n## Title\n")).toEqual(new Set(["title", "title-1"]));
  });
});
