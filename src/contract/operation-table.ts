import type { OperationId } from "./operation-id.ts";
import { escapeToken, resolvePointer } from "../spec/json-pointer.ts";
import {
  HTTP_METHODS,
  type OpenApiDocument,
  type OperationObject,
  type ParameterObject,
  type ReferenceObject,
  type RequestBodyObject,
  type ResponseObject,
} from "../spec/openapi-document.ts";

/** A path parameter of an operation, with where its schema sits in the document. */
export interface OperationParameter {
  name: string;
  schemaPointer: string;
  type: string | undefined;
  assumption: string | undefined;
}

/** The request body of an operation: its media types and where each schema sits. */
export interface OperationRequestBody {
  required: boolean;
  schemaPointers: Map<string, string>;
  assumption: string | undefined;
}

/** One documented response of an operation. */
export interface OperationResponse {
  status: string;
  schemaPointers: Map<string, string>;
  assumption: string | undefined;
}

/** Everything the contract needs to know about one operation, read once from the document. */
export interface Operation {
  /** The spec's operationId; a document given in `options` may have others, which no code names. */
  id: OperationId;
  method: string;
  pathTemplate: string;
  summary: string;
  tags: string[];
  pathParameters: OperationParameter[];
  requestBody: OperationRequestBody | undefined;
  responses: Map<string, OperationResponse>;
  /** Header names (as in the spec) that must be sent for the operation's security requirement. */
  credentialHeaders: string[];
  securityAssumption: string | undefined;
  /** The section of the interface document that describes the operation (`x-section`): `4.1`. */
  section: string | undefined;
  requiredContentType: string | undefined;
}

/** A request line matched to an operation, with its path parameters as sent (percent-decoded). */
export interface OperationFound {
  kind: "operation";
  operation: Operation;
  pathParams: Record<string, string>;
}

/** The result of matching a concrete request line against the operations. */
export type OperationMatch = OperationFound | { kind: "method-not-allowed"; allowed: string[] } | { kind: "no-route" };

interface PathEntry {
  template: string;
  segments: Array<{ literal: string } | { param: string }>;
  literalCount: number;
  operations: Map<string, Operation>;
}

/** The operations of a document, indexed for matching concrete request paths. */
export interface OperationTable {
  operations: Operation[];
  byId: Map<string, Operation>;
  match(method: string, path: string): OperationMatch;
}

/** Reads every operation of the document and builds the matcher. */
export function createOperationTable(document: OpenApiDocument): OperationTable {
  const entries: PathEntry[] = [];
  const operations: Operation[] = [];
  const globalSecurity = document.security ?? [];
  const schemes = document.components?.securitySchemes ?? {};

  for (const [template, pathItem] of Object.entries(document.paths)) {
    const pathPointer = `/paths/${escapeToken(template)}`;
    const entry: PathEntry = { template, segments: parseTemplate(template), literalCount: 0, operations: new Map() };
    entry.literalCount = entry.segments.filter((segment) => "literal" in segment).length;
    for (const method of HTTP_METHODS) {
      const operationObject: OperationObject | undefined = pathItem[method];
      if (!operationObject) continue;
      const operationPointer = `${pathPointer}/${method}`;
      const parameters = [
        ...indexed(pathItem.parameters, `${pathPointer}/parameters`),
        ...indexed(operationObject.parameters, `${operationPointer}/parameters`),
      ].map(({ value, pointer }) => resolve<ParameterObject>(document, value, pointer));
      const security = operationObject.security ?? globalSecurity;
      const credentialHeaders = [
        ...new Set(
          security.flatMap((requirement) =>
            Object.keys(requirement).flatMap((scheme) => {
              const definition = schemes[scheme];
              return definition?.type === "apiKey" && definition.in === "header" && definition.name
                ? [definition.name]
                : [];
            }),
          ),
        ),
      ];
      const operation: Operation = {
        id: operationObject.operationId as OperationId,
        method: method.toUpperCase(),
        pathTemplate: template,
        summary: operationObject.summary ?? "",
        tags: operationObject.tags ?? [],
        pathParameters: parameters
          .filter(({ value }) => value.in === "path")
          .map(({ value, pointer }) => ({
            name: value.name,
            schemaPointer: `${pointer}/schema`,
            type: typeof value.schema?.type === "string" ? value.schema.type : undefined,
            assumption: value["x-assumption"],
          })),
        requestBody: readRequestBody(document, operationObject.requestBody, `${operationPointer}/requestBody`),
        responses: readResponses(document, operationObject.responses, `${operationPointer}/responses`),
        credentialHeaders,
        securityAssumption: operationObject["x-security-assumption"],
        section: operationObject["x-section"],
        requiredContentType: operationObject["x-required-content-type"],
      };
      entry.operations.set(operation.method, operation);
      operations.push(operation);
    }
    entries.push(entry);
  }
  // Literal paths win over templated ones (OpenAPI 3.1 §4.8.8.2), then the more literal segments the better.
  entries.sort((a, b) => b.literalCount - a.literalCount);

  const match = (method: string, path: string): OperationMatch => {
    // The path before any query or fragment (no regular expression: this runs for every request the mock answers).
    const query = path.indexOf("?");
    const fragment = path.indexOf("#");
    const end = query === -1 ? fragment : fragment === -1 ? query : Math.min(query, fragment);
    const bare = end === -1 ? path : path.slice(0, end);
    const rawSegments = bare.split("/");
    let allowed: string[] | undefined;
    for (const entry of entries) {
      const params = matchSegments(entry, rawSegments);
      if (!params) continue;
      const operation = entry.operations.get(method.toUpperCase());
      if (operation) return { kind: "operation", operation, pathParams: params };
      allowed ??= [...entry.operations.keys()];
    }
    return allowed ? { kind: "method-not-allowed", allowed } : { kind: "no-route" };
  };

  return { operations, byId: new Map(operations.map((operation) => [operation.id, operation])), match };
}

