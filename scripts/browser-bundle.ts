/**
 * esbuild bundles for the browser (the bench's size of the browser module, and the tests that bundle the core
 * and a page), as a frontend's bundler makes them: platform `browser`, ESM, minified, and
 * any import of a Node builtin (`node:fs`, `fs`, `crypto`…) an error naming who imports it, rather than a stub.
 */
import { builtinModules } from "node:module";
import { gzipSync } from "node:zlib";
import { build, type Plugin } from "esbuild";
import { relative } from "node:path";
import { fileURLToPath } from "node:url";

/** The package's root: entries are paths in it. */
const PACKAGE_ROOT = fileURLToPath(new URL("..", import.meta.url));

const BUILTINS = new Set(builtinModules);

/** Refuses every Node builtin, with the importer's name. */
const noNodeBuiltins: Plugin = {
  name: "no-node-builtins",
  setup(builder) {
    builder.onResolve({ filter: /.*/ }, (args) => {
      const name = args.path.startsWith("node:")
        ? args.path
        : BUILTINS.has(args.path.split("/")[0]!)
          ? args.path
          : undefined;
      return name === undefined
        ? undefined
        : { errors: [{ text: `Node builtin "${name}" imported by ${relative(PACKAGE_ROOT, args.importer)}` }] };
    });
  },
};

/** What a bundle gave: its code and sizes, or the errors that stopped it. */
export type BrowserBundle =
  | { ok: true; code: string; bytes: number; gzipBytes: number; inputs: string[] }
  | { ok: false; errors: string[] };

/**
 * Bundles `entry` (a path in this package) for the browser. `external` stays an import (msw, which the page's
 * own bundle brings); `format` is ESM unless an IIFE is wanted (`globalName` then names what it exports).
 */
export async function bundleForBrowser(
  entry: string,
  options: { external?: string[]; format?: "esm" | "iife"; globalName?: string; minify?: boolean } = {},
): Promise<BrowserBundle> {
  try {
    const result = await build({
      entryPoints: [entry],
      absWorkingDir: PACKAGE_ROOT,
      bundle: true,
      platform: "browser",
      format: options.format ?? "esm",
      ...(options.globalName ? { globalName: options.globalName } : {}),
      minify: options.minify ?? true,
      write: false,
      external: options.external ?? [],
      metafile: true,
      logLevel: "silent",
      plugins: [noNodeBuiltins],
    });
    const code = result.outputFiles[0]!.contents;
    return {
      ok: true,
      code: new TextDecoder().decode(code),
      bytes: code.length,
      gzipBytes: gzipSync(code, { level: 9 }).length,
      inputs: Object.keys(result.metafile.inputs),
    };
  } catch (error) {
    const errors = (error as { errors?: Array<{ text: string }> }).errors;
    return { ok: false, errors: errors ? errors.map((found) => found.text) : [String(error)] };
  }
}

/**
 * The same bundle split as Vite's and Rollup's builds split it: what a page loads at once (the entry and the chunks
 * it imports statically) and what it loads only on a dynamic `import()` (reading a service profile loads AJV),
 * each gzipped. Undefined when it does not bundle.
 */
export async function splitBundleSizes(
  entry: string,
  external: string[] = [],
): Promise<{ initialGzipBytes: number; lazyGzipBytes: number } | undefined> {
  try {
    const result = await build({
      entryPoints: [entry],
      absWorkingDir: PACKAGE_ROOT,
      bundle: true,
      splitting: true,
      outdir: "split-out",
      platform: "browser",
      format: "esm",
      minify: true,
      write: false,
      external,
      metafile: true,
      logLevel: "silent",
      plugins: [noNodeBuiltins],
    });
    const sizes = new Map(
      result.outputFiles.map((file) => [
        relative(PACKAGE_ROOT, file.path),
        gzipSync(file.contents, { level: 9 }).length,
      ]),
    );
    const outputs = result.metafile.outputs;
    const initial = new Set<string>();
    const visit = (name: string) => {
      if (initial.has(name)) return;
      initial.add(name);
      for (const imported of outputs[name]?.imports ?? [])
        if (imported.kind === "import-statement" && !imported.external) visit(imported.path);
    };
    visit(Object.keys(outputs).find((name) => outputs[name]!.entryPoint !== undefined)!);
    let initialGzipBytes = 0;
    let lazyGzipBytes = 0;
    for (const [name, size] of sizes) {
      if (!name.endsWith(".js")) continue;
      if (initial.has(name)) initialGzipBytes += size;
      else lazyGzipBytes += size;
    }
    return { initialGzipBytes, lazyGzipBytes };
  } catch {
    return undefined;
  }
}
