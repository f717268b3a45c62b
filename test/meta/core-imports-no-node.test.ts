/**
 * The mock's core (`src/mock`) imports nothing of Node: no `node:` module and no bare Node builtin (`fs`,
 * `http`, …), type-only imports and `import("…")` included, read with TypeScript's own pre-processing scanner
 * (comments and strings are not imports). What only a Node server does lives in its host, `src/hosts/node`.
 */
import { builtinModules } from "node:module";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { PACKAGE_ROOT } from "../support/start-process.ts";

const MOCK = join(PACKAGE_ROOT, "src", "mock");

const BUILTINS = new Set(builtinModules.flatMap((name) => [name, name.split("/")[0]!]));

/** Whether a specifier names a module of Node: `node:…`, or a builtin's bare name (`fs`, `fs/promises`). */
function isNodeModule(specifier: string): boolean {
  return specifier.startsWith("node:") || BUILTINS.has(specifier) || BUILTINS.has(specifier.split("/")[0]!);
}

/** Each TypeScript file under `src/mock`, relative to it, with the Node modules it imports. */
function nodeImports(): Map<string, string[]> {
  const found = new Map<string, string[]>();
  const files = readdirSync(MOCK, { recursive: true, encoding: "utf8" })
    .filter((name) => name.endsWith(".ts"))
    .map((name) => name.split("\\").join("/"))
    .sort();
  for (const file of files) {
    const text = readFileSync(join(MOCK, file), "utf8");
    const imported = ts.preProcessFile(text, true, true).importedFiles.map((entry) => entry.fileName);
    found.set(file, imported.filter(isNodeModule));
  }
  return found;
}

describe("the mock's core", () => {
  const imports = nodeImports();

  it("imports no Node module", () => {
    const offending = [...imports]
      .filter(([, modules]) => modules.length > 0)
      .map(([file, modules]) => `src/mock/${file} imports ${modules.join(", ")}`);
    expect(offending, "Node-only code belongs to the Node host, src/hosts/node").toEqual([]);
  });

  it("tells a Node module from the package's own and from other packages", () => {
    expect(["node:fs", "fs", "fs/promises", "http", "node:worker_threads"].every(isNodeModule)).toBe(true);
    expect(["./reply.ts", "json-server", "yaml", "ajv/dist/2020.js"].some(isNodeModule)).toBe(false);
  });
});
