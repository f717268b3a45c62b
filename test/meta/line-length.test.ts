/**
 * `npm run lint:code` ends with scripts/line-length.ts: no line of a tracked source file over 120 characters. Run
 * as a process on a package root of its own (a git repository of a few files), so that it is seen to fail on a
 * long line, and to pass when the same file's lines fit or when the long line is in an exempt file.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { PACKAGE_ROOT } from "../support/start-process.ts";

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "plk-line-length-"));
  execFileSync("git", ["init", "-q"], { cwd: root });
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** Writes the files and tracks them, as the check reads only what git tracks. */
function track(files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, ".."), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  execFileSync("git", ["add", "."], { cwd: root });
}

function check(): { code: number | null; stdout: string; stderr: string } {
  const run = spawnSync(process.execPath, ["--import", "tsx", "scripts/line-length.ts", root], {
    cwd: PACKAGE_ROOT,
    encoding: "utf8",
  });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

/** A line of `length` characters, and its newline. */
const line = (length: number): string => `const a = "${"x".repeat(length - 13)}";\n`;
const fits = line(120);
const tooLong = line(121);

describe("scripts/line-length.ts", () => {
  it("fails on a line of 121 characters, naming file, line and length", () => {
    track({ "src/a.ts": `// a short line\n${tooLong}`, "src/b.ts": fits });
    const { code, stderr } = check();
    expect(code).toBe(1);
    expect(stderr).toContain("src/a.ts:2 (121)");
    expect(stderr).not.toContain("src/b.ts");
  });

  it("passes when every line is 120 characters or fewer", () => {
    track({ "src/a.ts": `// a short line\n${fits}`, Dockerfile: "FROM node:20\n" });
    const { code, stderr } = check();
    expect(stderr).toBe("");
    expect(code).toBe(0);
  });

  it("counts characters, not bytes", () => {
    track({ "src/a.ts": `// ${"×".repeat(117)}\n` });
    expect(check().code).toBe(0);
  });

  it("looks at YAML, shell and Dockerfiles too, and not at Markdown or untracked files", () => {
    track({ "spec/openapi.yaml": `description: ${"y".repeat(120)}\n`, "README.md": `${"z".repeat(200)}\n` });
    writeFileSync(join(root, "untracked.ts"), tooLong);
    const { code, stderr } = check();
    expect(code).toBe(1);
    expect(stderr).toContain("spec/openapi.yaml:1 (133)");
    expect(stderr).not.toContain("README.md");
    expect(stderr).not.toContain("untracked.ts");
  });

  it("skips the exempt paths: generated code and data", () => {
    track({ "src/generated/openapi.ts": tooLong, "fixtures/db.json": tooLong, "package.json": tooLong });
    const { code, stderr } = check();
    expect(stderr).toBe("");
    expect(code).toBe(0);
  });

  it("skips a JSON Schema's long description, and no other long line of it", () => {
    const description = `  "description": "${"d".repeat(120)}",\n`;
    track({ "spec/a.schema.json": `{\n${description}  "title": "${"t".repeat(120)}"\n}\n` });
    const { code, stderr } = check();
    expect(code).toBe(1);
    expect(stderr).toContain("spec/a.schema.json:3 (");
    expect(stderr).not.toContain("spec/a.schema.json:2 (");
  });
});
