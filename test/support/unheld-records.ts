/**
 * States holding a record the mock cannot hold (src/mock/store/record-fault.ts), as text, for the tests of their
 * refusal where they enter: a record that is not an object, one nested too deep, an id that is not an integer.
 */

/** A JSON value nesting `levels` objects (`{"a":{"a":1}}` for 2). */
export function nestedValue(levels: number): string {
  let text = "1";
  for (let level = 0; level < levels; level++) text = `{"a":${text}}`;
  return text;
}

/**
 * A property as the mock writes one (its id and owner first, so the scan takes it) that nests `depth` levels, itself
 * the first.
 */
export function propertyNesting(depth: number, id = 1001): string {
  return `{"id":${id},"uid":1,"title":"Deep","extra":${nestedValue(depth - 1)},"published":"1"}`;
}

/** A state's text with these records' texts in their collections (the others empty). */
export function stateText(records: {
  accounts?: string[];
  properties?: string[];
  agents?: string[];
  documents?: string[];
}): string {
  const collection = (name: keyof typeof records) => `"${name}":[${(records[name] ?? []).join(",")}]`;
  return `{${collection("accounts")},${collection("properties")},${collection("agents")},${collection("documents")}}`;
}
