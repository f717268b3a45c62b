import type { operations } from "../generated/openapi.ts";

/**
 * An operation of the contract, by the spec's `operationId` (`listUserProperties`): the keys of the generated
 * `operations`, so that code naming an operation the spec does not have does not compile.
 */
export type OperationId = keyof operations & string;
