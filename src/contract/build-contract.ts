import type { ValidateFunction } from "ajv";
import { closeSchemas } from "./close-schemas.ts";
import {
  UNCITED_RULE,
  type ContractResult,
  type ContractViolation,
  type ExchangePart,
  type Tier,
} from "./contract-violation.ts";
import { createOperationTable, type Operation, type OperationFound, type OperationMatch } from "./operation-table.ts";
import { createSchemaExplainer, type SchemaExplainer } from "./schema-explainer.ts";
import { validatorPointers, type ValidatorLookup } from "./validator-pointers.ts";
import type { OpenApiDocument } from "../spec/openapi-document.ts";

/** Headers as a plain record (Node's `IncomingHttpHeaders`, a recording) or a fetch `Headers` object. */
export type HeaderBag = Record<string, string | string[] | number | undefined> | Headers;

/** A request to check against the contract. `body` is the parsed JSON body, or undefined when none was sent. */
export interface RequestExchange {
  method: string;
  /** The request path, optionally with a query string: `/api/v1/object/property/42`. */
  path: string;
  headers?: HeaderBag;
  body?: unknown;
  /**
   * The operation the request line was matched to, when the caller matched it already with this contract's
   * `match` (the mock, which matched it to route the request): the path is not matched a second time.
   */
  route?: OperationFound;
  /**
   * The content-type to read the request as when its headers carry none: the mock's reading of a body-less
   * request (mock/validation/body-less-content-type.ts). Given apart rather than added to a copy of the headers,
   * which cost each such request a copy of its header object (and V8 a new hidden class for it).
   */
  assumedContentType?: string | undefined;
}

/** A response to check against the contract, with the request line it answered. */
export interface ResponseExchange {
  method: string;
  path: string;
  status: number;
  headers?: HeaderBag;
  body?: unknown;
  /**
   * The operation the request line was matched to, when the caller matched it already (the mock checking its
   * own answers): the path is not matched again. Unknown ids are matched from the path as without it.
   */
  operationId?: string;
  /**
   * The one rule whose violations the caller wants (the runner's closed reading: `unevaluatedProperties`): the
   * body's other failures may then be left unexplained, and the caller picks that rule's out of the result.
   */
  rule?: string;
}

/** The result of `validateRequest`, with what the matched operation needs to run. */
export interface RequestResult extends ContractResult {
  /** Path parameters, converted to the type their schema gives (`nid` becomes a number). */
  pathParams?: Record<string, unknown>;
}

/** Options of {@link createContract}. */
export interface ContractOptions {
  /** The OpenAPI document; by default `spec/openapi.yaml` of this package. */
  document?: OpenApiDocument;
  /**
   * Refuse response fields the contract does not list. The spec leaves response objects open; the mock checks
   * its own answers closed, and the contract runner uses a closed reading to warn about undocumented fields.
   */
  closed?: boolean;
}

/** The contract of the Property Listing Service, compiled: every validator is built once, here. */
export interface Contract {
  /** The document as written (a closed contract validates with a closed copy, which it keeps to itself). */
  document: OpenApiDocument;
  operations: readonly Operation[];
  /** The operation with this operationId. */
  operation(operationId: string): Operation | undefined;
  /** Finds the operation a concrete request line addresses. */
  match(method: string, path: string): OperationMatch;
  validateRequest(request: RequestExchange): RequestResult;
  validateResponse(response: ResponseExchange): ContractResult;
}

interface CompiledOperation {
  operation: Operation;
  pathParams: Map<string, ValidateFunction>;
  requestBodies: Map<string, ValidateFunction>;
  responses: Map<string, Map<string, ValidateFunction>>;
}

/** Where a contract's validators come from: generated at build time, or compiled when it is built. */
export type ValidatorSource = (
  validated: OpenApiDocument,
  closed: boolean,
  pointers: () => readonly string[],
) => ValidatorLookup;

