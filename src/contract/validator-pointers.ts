import { escapeToken } from "../spec/json-pointer.ts";
import type { OpenApiDocument, SchemaObject } from "../spec/openapi-document.ts";
import type { Operation } from "./operation-table.ts";

/** Finds the validator of the schema at a JSON pointer into the (possibly closed) document. */
export type ValidatorLookup = (pointer: string) => import("ajv").ValidateFunction | undefined;

/**
 * Every schema the contract validates with, as JSON pointers into the document: each operation's path
 * parameters, request bodies and responses, and each branch of every `anyOf`/`oneOf` (the explainer validates a
 * value against the one branch that fits its type). Both the AJV compilation at start-up and the validators
 * generated at build time (`scripts/generate-validators.ts`) take their list from here.
 */
export function validatorPointers(document: OpenApiDocument, operations: readonly Operation[]): string[] {
  const pointers = new Set<string>();
  for (const operation of operations) {
    for (const parameter of operation.pathParameters) pointers.add(parameter.schemaPointer);
    for (const pointer of operation.requestBody?.schemaPointers.values() ?? []) pointers.add(pointer);
    for (const response of operation.responses.values())
      for (const pointer of response.schemaPointers.values()) pointers.add(pointer);
  }
  for (const [node, pointer] of schemaNodes(document)) {
    for (const combinator of ["anyOf", "oneOf"] as const) {
      const branches = (node as SchemaObject)[combinator];
      if (Array.isArray(branches))
        branches.forEach((_branch, index) => pointers.add(`${pointer}/${combinator}/${index}`));
    }
  }
  return [...pointers];
}

/**
 * Every object of the document with the pointer where it is first met, walking keys in order. AJV's errors
 * point at schema objects (`parentSchema`), never at places, so this map is how a place is found again.
 */
export function schemaNodes(document: OpenApiDocument): Map<object, string> {
  const pointers = new Map<object, string>();
  const walk = (node: unknown, pointer: string): void => {
    if (node === null || typeof node !== "object" || pointers.has(node)) return;
    pointers.set(node, pointer);
    for (const [key, child] of Object.entries(node)) walk(child, `${pointer}/${escapeToken(key)}`);
  };
  walk(document, "");
  return pointers;
}
