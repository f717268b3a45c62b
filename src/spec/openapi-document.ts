/**
 * The parts of an OpenAPI 3.1 document this project reads. Hand-written on purpose: the generated types in
 * `src/generated/` describe the Property Listing Service's API, not the shape of the spec file itself.
 */

/** A JSON Schema 2020-12 object as written in the spec (OpenAPI 3.1 uses the dialect as is). */
export type SchemaObject = { [keyword: string]: unknown };

/** A parameter object (OpenAPI 3.1 §4.8.12). */
export interface ParameterObject {
  name: string;
  in: "path" | "query" | "header" | "cookie";
  required?: boolean;
  description?: string;
  schema?: SchemaObject;
  "x-assumption"?: string;
  "x-assumption-id"?: string;
}

/** A media type object (OpenAPI 3.1 §4.8.14). */
export interface MediaTypeObject {
  schema?: SchemaObject;
  examples?: Record<string, ExampleObject | ReferenceObject>;
  example?: unknown;
}

/** An example object (OpenAPI 3.1 §4.8.19). */
export interface ExampleObject {
  summary?: string;
  value?: unknown;
}

/** A request body object (OpenAPI 3.1 §4.8.13). */
export interface RequestBodyObject {
  required?: boolean;
  content: Record<string, MediaTypeObject>;
  "x-assumption"?: string;
  "x-assumption-id"?: string;
}

/** A response object (OpenAPI 3.1 §4.8.17). */
export interface ResponseObject {
  description: string;
  content?: Record<string, MediaTypeObject>;
  "x-assumption"?: string;
  "x-assumption-id"?: string;
}

/** A reference object (OpenAPI 3.1 §4.8.23). */
export interface ReferenceObject {
  $ref: string;
}

/** An operation object (OpenAPI 3.1 §4.8.10), with this project's extensions. */
export interface OperationObject {
  operationId: string;
  summary?: string;
  description?: string;
  tags?: string[];
  parameters?: Array<ParameterObject | ReferenceObject>;
  requestBody?: RequestBodyObject | ReferenceObject;
  responses: Record<string, ResponseObject | ReferenceObject>;
  security?: Array<Record<string, string[]>>;
  /** The operation needs the API-KEY and TOKEN headers by our decision, not by the interface document. */
  "x-security-assumption"?: string;
  /** The stable name of that decision (`agent-document-auth`). */
  "x-security-assumption-id"?: string;
  /** The interface document requires this `content-type` header even when no body is sent. */
  "x-required-content-type"?: string;
  /** The section of the interface document that describes the operation. */
  "x-section"?: string;
}

/** The HTTP methods an OpenAPI path item can hold. */
export const HTTP_METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

/** A path item object (OpenAPI 3.1 §4.8.9). */
export type PathItemObject = { parameters?: Array<ParameterObject | ReferenceObject> } & {
  [M in HttpMethod]?: OperationObject;
};

/** A security scheme object of type apiKey (OpenAPI 3.1 §4.8.27). */
export interface SecuritySchemeObject {
  type: string;
  in?: string;
  name?: string;
}

/** An OpenAPI 3.1 document. */
export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; [key: string]: unknown };
  servers?: Array<{ url: string }>;
  security?: Array<Record<string, string[]>>;
  paths: Record<string, PathItemObject>;
  components?: {
    schemas?: Record<string, SchemaObject>;
    parameters?: Record<string, ParameterObject>;
    responses?: Record<string, ResponseObject>;
    examples?: Record<string, ExampleObject>;
    securitySchemes?: Record<string, SecuritySchemeObject>;
  };
  [key: string]: unknown;
}
