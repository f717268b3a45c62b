import type { Contract } from "../../contract/create-contract.ts";
import { resolvePointer } from "../../spec/json-pointer.ts";

/** A body the spec documents for one status of one operation. */
export interface DocumentedAnswer {
  contentType: string;
  body: unknown;
}

/**
 * The first example of each documented response, per operation and status, read once at start: what
 * `Prefer: code=<status>` answers for a status the operation documents (Prism's static mocking does the same).
 * `npm run lint` (Redocly's no-invalid-media-type-examples) and test/spec checks hold every example to its schema.
 */
export function createDocumentedAnswers(
  contract: Contract,
): (operationId: string, status: number) => DocumentedAnswer | undefined {
  const table = new Map<string, DocumentedAnswer>();
  for (const operation of contract.operations) {
    for (const [status, response] of operation.responses) {
      for (const [contentType, schemaPointer] of response.schemaPointers) {
        const media = resolvePointer(contract.document, schemaPointer.slice(0, -"/schema".length)) as
          | { example?: unknown; examples?: Record<string, unknown> }
          | undefined;
        const body = media?.example !== undefined ? media.example : firstExample(contract, media?.examples);
        if (body !== undefined && !table.has(`${operation.id} ${status}`))
          table.set(`${operation.id} ${status}`, { contentType, body });
      }
    }
  }
  return (operationId, status) => table.get(`${operationId} ${status}`);
}

function firstExample(contract: Contract, examples: Record<string, unknown> | undefined): unknown {
  for (const example of Object.values(examples ?? {})) {
    let value = example as { $ref?: string; value?: unknown } | undefined;
    if (value && typeof value.$ref === "string") value = resolvePointer(contract.document, value.$ref) as typeof value;
    if (value && value.value !== undefined) return value.value;
  }
  return undefined;
}
