import type { Contract } from "../../create-contract.ts";
import { resolvePointer } from "../../../spec/json-pointer.ts";
import type { SchemaObject } from "../../../spec/openapi-document.ts";

/** What the contract says a field of a request body holds, as far as the generated phase uses it. */
export type FieldKind =
  | { type: "integer" }
  | { type: "string"; minLength?: number; maxLength?: number; pattern?: string }
  | { type: "enum"; values: string[] }
  /** A number written as a string (`NumericString`, section 2.1). */
  | { type: "numeric" }
  /** A numeric identifier written as a string (`IdString`, section 2.1). */
  | { type: "id" }
  | { type: "url" };

/** One field of a request body, read from the contract. */
export interface InputField {
  name: string;
  required: boolean;
  kind: FieldKind;
  /**
   * Values a retrieve can show for this field when 2.1 pins them (the template machine names of 2.4, or
   * numeric strings): an edit to anything else cannot come back as documented, so it must be refused.
   */
  shownAs?: { type: "enum"; values: string[] } | { type: "numeric" };
  /**
   * The kinds the document gives the same field in another operation's body (the create table's integer for the
   * edit's `square_feet`, the edit's numeric string for the create's `square feet`). A value of one of them is no
   * "other type": the generated phase sends it neither as a valid case nor as an invalid one, since the document
   * gives both and says which one each operation takes only in its own table.
   */
  also?: FieldKind[];
}

/** A path parameter the document types. */
export interface InputParameter {
  name: string;
  type: "integer" | "string";
}

/** An operation whose input the document describes: its path parameters and body fields, facts only. */
export interface InputOperation {
  id: string;
  method: string;
  pathTemplate: string;
  section: string;
  parameters: InputParameter[];
  /** The body's fields, when the operation takes a documented body. */
  body?: InputField[];
}

/**
 * Reads from the contract the operations whose input the interface document describes, with the constraints
 * the generated phase may rely on. A parameter or body marked `x-assumption` is our reading, not the document's
 * (section 4.5: the path parameter types and body fields of endpoints 6 to 14 are not shown), so such an
 * operation is left out; so is a body field marked `x-assumption` (external_id on create).
 */
export function readInputModel(contract: Contract): InputOperation[] {
  const document = contract.document;
  const property = resolveSchema(document, resolvePointer(document, "/components/schemas/Property") as SchemaObject);
  const shown = properties(property);
  const operations: InputOperation[] = [];
  for (const operation of contract.operations) {
    const parameters = operation.pathParameters;
    if (parameters.some((parameter) => parameter.assumption !== undefined)) continue;
    const body = operation.requestBody;
    if (body?.assumption !== undefined) continue;
    const pointer = body?.schemaPointers.get("application/json");
    if (parameters.length === 0 && !pointer) continue;
    const entry: InputOperation = {
      id: operation.id,
      method: operation.method,
      pathTemplate: operation.pathTemplate,
      section: operation.section ?? "4",
      parameters: parameters.map((parameter) => ({
        name: parameter.name,
        type: parameter.type === "integer" ? "integer" : "string",
      })),
    };
    if (pointer) {
      const schema = resolveSchema(document, resolvePointer(document, pointer) as SchemaObject);
      const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
      entry.body = Object.entries(properties(schema)).flatMap(([name, fieldSchema]) => {
        if (fieldSchema["x-assumption"] !== undefined) return [];
        const kind = kindOf(document, fieldSchema);
        if (!kind) return [];
        const field: InputField = { name, required: required.has(name), kind };
        const shownAs = shownKind(document, shown[propertyFieldName(name)]);
        if (shownAs) field.shownAs = shownAs;
        return [field];
      });
    }
    operations.push(entry);
  }
  return withTypesGivenElsewhere(operations);
}

/** Section 4.1 spells one create field with a space ("square feet"); 2.1 and the edit name it `square_feet`. */
const SAME_FIELD: Readonly<Record<string, string>> = { "square feet": "square_feet" };

/** A field's name as 2.1 spells it, so that a create field and an edit field of the same property field meet. */
export function propertyFieldName(name: string): string {
  return SAME_FIELD[name] ?? name;
}

/** Each body field with the kinds the same field has in the other operations' bodies, where they differ. */
function withTypesGivenElsewhere(operations: InputOperation[]): InputOperation[] {
  const fields = operations.flatMap((operation) => (operation.body ?? []).map((field) => ({ operation, field })));
  for (const { operation, field } of fields) {
    const others = fields
      .filter(
        (other) =>
          other.operation !== operation && propertyFieldName(other.field.name) === propertyFieldName(field.name),
      )
      .map((other) => other.field.kind)
      .filter((kind) => kind.type !== field.kind.type);
    if (others.length > 0) field.also = others;
  }
  return operations;
}

function properties(schema: SchemaObject): Record<string, SchemaObject> {
  return (schema.properties ?? {}) as Record<string, SchemaObject>;
}

function resolveSchema(document: unknown, schema: SchemaObject): SchemaObject {
  let node = schema;
  for (let depth = 0; typeof node?.$ref === "string" && depth < 10; depth += 1)
    node = resolvePointer(document, node.$ref.replace(/^#/, "")) as SchemaObject;
  return node;
}

function refName(schema: SchemaObject | undefined): string | undefined {
  return typeof schema?.$ref === "string" ? schema.$ref.split("/").pop() : undefined;
}

/** The kind of a body field: a named scalar schema, an enum, or the first branch of an `anyOf` (the create form). */
function kindOf(document: unknown, schema: SchemaObject): FieldKind | undefined {
  const name = refName(schema);
  if (name === "NumericString") return { type: "numeric" };
  if (name === "IdString") return { type: "id" };
  if (name === "HttpUrl") return { type: "url" };
  const resolved = resolveSchema(document, schema);
  if (Array.isArray(resolved.enum))
    return { type: "enum", values: resolved.enum.filter((value): value is string => typeof value === "string") };
  if (Array.isArray(resolved.anyOf) && resolved.anyOf.length > 0)
    return kindOf(document, resolved.anyOf[0] as SchemaObject);
  if (resolved.type === "integer") return { type: "integer" };
  if (resolved.type === "string") {
    const kind: FieldKind = { type: "string" };
    if (typeof resolved.minLength === "number") kind.minLength = resolved.minLength;
    if (typeof resolved.maxLength === "number") kind.maxLength = resolved.maxLength;
    if (typeof resolved.pattern === "string") kind.pattern = resolved.pattern;
    return kind;
  }
  return undefined;
}

/** How 2.1 shows a field on retrieve, when that pins the values an edit can set: an enum, or numeric strings. */
function shownKind(document: unknown, schema: SchemaObject | undefined): InputField["shownAs"] {
  if (!schema || schema["x-assumption"] !== undefined) return undefined;
  const branches = Array.isArray(schema.anyOf) ? (schema.anyOf as SchemaObject[]) : [schema];
  const documented = branches.filter((branch) => refName(branch) !== "NullWhenAbsent");
  if (documented.length !== 1) return undefined;
  const only = documented[0]!;
  if (refName(only) === "NumericString" || refName(only) === "IdString") return { type: "numeric" };
  const resolved = resolveSchema(document, only);
  if (resolved["x-assumption"] === undefined && Array.isArray(resolved.enum))
    return { type: "enum", values: resolved.enum.filter((value): value is string => typeof value === "string") };
  return undefined;
}
