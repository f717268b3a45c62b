/**
 * The last step of `npm run build`: bundles the package's two bins over what tsc wrote for them. The mock's,
 * `src/cli/mock.ts` and every module of the kit it imports, becomes the one file `dist/cli/mock.js`: Node then
 * loads one module at start instead of some 75 (`npm run bench` shows the start-up). The contract runner's,
 * `src/cli/contract.ts`, becomes `dist/cli/contract.js` and a few `dist/cli/contract-*.js` chunks (what a run
 * loads only when asked: the generated phase of `--fuzz` and fast-check, the test command of `--rerun`), beside
 * tsc's output of the generated validators and of the mock (`FROM_DIST` below): a plain run loads a few modules
 * instead of some 100. Packages
 * (ajv, yaml, json-server, fast-check, undici) stay imports, resolved from node_modules as before, but for the one
 * named below; the library (`dist/index.js` and the rest of `dist/`) is tsc's output, unbundled. Paths to the
 * package's files go through `src/package-root.ts`, which finds them from wherever the code runs.
 */
import { chmodSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join, relative, resolve, sep } from "node:path";
import { build, type BuildOptions, type Plugin } from "esbuild";
import { BUNDLED } from "./prune-dist.ts";

/**
 * The one package module the bin loads at start, before any request: ajv-formats' checks, which the contract's
 * validators call. It is CommonJS, and Node's ES module loader brings a CommonJS file in with its own machinery
 * (the package's resolution, a scan of the file for its exports), several times what the file's own code costs;
 * bundled, it is a function of the bin. Every other package stays an import, loaded when first needed.
 */
const INLINED = new Set(["ajv-formats/dist/formats.js"]);

/** esbuild's `packages: "external"`, but for the modules named: those are bundled. */
function packagesExternalBut(inlined: ReadonlySet<string>): Plugin {
  return {
    name: "packages-external-but",
    setup(bundle) {
      bundle.onResolve({ filter: /^[^./]/ }, (args) =>
        args.kind === "entry-point" || inlined.has(args.path) ? undefined : { path: args.path, external: true },
      );
    },
  };
}

const common: BuildOptions = {
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20.19",
  // Node reads the bin, people read the sources: without its indentation and line breaks the file is a third
  // smaller on a user's disk and to parse at start. Names stay as written, so a stack trace still names functions.
  minifyWhitespace: true,
  plugins: [packagesExternalBut(INLINED)],
  logLevel: "warning",
};

/**
 * Modules of the kit the runner's bin imports from tsc's output in `dist/` instead of holding a copy: the generated
 * validators and document (a megabyte that the library ships there already, and a consumer's install must stay
 * small), and the mock that only `--rerun` starts. They share no state with the bin's own modules: the generated
 * ones are data and functions, and the mock is handed plain options.
 */
const FROM_DIST = [/^src\/generated\//, /^src\/hosts\/node\/create-mock-server\.ts$/];

/** Imports of the modules of `FROM_DIST`, rewritten to their built files beside the bin's folder. */
function kitModulesFromDist(patterns: readonly RegExp[]): Plugin {
  return {
    name: "kit-modules-from-dist",
    setup(bundle) {
      bundle.onResolve({ filter: /^\./ }, (args) => {
        const source = relative(process.cwd(), resolve(args.resolveDir, args.path)).split(sep).join("/");
        if (!patterns.some((pattern) => pattern.test(source))) return undefined;
        const built = source.replace(/^src\//, "dist/").replace(/\.ts$/, ".js");
        return { path: `../${relative("dist", built).split(sep).join("/")}`, external: true };
      });
    },
  };
}

await build({ ...common, entryPoints: ["src/cli/mock.ts"], outfile: "dist/cli/mock.js" });
// The runner's dynamic imports stay dynamic: split into chunks beside it, loaded as the sources load them. Without
// splitting, esbuild would put them in the bin, and every run would load fast-check at start.
// The chunks of an earlier build go first: their names hold their content's hash, so a changed one is a new file.
for (const entry of readdirSync("dist/cli")) if (BUNDLED.test(`cli/${entry}`)) rmSync(join("dist/cli", entry));
await build({
  ...common,
  entryPoints: { contract: "src/cli/contract.ts" },
  outdir: "dist/cli",
  splitting: true,
  // Beside the bin, so that the imports of FROM_DIST, written as seen from `dist/cli/`, hold in every chunk too.
  chunkNames: "contract-[name]-[hash]",
  plugins: [kitModulesFromDist(FROM_DIST), packagesExternalBut(INLINED)],
});

// The generated validators as tsc wrote them are half indentation: without it, the runner's bin (which imports
// them from dist/, FROM_DIST above) and the library parse a third less at start, and a consumer's install holds a
// half-megabyte less. The code is the same, names and all; only whitespace and comments go.
for (const validators of ["dist/generated/contract-validators.js", "dist/generated/published-schema-validators.js"])
  await build({
    entryPoints: [validators],
    outfile: validators,
    allowOverwrite: true,
    format: "esm",
    target: "node20.19",
    minifyWhitespace: true,
    logLevel: "warning",
  });

// The package's programs are run as files (`npx property-listing-contract` in this clone runs dist/cli/contract.js
// itself): executable whatever wrote them. npm sets the bit when it installs the package, but not after a
// `npm run build` of a clean dist/.
const { bin } = JSON.parse(readFileSync("package.json", "utf8")) as { bin: Record<string, string> };
for (const file of Object.values(bin)) chmodSync(file, 0o755);
