import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import type { Contract } from "../build-contract.ts";
import { readUsageFile } from "./read-usage-document.ts";
import { usageToPact } from "./usage-to-pact.ts";

/**
 * What writing a pact gave: how many interactions, or why not, each line naming the file at fault, and which of
 * the two it is (`usage`: the usage file is refused; `pact`: the pact file cannot be written).
 */
export type PactWriting =
  | { ok: true; interactions: number; tests: number; truncated: boolean }
  | { ok: false; at: "usage" | "pact"; problems: string[] };

/**
 * `--usage <file> --write-pact <file>`: reads the usage (all or nothing) and writes it as a Pact v4 file, two-space
 * indented with a final newline, so that the same usage gives the same bytes. The pact's folder is made when
 * missing, as a Pact consumer's `pacts/` folder is.
 */
export function writePactFile(usageFile: string, pactFile: string, contract: Contract): PactWriting {
  const read = readUsageFile(usageFile, new Set(contract.operations.map((operation) => operation.id)));
  if (!read.ok) return { ok: false, at: "usage", problems: read.problems };
  const pact = usageToPact(read.usage, contract);
  try {
    mkdirSync(dirname(pactFile), { recursive: true });
    writeFileSync(pactFile, `${JSON.stringify(pact, null, 2)}\n`);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why =
      code === "EISDIR"
        ? "it is a folder"
        : code === "ENOTDIR" || code === "EEXIST"
          ? "a part of its path is a file, not a folder"
          : code === "EACCES" || code === "EPERM"
            ? "permission denied"
            : (code ?? (error as Error).message);
    return { ok: false, at: "pact", problems: [`${pactFile}: cannot write the pact: ${why}`] };
  }
  const truncated = read.usage.truncated !== undefined || read.usage.tests.some((test) => test.truncated);
  return { ok: true, interactions: pact.interactions.length, tests: read.usage.tests.length, truncated };
}
