/**
 * Part of `npm run lint:code`: no line of a tracked source file is longer than 120 characters, the width Biome
 * formats to. Biome wraps code but not strings, template literals or comments, and does not look at YAML, shell
 * or Dockerfiles at all; this check covers what it leaves. Files of generated code and tables of data are exempt.
 * Exit code 0 when every line fits, 1 (naming each `file:line (length)`) otherwise.
 *
 *   npx tsx scripts/line-length.ts [package root]
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const MAX_LENGTH = 120;

/** The files looked at: sources, configuration, scripts and the pages the console serves. */
const SOURCE = /(\.(ts|tsx|js|mjs|json|jsonc|yaml|yml|sh|css|html)|(^|\/)Dockerfile)$/;

/** Paths (a file, or a folder ending in `/`) whose long lines are no one's to wrap. */
const EXEMPT = [
  // Written by `npm run generate` from the spec: wrapped by its generators, not by hand.
  "src/generated/",
  // Data: the fixtures `npm run fixtures` writes, one record a line.
  "fixtures/",
  // npm's own files: a script or a description is one JSON string, and JSON has no way to wrap one.
  "package.json",
  "package-lock.json",
  "examples/consumer/package.json",
  "examples/storybook/package.json",
];

/**
 * Lines exempt in files otherwise checked: a JSON Schema's `description` is one JSON string, and JSON has no way to
 * wrap a string (the spec's YAML folds its long texts instead).
 */
const EXEMPT_LINES: { path: RegExp; line: RegExp }[] = [
  { path: /^spec\/[^/]+\.schema\.json$/, line: /^\s*"description": "/ },
];

/** Whether `path` is one of `paths`, or below one of them. */
function listed(path: string, paths: string[]): boolean {
  return paths.some((entry) => (entry.endsWith("/") ? path.startsWith(entry) : path === entry));
}

/** Each line of `path` longer than the limit, as its number (from 1) and its length in characters. */
function longLines(path: string, text: string): { line: number; length: number }[] {
  const found: { line: number; length: number }[] = [];
  const exempt = EXEMPT_LINES.filter((entry) => entry.path.test(path)).map((entry) => entry.line);
  text.split(/\r?\n/).forEach((line, index) => {
    if (exempt.some((pattern) => pattern.test(line))) return;
    // Characters, not UTF-16 units: "×" or "…" is one column in an editor.
    const length = [...line].length;
    if (length > MAX_LENGTH) found.push({ line: index + 1, length });
  });
  return found;
}

const root = process.argv[2] ?? fileURLToPath(new URL("..", import.meta.url));
const tracked = execFileSync("git", ["ls-files", "-z"], { cwd: root, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 })
  .split("\0")
  .filter((path) => SOURCE.test(path) && !listed(path, EXEMPT));

let failures = 0;
for (const path of tracked) {
  let text: string;
  try {
    text = readFileSync(join(root, path), "utf8");
  } catch {
    continue; // tracked but deleted in the working copy: nothing to read
  }
  const found = longLines(path, text);
  for (const { line, length } of found) console.error(`${path}:${line} (${length})`);
  failures += found.length;
}

if (failures > 0) {
  console.error(`${failures} line(s) over ${MAX_LENGTH} characters`);
  process.exitCode = 1;
}
