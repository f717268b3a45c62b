import type { OpenApiDocument } from "./openapi-document.ts";

/** The assumption the mock's values of never-set property fields rest on (`x-assumption-id` in the spec). */
export const NEVER_SET_DEFAULTS = "never-set-defaults";

/**
 * The fields of a property (section 2.1) the mock answers with a value of its own when no request set them, read
 * from the spec: each refers (through `allOf`) to the schema marked `never-set-defaults`. A service may answer
 * null there, as section 2.1 reads an absent value.
 */
export function neverSetDefaultFields(document: OpenApiDocument): string[] {
  const schemas = (document.components?.schemas ?? {}) as Record<string, Record<string, unknown>>;
  const marked = new Set(
    Object.entries(schemas)
      .filter(([, schema]) => schema["x-assumption-id"] === NEVER_SET_DEFAULTS)
      .map(([name]) => `#/components/schemas/${name}`),
  );
  const properties = (schemas.Property?.properties ?? {}) as Record<string, { allOf?: Array<{ $ref?: string }> }>;
  return Object.entries(properties)
    .filter(([, schema]) => (schema.allOf ?? []).some((part) => part.$ref !== undefined && marked.has(part.$ref)))
    .map(([field]) => field);
}
