/**
 * Vitest global setup: makes `dist/` current once before any test file runs, since `npm start`, `npm run contract`,
 * the bins and the package as a consumer imports it all run the built JavaScript. One build for the whole run,
 * so that no test reads files another one is rewriting.
 *
 * The build runs while no test file can start, and `tsc -b` alone takes a couple of seconds to find that nothing
 * changed. So it is left out when dist/ is plainly current, as `make` decides: every file of dist/ (the bins among
 * them) is newer than everything the build reads. That is so right after `npm ci`, whose prepare built it; an edit,
 * a checkout, a deleted or renamed source (its folder's time changes) or an install makes the build run.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { PACKAGE_ROOT } from "./start-process.ts";

/** What `npm run build` reads, besides the packages it bundles (their install changes the last entry). */
const BUILD_INPUTS = [
  "src",
  "tsconfig.json",
  "tsconfig.build.json",
  "package.json",
  "package-lock.json",
  "scripts/prune-dist.ts",
  "scripts/copy-docs-assets.ts",
  "scripts/bundle-bin.ts",
  "node_modules/.package-lock.json",
];

export default function buildOnce(): void {
  if (distIsCurrent(PACKAGE_ROOT)) return;
  execFileSync("npm", ["run", "--silent", "build"], { cwd: PACKAGE_ROOT, stdio: "pipe" });
}

/** True when every file under `root`/dist is newer than every input of the build, and the bins are there. */
export function distIsCurrent(root: string): boolean {
  const dist = join(root, "dist");
  const bins = Object.values(
    (JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { bin?: Record<string, string> }).bin ?? {},
  );
  if (!existsSync(dist) || bins.some((bin) => !existsSync(join(root, bin)))) return false;
  const built = times(dist, "files");
  if (built.length === 0) return false;
  const inputs = BUILD_INPUTS.map((input) => join(root, input)).filter((input) => existsSync(input));
  return Math.min(...built) > Math.max(...inputs.flatMap((input) => times(input, "folders too")));
}

/** The modification times under `path`: of its files, or of its folders as well (a removal changes those). */
function times(path: string, kind: "files" | "folders too"): number[] {
  const stat = statSync(path);
  if (!stat.isDirectory()) return [stat.mtimeMs];
  const found = kind === "folders too" ? [stat.mtimeMs] : [];
  for (const entry of readdirSync(path)) found.push(...times(join(path, entry), kind));
  return found;
}
