import { readFileSync } from "node:fs";
import { checkAccountConfigs, type AccountConfig } from "../../mock/account-config.ts";

export type { AccountConfig };

/**
 * Reads an accounts file (`--accounts`, or the `accounts` option given as a path): a non-empty JSON array of
 * `{ apiKey, token, uid?, agentSeats?, name? }`. Returns the accounts, or a message saying what is wrong and where.
 */
export function readAccountsFile(path: string): AccountConfig[] | string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    return `Cannot read the accounts file ${path}: ${(error as Error).message}`;
  }
  return checkAccountConfigs(parsed, path);
}
