/**
 * The pages a user reads, as paths from the package root: the README, then each page of docs/ in name order.
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { PACKAGE_ROOT } from "./start-process.ts";

export function manualPages(): string[] {
  const pages = readdirSync(join(PACKAGE_ROOT, "docs"))
    .filter((name) => name.endsWith(".md"))
    .sort();
  return ["README.md", ...pages.map((name) => `docs/${name}`)];
}