/**
 * Builds a contract from a document and the validators of its reading (open, or closed with `closed`). It reads
 * no file and compiles nothing itself, so it runs in any host: `createContract` (Node) gives it the spec of this
 * package, checked to be the one the validators were generated from, and the browser module gives it the
 * generated document and validators as they were bundled (`builtInContract`).
 */
export function buildContract(
  source: OpenApiDocument,
  options: { closed?: boolean; validators: ValidatorSource },
): Contract {
  const closed = options.closed ?? false;
  const validated = closed ? closeSchemas(source) : source;
  const table = createOperationTable(validated);
  const validatorAt = options.validators(validated, closed, () => validatorPointers(validated, table.operations));
  // Only a refused request or answer is explained: the explainer's reading of every schema waits for the first.
  let explainer: SchemaExplainer | undefined;
  const explaining = (): SchemaExplainer => (explainer ??= createSchemaExplainer(validated, validatorAt));

  const compile = (pointer: string): ValidateFunction => {
    const validate = validatorAt(pointer);
    if (!validate) throw new Error(`No schema at ${pointer}`);
    return validate;
  };
  const compiled = new Map<string, CompiledOperation>();
  for (const operation of table.operations) {
    compiled.set(operation.id, {
      operation,
      pathParams: new Map(
        operation.pathParameters.map((parameter) => [parameter.name, compile(parameter.schemaPointer)]),
      ),
      requestBodies: new Map(
        [...(operation.requestBody?.schemaPointers ?? [])].map(([media, pointer]) => [media, compile(pointer)]),
      ),
      responses: new Map(
        [...operation.responses].map(([status, response]) => [
          status,
          new Map([...response.schemaPointers].map(([media, pointer]) => [media, compile(pointer)])),
        ]),
      ),
    });
  }

  const validateRequest = (request: RequestExchange): RequestResult => {
    const found = request.route ?? table.match(request.method, request.path);
    if (found.kind !== "operation")
      return routeFailure(found, `${request.method.toUpperCase()} ${request.path.split("?")[0]}`, "request");
    const { operation, pathParams: rawParams } = found;
    const entry = compiled.get(operation.id)!;
    const errors: ContractViolation[] = [];
    const add = (
      part: ExchangePart,
      pointer: string,
      rule: string,
      message: string,
      tier: Tier,
      assumption?: string,
      section?: string,
    ) => errors.push(violation(operation.id, "request", part, pointer, rule, message, tier, assumption, section));
    const headers = request.headers;

    for (const name of operation.credentialHeaders) {
      if (!headerValue(headers, name.toLowerCase())) {
        add(
          "header",
          `/${name}`,
          "security",
          `is required by the ${operation.id} operation`,
          tierOf(operation.securityAssumption),
          operation.securityAssumption,
          "5",
        );
      }
    }
    const contentType = mediaTypeOf(headerValue(headers, "content-type") ?? request.assumedContentType);
    if (operation.requiredContentType && contentType !== operation.requiredContentType) {
      add(
        "header",
        "/content-type",
        "content-type",
        contentType
          ? `must be ${operation.requiredContentType}, got ${contentType}`
          : `is required: the service expects content-type: ${operation.requiredContentType} on this operation`,
        "fact",
        undefined,
        "5",
      );
    }

    const pathParams: Record<string, unknown> = {};
    for (const parameter of operation.pathParameters) {
      const raw = rawParams[parameter.name] ?? "";
      const value = convertPathValue(raw, parameter.type);
      pathParams[parameter.name] = value;
      const validate = entry.pathParams.get(parameter.name)!;
      if (!validate(value)) {
        for (const found of explaining().explain(validate)) {
          const assumption = parameter.assumption ?? found.assumption;
          add(
            "path",
            `/${parameter.name}${found.pointer}`,
            found.keyword,
            found.message,
            tierOf(assumption),
            assumption,
            found.section ?? explaining().sectionAt(parameter.schemaPointer),
          );
        }
      }
    }

    const body = operation.requestBody;
    if (body) {
      if (request.body === undefined) {
        if (body.required)
          add(
            "body",
            "",
            "required",
            "a JSON body is required",
            tierOf(body.assumption),
            body.assumption,
            operation.section,
          );
      } else {
        const validate = contentType ? entry.requestBodies.get(contentType) : undefined;
        if (!validate) {
          const accepted = [...entry.requestBodies.keys()].join(", ");
          add(
            "header",
            "/content-type",
            "content-type",
            `must be ${accepted} for a body, got ${contentType ?? "none"}`,
            "fact",
            undefined,
            "introduction",
          );
        } else if (!validate(request.body)) {
          for (const found of explaining().explain(validate)) {
            const assumption = body.assumption ?? found.assumption;
            add("body", found.pointer, found.keyword, found.message, tierOf(assumption), assumption, found.section);
          }
        }
      }
    }
    return { valid: errors.length === 0, errors, operationId: operation.id, pathParams };
  };

  const validateResponse = (response: ResponseExchange): ContractResult => {
    const known = response.operationId === undefined ? undefined : table.byId.get(response.operationId);
    const found: OperationMatch = known
      ? { kind: "operation", operation: known, pathParams: {} }
      : table.match(response.method, response.path);
    if (found.kind !== "operation")
      return routeFailure(found, `${response.method.toUpperCase()} ${response.path.split("?")[0]}`, "response");
    const { operation } = found;
    const entry = compiled.get(operation.id)!;
    const errors: ContractViolation[] = [];
    const status = String(response.status);
    const documented = operation.responses.get(status);
    if (!documented) {
      const listed = [...operation.responses.keys()].join(", ");
      // Success is documented as 200 for every operation and no operation may fail with a server error
      // (section 4); which client errors an operation answers is our assumption (section 7).
      const isClientError = response.status >= 400 && response.status < 500;
      errors.push(
        violation(
          operation.id,
          "response",
          "status",
          "",
          "status",
          `${status} is not a documented status of ${operation.id} (documented: ${listed})`,
          isClientError ? "assumption" : "fact",
          isClientError ? "Error status codes are not shown (section 7)." : undefined,
          "4",
        ),
      );
      return { valid: false, errors, operationId: operation.id };
    }
    const validators = entry.responses.get(status)!;
    if (validators.size > 0) {
      const contentType = mediaTypeOf(headerValue(response.headers, "content-type"));
      const validate = contentType ? validators.get(contentType) : undefined;
      if (!validate) {
        const expected = [...validators.keys()].join(" or ");
        // The document says only that bodies are JSON (its introduction): another JSON media type breaks our
        // reading, not a fact.
        const assumption =
          documented.assumption ??
          (isJsonMediaType(contentType) ? "The document says bodies are JSON, not which JSON media type." : undefined);
        errors.push(
          violation(
            operation.id,
            "response",
            "header",
            "/content-type",
            "content-type",
            `must be ${expected}, got ${contentType ?? "none"}`,
            tierOf(assumption),
            assumption,
            "introduction",
          ),
        );
      }
      const bodyValidator = validate ?? validators.values().next().value!;
      if (response.body === undefined) {
        errors.push(
          violation(
            operation.id,
            "response",
            "body",
            "",
            "required",
            "a JSON body is required",
            tierOf(documented.assumption),
            documented.assumption,
            operation.section,
          ),
        );
      } else if (!bodyValidator(response.body)) {
        for (const finding of explaining().explain(bodyValidator, response.rule)) {
          const assumption = documented.assumption ?? finding.assumption;
          errors.push(
            violation(
              operation.id,
              "response",
              "body",
              finding.pointer,
              finding.keyword,
              finding.message,
              tierOf(assumption),
              assumption,
              finding.section,
            ),
          );
        }
      }
    }
    return { valid: errors.length === 0, errors, operationId: operation.id };
  };

  return {
    document: source,
    operations: table.operations,
    operation: (operationId) => table.byId.get(operationId),
    match: table.match,
    validateRequest,
    validateResponse,
  };
}

