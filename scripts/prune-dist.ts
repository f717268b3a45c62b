/**
 * A step of `npm run build`, after `tsc -b`: removes from `dist/` the compiled files whose source is no longer in
 * `src/`. tsc writes and never deletes, so a module moved or renamed in a working copy would stay in `dist/`
 * beside its successor, and `npm pack` (whose `prepare` is this build) would ship it. The folders the copy step
 * fills (the docs page's and the console's files) and the bundle step's chunks are those steps', and left alone.
 *
 *   npx tsx scripts/prune-dist.ts [package root]
 */
import { readdirSync, rmSync, existsSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";

/** What tsc writes for `src/x.ts`: `dist/x.js` and `dist/x.d.ts` (and maps, where asked). */
const OUTPUT = /(\.d\.ts\.map|\.js\.map|\.d\.ts|\.js)$/;
const COPIED = new Set(["docs-assets", "console-assets"]);
/**
 * The chunks the bundle step writes beside the runner's bin, by their path under dist/: that step's, which replaces
 * them on each build (scripts/bundle-bin.ts).
 */
export const BUNDLED = /^cli\/contract-[\w-]+\.js$/;

/** Removes the stale compiled files under `root/dist`, and the folders they leave empty; gives the files removed. */
export function pruneDist(root: string): string[] {
  const dist = join(root, "dist");
  const removed: string[] = [];
  const visit = (folder: string): boolean => {
    let left = 0;
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      const inDist = relative(dist, path);
      if (entry.isDirectory()) {
        if (folder === dist && COPIED.has(entry.name)) left += 1;
        else if (visit(path)) left += 1;
        else rmSync(path, { recursive: true });
        continue;
      }
      const base = inDist.replace(OUTPUT, "");
      if (base === inDist || BUNDLED.test(inDist.split(sep).join("/")) || existsSync(join(root, "src", `${base}.ts`))) {
        left += 1;
        continue;
      }
      rmSync(path);
      removed.push(inDist);
    }
    return left > 0;
  };
  if (existsSync(dist)) visit(dist);
  return removed;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const removed = pruneDist(process.argv[2] ?? fileURLToPath(new URL("..", import.meta.url)));
  if (removed.length > 0) console.log(`dist/: removed ${removed.length} files whose source is gone`);
}
