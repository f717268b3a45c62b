/**
 * The code of the README and docs/, as its tests read it: a fenced block marked with `<!-- example: NAME ... -->`
 * on the line before it, so that a test runs exactly what a reader copies.
 */
import { userDocs } from "./readme-commands.ts";

export function readmeExample(name: string): string {
  const readme = userDocs();
  const match = new RegExp(`<!-- example: ${name}\\b[^>]*-->\\n\`\`\`[a-z]*\\n([\\s\\S]*?)\\n\`\`\`\\n`).exec(readme);
  if (!match) throw new Error(`README.md and docs/ have no block marked <!-- example: ${name} -->`);
  return match[1]!;
}
