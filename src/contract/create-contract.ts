import { buildContract, type Contract, type ContractOptions } from "./build-contract.ts";
import { compileValidators } from "./compile-validators.ts";
import { loadPrebuiltSpec } from "./prebuilt-contract.ts";
import { loadSpec } from "../spec/load-spec.ts";

export * from "./build-contract.ts";

/**
 * Compiles the contract. Every operation's parameter, body and response validators are ready when it returns;
 * validating an exchange afterwards never compiles a schema. For this package's own spec they were generated at
 * build time (`npm run generate`), and the document is read from JSON; a document given in `options`, or a spec
 * edited since the last generation, is parsed and compiled with AJV here.
 *
 * @example
 * const contract = createContract();
 * const result = contract.validateResponse({ method: "GET", path: "/api/v1/object/property/42", status: 200,
 *   headers: { "content-type": "application/json" }, body });
 * if (!result.valid) console.log(result.errors.map(formatViolation).join("\n"));
 */
export function createContract(options: ContractOptions = {}): Contract {
  const prebuilt = options.document ? undefined : loadPrebuiltSpec();
  const source = options.document ?? prebuilt?.document ?? loadSpec();
  return buildContract(source, {
    closed: options.closed ?? false,
    validators: (validated, closed, pointers) =>
      prebuilt?.validators(validated, closed) ?? compileValidators(validated, pointers()),
  });
}
