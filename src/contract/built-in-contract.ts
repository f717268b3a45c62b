import { buildContract, type Contract } from "./build-contract.ts";
import { builtInSpec } from "./built-in-spec.ts";

/**
 * The contract of this package's spec from its generated form alone (no file read, nothing compiled): what the
 * browser module validates with. `createContract` gives the same contract where it can read the spec's file.
 */
export function builtInContract(options: { closed?: boolean } = {}): Contract {
  const spec = builtInSpec();
  return buildContract(spec.document, {
    closed: options.closed ?? false,
    validators: (validated, closed) => spec.validators(validated, closed),
  });
}
