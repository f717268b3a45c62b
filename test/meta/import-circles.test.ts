/**
 * No module of `src` reaches itself through its imports: every `import`, `import type`, `export … from` and
 * `import("…")` between the package's own files counts, type-only ones included, since a circle of types still
 * ties the files of a circle to be read, changed and moved together. The imports are read with TypeScript's own
 * pre-processing scanner (comments and strings are not imports), resolved to files, and the circles are the
 * strongly connected parts of that graph.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { PACKAGE_ROOT } from "../support/start-process.ts";

const SRC = join(PACKAGE_ROOT, "src");

/** Every TypeScript file under a folder, as paths relative to it, sorted. */
function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { recursive: true, encoding: "utf8" })
    .filter((name) => name.endsWith(".ts"))
    .map((name) => name.split("\\").join("/"))
    .sort();
}

/** The file a relative specifier names (`./a.ts`, `./a.js` written for `a.ts`, `./a`, `./folder`), if any. */
function resolveSpecifier(from: string, specifier: string, exists: (file: string) => boolean): string | undefined {
  const base = join(dirname(from), specifier).split("\\").join("/");
  const candidates = [base, base.replace(/\.js$/, ".ts"), `${base}.ts`, `${base}/index.ts`];
  return candidates.find((candidate) => candidate.endsWith(".ts") && exists(candidate));
}

/** A graph of imports: each file and the package files it imports; also the relative imports no file answers. */
function importGraph(files: ReadonlyMap<string, string>): {
  edges: Map<string, string[]>;
  unresolved: string[];
} {
  const edges = new Map<string, string[]>();
  const unresolved: string[] = [];
  for (const [file, text] of files) {
    const imported = ts.preProcessFile(text, true, true).importedFiles.map((entry) => entry.fileName);
    const targets = new Set<string>();
    for (const specifier of imported) {
      if (!specifier.startsWith(".")) continue;
      // A JSON file (package.json) or another non-TypeScript asset is no module of this graph.
      if (/\.(json|yaml|md|html|css)$/.test(specifier)) continue;
      const target = resolveSpecifier(file, specifier, (candidate) => files.has(candidate));
      if (target === undefined) unresolved.push(`${file} imports ${specifier}`);
      else targets.add(target);
    }
    edges.set(file, [...targets].sort());
  }
  return { edges, unresolved };
}

/** The circles of a graph: each strongly connected part of more than one file, or a file importing itself (Tarjan). */
function importCircles(edges: ReadonlyMap<string, readonly string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  let next = 0;
  const visit = (file: string): void => {
    index.set(file, next);
    low.set(file, next);
    next += 1;
    stack.push(file);
    onStack.add(file);
    for (const target of edges.get(file) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file)!, low.get(target)!));
      } else if (onStack.has(target)) {
        low.set(file, Math.min(low.get(file)!, index.get(target)!));
      }
    }
    if (low.get(file) !== index.get(file)) return;
    const part: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      part.push(member);
    } while (member !== file);
    if (part.length > 1 || (edges.get(file) ?? []).includes(file)) circles.push(part.sort());
  };
  for (const file of [...edges.keys()].sort()) if (!index.has(file)) visit(file);
  return circles.sort((a, b) => a[0]!.localeCompare(b[0]!));
}

/** One path around a circle, for the message: from its first file back to it, through the circle's files only. */
function describeCircle(circle: readonly string[], edges: ReadonlyMap<string, readonly string[]>): string {
  const members = new Set(circle);
  const start = circle[0]!;
  const previous = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const file = queue.shift()!;
    for (const target of edges.get(file) ?? []) {
      if (!members.has(target)) continue;
      if (target === start) {
        const path = [file];
        while (path[0] !== start) path.unshift(previous.get(path[0]!)!);
        return [...path, start].join(" → ");
      }
      if (!previous.has(target)) {
        previous.set(target, file);
        queue.push(target);
      }
    }
  }
  return circle.join(", ");
}

describe("imports in src", () => {
  const files = new Map(sourceFiles(SRC).map((file) => [file, readFileSync(join(SRC, file), "utf8")] as const));
  const { edges, unresolved } = importGraph(files);
  const circles = importCircles(edges);

  it("reads the package's imports, and every relative import names a file of src", () => {
    expect(files.size).toBeGreaterThan(100);
    expect([...edges.values()].reduce((sum, targets) => sum + targets.length, 0)).toBeGreaterThan(300);
    expect(unresolved).toEqual([]);
  });

  it("has no import circle, type-only imports and dynamic imports included", () => {
    const described = circles.map((circle) => {
      const path = `src/${describeCircle(circle, edges).split(" → ").join(" → src/")}`;
      return circle.length > 2 ? `${path} (all the files of this circle: ${circle.join(", ")})` : path;
    });
    expect(
      described,
      "Each of these files reaches itself through its imports. Break the circle: move what two of them share " +
        "(often types) into a module of its own both import.",
    ).toEqual([]);
  });

  it("finds a circle of type-only imports, an export-from and a dynamic import, and not one named in a comment", () => {
    const sample = new Map([
      ["a.ts", 'import type { B } from "./b.ts";\n// import { c } from "./c.ts";\nexport type A = B;'],
      ["b.ts", 'export type { A as B } from "./a.ts";'],
      ["c.ts", 'export const load = () => import("./d.ts");\nconst text = "from \\"./a.ts\\"";'],
      ["d.ts", 'import { load } from "./c";\nexport const again = load;'],
      ["e.ts", 'import { load } from "./c.js";\nimport pkg from "../package.json";'],
    ]);
    const graph = importGraph(sample);
    expect(graph.unresolved).toEqual([]);
    expect(importCircles(graph.edges)).toEqual([
      ["a.ts", "b.ts"],
      ["c.ts", "d.ts"],
    ]);
    expect(describeCircle(["a.ts", "b.ts"], graph.edges)).toBe("a.ts → b.ts → a.ts");
  });
});
