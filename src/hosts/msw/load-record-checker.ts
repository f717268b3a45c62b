import { builtInSpec } from "../../contract/built-in-spec.ts";
import { importAjvParts } from "./import-ajv.ts";
import { buildRawRecordValidator, type RawRecordValidator } from "../../mock/store/raw-record-validator.ts";

/**
 * The check of a state's records for `createMockHandlers`'s `checkRecords` option, so that `useState(records)` and
 * `POST /__admin/state` with records work in the MSW host as on the Node server: every record is held to its
 * collection's stored shape, and a state that breaks one is refused, changing nothing. It takes a schema compiler
 * (AJV), imported here when first asked for, so that the module stays small without one.
 *
 * @example
 * const mock = createMockHandlers({ checkRecords: await loadRecordChecker() });
 * mock.useState({ accounts: [...], properties: [...], agents: [], documents: [] });
 */
export async function loadRecordChecker(): Promise<RawRecordValidator> {
  const parts = await importAjvParts();
  const check = buildRawRecordValidator(
    () => builtInSpec().document,
    () => parts,
  );
  check.warm();
  return check;
}
