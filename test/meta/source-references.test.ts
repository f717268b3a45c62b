/**
 * Every file a comment of src/ names exists: a repository path (`src/…`, `test/….test.ts`, `docs/….md`,
 * `scripts/…`, `spec/…`), or a file named by itself or from a folder near it (`buffered-log.ts`,
 * `store/choose-state.ts`), looked for beside the commented file and in every folder of src/. A comment that
 * points at a file that moved or was renamed sends its reader nowhere; this keeps the pointers true as the code
 * moves. Only comments are read (parsed as TypeScript or JavaScript, and CSS's `/* … *\/`): strings are data.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, extname, join, relative } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { PACKAGE_ROOT } from "../support/start-process.ts";

const SRC = join(PACKAGE_ROOT, "src");

/** Every file below a folder, by its path. */
function filesBelow(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    return entry.isDirectory() ? filesBelow(path) : [path];
  });
}

/** Every folder below src/, src/ itself included. */
function foldersBelow(folder: string): string[] {
  return [
    folder,
    ...readdirSync(folder, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .flatMap((entry) => foldersBelow(join(folder, entry.name))),
  ];
}

/**
 * The text of every comment of a TypeScript or JavaScript file, found by the parser so that strings and templates are
 * not read.
 */
function scriptComments(path: string, text: string): string[] {
  const kind = extname(path) === ".js" ? ts.ScriptKind.JS : ts.ScriptKind.TS;
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, false, kind);
  const found = new Map<number, string>();
  const take = (ranges: readonly ts.CommentRange[] | undefined) => {
    for (const range of ranges ?? []) found.set(range.pos, text.slice(range.pos, range.end));
  };
  const visit = (node: ts.Node) => {
    take(ts.getLeadingCommentRanges(text, node.getFullStart()));
    take(ts.getTrailingCommentRanges(text, node.getEnd()));
    ts.forEachChild(node, visit);
  };
  visit(source);
  take(ts.getLeadingCommentRanges(text, source.endOfFileToken.getFullStart()));
  return [...found.values()];
}

/** The comments of a file of src/ that has them: scripts parsed, style sheets' block comments. */
function commentsOf(path: string): string[] {
  const text = readFileSync(path, "utf8");
  if (/\.(ts|js|mjs|cjs)$/.test(path)) return scriptComments(path, text);
  if (path.endsWith(".css")) return [...text.matchAll(/\/\*[\s\S]*?\*\//g)].map((match) => match[0]);
  return [];
}

const ROOTS = "src|test|docs|scripts|spec";
/** A repository path: a top folder, then names; not a piece of a longer path or an address. */
const REPOSITORY_PATH = new RegExp(String.raw`(?<![\w./@:-])(?:${ROOTS})/[\w.-]+(?:/[\w.-]+)*`, "g");
const REPOSITORY_ROOT = new RegExp(`^(?:${ROOTS})/`);
/**
 * A file named with a hyphen in its name (kebab-case, as the kit names its files), alone or after folders of its own.
 */
const NEAR_FILE =
  /(?<![\w./@:-])(?:[a-z0-9_]+(?:-[a-z0-9_]+)*\/)*[a-z0-9_]+(?:-[a-z0-9_]+)+\.(?:ts|js|css|html)(?![\w-])/g;

/** Every reference of one comment that names no existing file or folder. */
function staleIn(file: string, comment: string, folders: readonly string[]): string[] {
  const stale: string[] = [];
  for (const [match] of comment.matchAll(REPOSITORY_PATH)) {
    const reference = match.replace(/[.]+$/, "");
    if (!existsSync(join(PACKAGE_ROOT, reference))) stale.push(reference);
  }
  for (const [reference] of comment.matchAll(NEAR_FILE)) {
    if (REPOSITORY_ROOT.test(reference)) continue; // judged above, as a repository path
    const near = [dirname(file), ...folders];
    if (!near.some((folder) => existsSync(join(folder, reference)))) stale.push(reference);
  }
  return stale;
}

describe("the comments of src/", () => {
  const folders = foldersBelow(SRC);
  const files = filesBelow(SRC).filter((path) => statSync(path).isFile());

  it("are read from every script and style sheet of src/", () => {
    expect(files.filter((path) => /\.(ts|js|css)$/.test(path)).length).toBeGreaterThan(100);
    // The reader finds what it is for: a comment with a good and a stale reference, and none in a string.
    const sample = join(SRC, "cli", "sample.ts");
    const comments = scriptComments(
      sample,
      'const s = "see docs/nowhere.md";\n// see docs/mock.md and docs/nowhere-else.md, and buffered-log.ts\n',
    );
    expect(comments).toHaveLength(1);
    expect(staleIn(sample, comments[0]!, folders)).toEqual(["docs/nowhere-else.md"]);
    expect(staleIn(sample, "/* no-such-file.ts, in store/no-such-place.ts */", folders)).toEqual([
      "no-such-file.ts",
      "store/no-such-place.ts",
    ]);
  });

  it("name only files and folders that exist", () => {
    const stale: string[] = [];
    for (const file of files) {
      for (const comment of commentsOf(file)) {
        for (const reference of staleIn(file, comment, folders)) stale.push(`${relative(SRC, file)} -> ${reference}`);
      }
    }
    expect(stale, "a comment names a file that is not there: fix the reference").toEqual([]);
  });
});
