/**
 * Operation ids in code are the spec's, as a type (`OperationId`, the keys of the generated `operations`): a
 * misspelt id does not compile (`npm run typecheck` holds the `@ts-expect-error` below), and the type names
 * exactly the operations of the spec.
 */
import { describe, expect, it } from "vitest";
import type { OperationId } from "../../src/contract/operation-id.ts";
import { loadSpec } from "../../src/spec/load-spec.ts";
import { HTTP_METHODS } from "../../src/spec/openapi-document.ts";

describe("operation ids", () => {
  it("does not take an id the spec lacks, and lists every operation of the spec", () => {
    // @ts-expect-error: the spec's list-by-user operation is listUserProperties
    const misspelt: OperationId = "listPropertiesByUser";
    const listed: Record<OperationId, true> = {
      retrieveProperty: true,
      retrievePropertyByExternalId: true,
      createProperty: true,
      editProperty: true,
      listUserProperties: true,
      retrieveAgentCard: true,
      createAgentCard: true,
      updateAgentCard: true,
      deleteAgentCard: true,
      listAgentCards: true,
      createDocument: true,
      updateDocument: true,
      retrieveDocument: true,
      deleteDocument: true,
      retrieveTemplateCatalogue: true,
    };
    const spec = loadSpec();
    const ids = Object.values(spec.paths).flatMap((item) =>
      HTTP_METHODS.flatMap((method) => (item?.[method] ? [item[method].operationId] : [])),
    );
    expect(ids.sort()).toEqual(Object.keys(listed).sort());
    expect(ids).not.toContain(misspelt);
  });
});
