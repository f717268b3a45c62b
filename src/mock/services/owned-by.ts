import type { AccountRecord } from "../store/records.ts";

/**
 * The record, if it belongs to the account; otherwise undefined, so another account's record answers exactly as
 * a record that does not exist (404).
 */
export function ownedBy<T extends { uid: number }>(record: T | undefined, account: AccountRecord): T | undefined {
  return record?.uid === account.id ? record : undefined;
}
