/**
 * The README's code (or a docs/ page's), as its tests read it: a fenced block marked with `<!-- example: NAME ... -->`
 * on the line before it, so that a test runs exactly what a reader copies.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { PACKAGE_ROOT } from "./start-process.ts";

export function readmeExample(name: string, file = "README.md"): string {
  const readme = readFileSync(join(PACKAGE_ROOT, file), "utf8");
  const match = new RegExp(`<!-- example: ${name}\\b[^>]*-->\\n\`\`\`[a-z]*\\n([\\s\\S]*?)\\n\`\`\`\\n`).exec(readme);
  if (!match) throw new Error(`${file} has no block marked <!-- example: ${name} -->`);
  return match[1]!;
}