/** A violation's tier: an assumption when an `x-assumption` covers the rule it breaks. */
function tierOf(assumption: string | undefined): Tier {
  return assumption ? "assumption" : "fact";
}

function routeFailure(
  found: Exclude<OperationMatch, { kind: "operation" }>,
  label: string,
  side: "request" | "response",
): ContractResult {
  const error =
    found.kind === "method-not-allowed"
      ? violation(
          label,
          side,
          "method",
          "",
          "method",
          `is not an operation of this path (allowed: ${found.allowed.join(", ")})`,
          "fact",
          undefined,
          "4",
        )
      : violation(
          label,
          side,
          "route",
          "",
          "operation",
          "no operation of the contract has this path",
          "fact",
          undefined,
          "4",
        );
  return { valid: false, errors: [error] };
}

function violation(
  operation: string,
  side: "request" | "response",
  part: ExchangePart,
  pointer: string,
  rule: string,
  message: string,
  tier: Tier,
  assumption?: string,
  section?: string,
): ContractViolation {
  // A fact is a rule the interface document states: without a section to cite, it is only an assumption.
  const cited: Tier = tier === "fact" && !section ? "assumption" : tier;
  const result: ContractViolation = {
    operation,
    side,
    part,
    pointer,
    location: `${side}.${part}${pointer}`,
    rule,
    message,
    tier: cited,
  };
  if (cited === "assumption") result.assumption = assumption ?? UNCITED_RULE;
  if (section) result.section = section;
  return result;
}