function parseTemplate(template: string): PathEntry["segments"] {
  return template.split("/").map((segment) => {
    const param = /^\{([^}]+)\}$/.exec(segment);
    return param ? { param: param[1]! } : { literal: segment };
  });
}

function matchSegments(entry: PathEntry, rawSegments: string[]): Record<string, string> | undefined {
  if (entry.segments.length !== rawSegments.length) return undefined;
  // The literal segments first, so that the entries a path does not match cost no allocation.
  for (let index = 0; index < rawSegments.length; index += 1) {
    const segment = entry.segments[index]!;
    const raw = rawSegments[index]!;
    if ("literal" in segment ? segment.literal !== raw : raw === "") return undefined;
  }
  const params: Record<string, string> = {};
  for (let index = 0; index < rawSegments.length; index += 1) {
    const segment = entry.segments[index]!;
    if ("literal" in segment) continue;
    const raw = rawSegments[index]!;
    params[segment.param] = raw.includes("%") ? decodeSegment(raw) : raw; // nothing to decode without an escape
  }
  return params;
}

function decodeSegment(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw; // a malformed escape is kept as sent; the parameter's schema judges it
  }
}

function indexed<T>(values: T[] | undefined, pointer: string): Array<{ value: T; pointer: string }> {
  return (values ?? []).map((value, index) => ({ value, pointer: `${pointer}/${index}` }));
}

function resolve<T>(
  document: OpenApiDocument,
  value: T | ReferenceObject,
  pointer: string,
): { value: T; pointer: string } {
  if (value !== null && typeof value === "object" && "$ref" in value) {
    const target = resolvePointer(document, value.$ref);
    if (target === undefined) throw new Error(`Unresolvable $ref ${value.$ref} at ${pointer}`);
    return { value: target as T, pointer: value.$ref.replace(/^#/, "") };
  }
  return { value: value, pointer };
}

function readRequestBody(
  document: OpenApiDocument,
  body: RequestBodyObject | ReferenceObject | undefined,
  pointer: string,
): OperationRequestBody | undefined {
  if (!body) return undefined;
  const { value, pointer: at } = resolve<RequestBodyObject>(document, body, pointer);
  return {
    required: value.required === true,
    schemaPointers: mediaSchemas(value.content, at),
    assumption: value["x-assumption"],
  };
}

function readResponses(
  document: OpenApiDocument,
  responses: Record<string, ResponseObject | ReferenceObject>,
  pointer: string,
): Map<string, OperationResponse> {
  const result = new Map<string, OperationResponse>();
  for (const [status, response] of Object.entries(responses)) {
    const { value, pointer: at } = resolve<ResponseObject>(document, response, `${pointer}/${escapeToken(status)}`);
    result.set(status, { status, schemaPointers: mediaSchemas(value.content, at), assumption: value["x-assumption"] });
  }
  return result;
}

function mediaSchemas(content: Record<string, { schema?: unknown }> | undefined, pointer: string): Map<string, string> {
  const pointers = new Map<string, string>();
  for (const [mediaType, media] of Object.entries(content ?? {})) {
    if (media.schema !== undefined) pointers.set(mediaType, `${pointer}/content/${escapeToken(mediaType)}/schema`);
  }
  return pointers;
}
