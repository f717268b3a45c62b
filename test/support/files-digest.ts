/**
 * Feeding a hash the files under a folder, for the keys that tell a kept install or a kept verdict from a stale
 * one: consumer-install.ts's archive and the Storybook test's typecheck.
 */
import type { Hash } from "node:crypto";
import { lstatSync, readdirSync, readFileSync, readlinkSync } from "node:fs";
import { join } from "node:path";

/**
 * Adds `relative` (a path under `root`) to `hash`: a file by its path and bytes, a folder by each of its entries in
 * the order of their names, a link by its target; a path that is not there adds nothing.
 */
export function hashFiles(hash: Hash, root: string, relative: string): void {
  const path = join(root, relative);
  const stat = lstatSync(path, { throwIfNoEntry: false });
  if (!stat) return;
  if (stat.isDirectory()) {
    for (const entry of readdirSync(path).sort()) hashFiles(hash, root, join(relative, entry));
  } else if (stat.isFile()) {
    const bytes = readFileSync(path);
    hash.update(`${relative} ${bytes.length}\n`).update(bytes);
  } else hash.update(`${relative} ${stat.isSymbolicLink() ? `-> ${readlinkSync(path)}` : "special"}\n`);
}
