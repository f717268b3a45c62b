/** An account the mock admits when it runs with configured accounts only. */
export interface AccountConfig {
  apiKey: string;
  token: string;
  /** The account's user id; give the uid of seeded data to reach it. Defaults to the next free uid. */
  uid?: number;
  agentSeats?: number;
  name?: string;
}

/**
 * Checks configured accounts (an accounts file's content, or the `accounts` option): a non-empty array of
 * `{ apiKey, token, uid?, agentSeats?, name? }` with no apiKey twice. Returns the accounts, or a message saying
 * what is wrong and where (`path` names the whole, as `path[2]` names an entry).
 */
export function checkAccountConfigs(parsed: unknown, path: string): AccountConfig[] | string {
  if (!Array.isArray(parsed) || parsed.length === 0) return `${path} must hold a non-empty JSON array of accounts`;
  const seen = new Set<string>();
  for (const [index, entry] of parsed.entries()) {
    const account = entry as Partial<AccountConfig> | null;
    const where = `${path}[${index}]`;
    if (!account || typeof account.apiKey !== "string" || account.apiKey === "")
      return `${where}: "apiKey" must be a non-empty string`;
    if (typeof account.token !== "string" || account.token === "")
      return `${where}: "token" must be a non-empty string`;
    if (account.uid !== undefined && !(Number.isInteger(account.uid) && account.uid > 0))
      return `${where}: "uid" must be a positive integer`;
    if (account.agentSeats !== undefined && !(Number.isInteger(account.agentSeats) && account.agentSeats >= 0)) {
      return `${where}: "agentSeats" must be a whole number`;
    }
    if (seen.has(account.apiKey)) return `${where}: the apiKey ${account.apiKey} appears twice`;
    seen.add(account.apiKey);
  }
  return parsed as AccountConfig[];
}
