import type { Operation } from "../../contract/operation-table.ts";

/** A whole number written the one way a nid is written: plain decimal, no sign, no leading zero. */
const CANONICAL = /^(?:0|[1-9][0-9]*)$/;
/** What the contract reads as an integer (`convertPathValue`): digits, with an optional minus. */
const DIGITS = /^-?[0-9]+$/;

/**
 * The integer path parameter (a nid, a uid) that no record can have although it is made of digits, or
 * undefined. `01001` would otherwise read as 1001 and answer another address's record, and a number above
 * 2^53-1 would be rounded to a neighbour: both name nothing, so the mock answers 404 and quotes the
 * parameter as it was sent, never a rounded number. Negative numbers are canonical but name no record either;
 * the services answer those.
 */
export function nonCanonicalId(
  operation: Operation,
  rawParams: Record<string, string>,
): { name: string; raw: string } | undefined {
  for (const parameter of operation.pathParameters) {
    if (parameter.type !== "integer") continue;
    const raw = rawParams[parameter.name] ?? "";
    if (!DIGITS.test(raw)) continue; // not a number at all: the contract answers 400
    const digits = raw.replace(/^-/, "");
    if (!CANONICAL.test(digits) || !Number.isSafeInteger(Number(raw))) return { name: parameter.name, raw };
  }
  return undefined;
}

/** The 404 detail for {@link nonCanonicalId}'s finding. */
export function nonCanonicalIdDetail(found: { name: string; raw: string }): string {
  return (
    `No record has the ${found.name} ${found.raw}: ` +
    `a ${found.name} is written in plain decimal without leading zeros, and is at most 9007199254740991.`
  );
}