/** Lower-cased header names mapped to their first value. */
export function normalizeHeaders(headers: HeaderBag | undefined): Map<string, string> {
  const result = new Map<string, string>();
  if (!headers) return result;
  if (typeof Headers !== "undefined" && headers instanceof Headers) {
    for (const [name, value] of headers.entries()) result.set(name.toLowerCase(), value);
    return result;
  }
  // A plain record (Node's headers of every request the mock checks): its own keys, without an array of entries.
  const record = headers as Exclude<HeaderBag, Headers>;
  for (const name in record) {
    if (!Object.hasOwn(record, name)) continue;
    const value = record[name];
    const first = Array.isArray(value) ? value[0] : value;
    if (first !== undefined && first !== null) result.set(name.toLowerCase(), String(first));
  }
  return result;
}

/**
 * One header's first value, as {@link normalizeHeaders} would give it under its lower-cased `name` (a record's
 * own keys, compared without case, the last one matching winning), without building the map: every request the
 * mock answers is checked, and only three of its headers are read.
 */
export function headerValue(headers: HeaderBag | undefined, name: string): string | undefined {
  if (!headers) return undefined;
  if (typeof Headers !== "undefined" && headers instanceof Headers) return headers.get(name) ?? undefined;
  const record = headers as Exclude<HeaderBag, Headers>;
  let found: string | number | undefined;
  for (const key in record) {
    if (key.length !== name.length || !Object.hasOwn(record, key) || (key !== name && key.toLowerCase() !== name))
      continue;
    const value = record[key];
    const first = Array.isArray(value) ? value[0] : value;
    if (first !== undefined && first !== null) found = first;
  }
  return found === undefined ? undefined : String(found);
}

/** The media type of a content-type header, lower-cased and without parameters: `application/json`. */
export function mediaTypeOf(contentType: string | undefined): string | undefined {
  if (!contentType) return undefined;
  const media = contentType.split(";", 1)[0]!.trim().toLowerCase();
  return media === "" ? undefined : media;
}

/**
 * Whether a content-type announces JSON: `application/json`, `application/problem+json`, with or without parameters.
 */
export function isJsonMediaType(contentType: string | undefined): boolean {
  return /[/+]json$/.test(mediaTypeOf(contentType) ?? "");
}

/**
 * Converts a path segment to the type its schema names. Conversion is explicit rather than AJV's coercion, so
 * `12abc` stays a string and is reported as "must be integer".
 */
function convertPathValue(raw: string, type: string | undefined): unknown {
  if ((type === "integer" || type === "number") && /^-?[0-9]+$/.test(raw)) return Number(raw);
  if (type === "number" && /^-?[0-9]*\.[0-9]+$/.test(raw)) return Number(raw);
  return raw;
}
