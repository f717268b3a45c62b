/**
 * The last step of `npm run build`: bundles the mock's bin, `src/cli/mock.ts` and every module of the kit it
 * imports, into the one file `dist/cli/mock.js`, over what tsc wrote there. Node then loads one module at start
 * instead of some 75: 50-100 ms less, 215-260 against 270-344 ms to the first answer on the 2-core machine
 * (`npm run bench` shows the start-up). Packages (ajv, yaml) stay imports, resolved from node_modules as before;
 * the library (`dist/index.js` and the rest of `dist/`) is tsc's output, unbundled. Paths to the package's files
 * go through `src/package-root.ts`, which finds them from wherever the code runs.
 */
import { build } from "esbuild";

await build({
  entryPoints: ["src/cli/mock.ts"],
  outfile: "dist/cli/mock.js",
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20.19",
  packages: "external",
  logLevel: "warning",
});

// The package's programs are run as files (`npx property-listing-contract` in this clone runs dist/cli/contract.js
// itself): executable whatever wrote them. npm sets the bit when it installs the package, but not after a
// `npm run build` of a clean dist/.
import { chmodSync, readFileSync } from "node:fs";
const { bin } = JSON.parse(readFileSync("package.json", "utf8")) as { bin: Record<string, string> };
for (const file of Object.values(bin)) chmodSync(file, 0o755);
