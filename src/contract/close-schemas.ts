import type { OpenApiDocument } from "../spec/openapi-document.ts";

/**
 * Returns a copy of the document in which every object schema that lists its properties refuses any other
 * property (`unevaluatedProperties: false`), so "the answer has exactly the documented fields" can be checked.
 * The spec itself keeps response objects open: the interface document lists fields, it does not forbid others.
 * Schemas that are one part of an `allOf` are left open, since their siblings evaluate the other properties.
 */
export function closeSchemas(document: OpenApiDocument): OpenApiDocument {
  const copy = structuredClone(document);
  const visit = (node: unknown, isAllOfPart: boolean): void => {
    if (node === null || typeof node !== "object") return;
    if (Array.isArray(node)) {
      for (const item of node) visit(item, isAllOfPart);
      return;
    }
    const schema = node as Record<string, unknown>;
    if (
      !isAllOfPart &&
      schema.type === "object" &&
      schema.properties !== null &&
      typeof schema.properties === "object" &&
      !("additionalProperties" in schema) &&
      !("unevaluatedProperties" in schema)
    ) {
      schema.unevaluatedProperties = false;
    }
    for (const [key, child] of Object.entries(schema)) {
      if (key === "allOf" && Array.isArray(child)) for (const part of child) visit(part, true);
      else visit(child, false);
    }
  };
  visit(copy, false);
  return copy;
}
