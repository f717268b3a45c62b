import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The folder of this package's package.json, where `spec/`, `fixtures/` and `dist/` are: the first folder above
 * this module that has a package.json. Found by walking up rather than by a fixed `../..`, so that it is the same
 * whether the code runs from its sources (`src/`), its build (`dist/`), or the mock's bin, which the build bundles
 * into the one file `dist/cli/mock.js` (scripts/bundle-bin.ts).
 */
export const PACKAGE_ROOT = packageRootAbove(dirname(fileURLToPath(import.meta.url)));

function packageRootAbove(start: string): string {
  for (let folder = start; ; folder = dirname(folder)) {
    if (existsSync(join(folder, "package.json"))) return folder;
    if (dirname(folder) === folder)
      throw new Error(`No package.json above ${start}: the kit's files are not where it was installed.`);
  }
}
