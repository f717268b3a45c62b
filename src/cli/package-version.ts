import { readFileSync } from "node:fs";
import { join } from "node:path";
import { PACKAGE_ROOT } from "../package-root.ts";

/** `<name> <version>` of this package, for the programs' `--version`: read from its package.json. */
export function packageVersion(): string {
  const { name, version } = JSON.parse(readFileSync(join(PACKAGE_ROOT, "package.json"), "utf8")) as {
    name: string;
    version: string;
  };
  return `${name} ${version}`;
}
