/**
 * One valid request per operation of the contract, built from the spec's own examples, for table-driven tests
 * that must cover every operation.
 */
import { resolvePointer } from "../../src/spec/json-pointer.ts";
import { loadSpec } from "../../src/spec/load-spec.ts";
import type { RequestBodyObject } from "../../src/spec/openapi-document.ts";

export interface OperationRequest {
  operationId: string;
  method: "get" | "post" | "put" | "delete";
  /** A path under /api/v1/object with the ids of the tiny fixtures filled in. */
  path: string;
  body?: unknown;
}

const spec = loadSpec();
const ids: Record<string, string> = { "{uid}": "1", "{external-id}": "crm-1001" };
const nidFor: Record<string, string> = { property: "1001", agent_card: "1003", document: "1004" };

/** Every operation, with the first example of its request body adjusted to the tiny fixtures. */
export function operationRequests(): OperationRequest[] {
  const requests: OperationRequest[] = [];
  for (const [template, item] of Object.entries(spec.paths)) {
    for (const method of ["get", "post", "put", "delete"] as const) {
      const operation = item[method];
      if (!operation) continue;
      const kind = template.split("/")[4]!;
      const path = template
        .replace(/^\/api\/v1\/object/, "")
        .replace("{nid}", nidFor[kind] ?? "1")
        .replace(/\{[^}]+\}/g, (param) => ids[param] ?? "1");
      const request: OperationRequest = { operationId: operation.operationId, method, path };
      if (operation.requestBody) {
        const body = operation.requestBody as RequestBodyObject;
        const [example] = Object.values(body.content["application/json"]!.examples ?? {});
        const value = structuredClone(
          (example && "$ref" in example ? resolvePointer(spec, example.$ref) : example) as {
            value: unknown;
          },
        ).value as Record<string, unknown>;
        if ("property_reference" in value) value.property_reference = 1001;
        if (operation.operationId === "createAgentCard") value.email = "new.agent@harbor.example";
        request.body = value;
      }
      requests.push(request);
    }
  }
  return requests;
}
