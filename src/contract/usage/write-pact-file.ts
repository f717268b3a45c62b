import { writeFileSync } from "node:fs";
import type { Contract } from "../build-contract.ts";
import { readUsageFile } from "./read-usage-document.ts";
import { usageToPact } from "./usage-to-pact.ts";

/** What writing a pact gave: how many interactions, or why not (each line naming the file). */
export type PactWriting = { ok: true; interactions: number; tests: number; truncated: boolean } | { ok: false; problems: string[] };

/**
 * `--usage <file> --write-pact <file>`: reads the usage (all or nothing) and writes it as a Pact v4 file, two-space
 * indented with a final newline, so that the same usage gives the same bytes.
 */
export function writePactFile(usageFile: string, pactFile: string, contract: Contract): PactWriting {
  const read = readUsageFile(usageFile, new Set(contract.operations.map((operation) => operation.id)));
  if (!read.ok) return read;
  const pact = usageToPact(read.usage, contract);
  try {
    writeFileSync(pactFile, `${JSON.stringify(pact, null, 2)}\n`);
  } catch (error) {
    return { ok: false, problems: [`${pactFile}: cannot write the pact: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`] };
  }
  const truncated = read.usage.truncated !== undefined || read.usage.tests.some((test) => test.truncated);
  return { ok: true, interactions: pact.interactions.length, tests: read.usage.tests.length, truncated };
}
