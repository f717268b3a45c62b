/**
 * The kit placed in a test project's node_modules as an install places a package from the registry: a folder of its
 * own holding this clone's package.json and what its `files` ships (dist/, spec/, fixtures/ and a few pages), its own
 * dependencies resolved from the clone's node_modules. Not a link to the clone: a tool that treats a package under
 * node_modules as a dependency (vitest loads those with Node's own import) treats a linked folder outside any
 * node_modules as the project's source, and compiles the kit's every module anew in each run, as it would not for
 * a consumer who installed it. Copied afresh for each project, after the run's global set-up built dist/.
 */
import { cpSync, mkdirSync, readFileSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { PACKAGE_ROOT } from "./start-process.ts";

/** What the package ships: package.json and its `files`, source maps and tests left out, as `files` says. */
const SHIPPED = [
  "package.json",
  ...(JSON.parse(readFileSync(join(PACKAGE_ROOT, "package.json"), "utf8")) as { files: string[] }).files.filter(
    (entry) => !entry.startsWith("!"),
  ),
];

/** Makes `<nodeModules>/property-listing-kit` a copy of the built package; returns its folder. */
export function placeInstalledKit(nodeModules: string): string {
  const kit = join(nodeModules, "property-listing-kit");
  mkdirSync(kit, { recursive: true });
  for (const entry of SHIPPED)
    cpSync(join(PACKAGE_ROOT, entry), join(kit, entry), {
      recursive: true,
      filter: (source) => !/\.map$|\.test\.[^/]*$/.test(source),
    });
  // The kit's own dependencies (and its peer msw) are those the clone's dist/ runs with.
  symlinkSync(join(PACKAGE_ROOT, "node_modules"), join(kit, "node_modules"), "dir");
  return kit;
}
