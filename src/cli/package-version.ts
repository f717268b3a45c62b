import { readFileSync } from "node:fs";

/**
 * `<name> <version>` of this package, for the programs' `--version`: read from package.json, two folders up
 * from both `src/cli/` (run from the sources) and `dist/cli/` (the built bins).
 */
export function packageVersion(): string {
  const { name, version } = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { name: string; version: string };
  return `${name} ${version}`;
}
