import { builtInSpec } from "../../contract/built-in-spec.ts";
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
  const [ajvModule, formatsModule, core] = await Promise.all([import("ajv/dist/2020.js"), import("ajv-formats"), import("ajv")]);
  const parts = {
    Ajv2020: defaultOf(ajvModule, "Ajv2020") as typeof import("ajv/dist/2020.js").Ajv2020,
    addFormats: defaultOf(formatsModule) as typeof import("ajv-formats").default,
    _: ((core as { _?: unknown })._ ?? (core as { default: { _: unknown } }).default._) as typeof import("ajv")._,
  };
  const check = buildRawRecordValidator(() => builtInSpec().document, () => parts);
  check.warm();
  return check;
}

/** A CommonJS module's export as ESM sees it: Node gives `module.exports` as the default, bundlers may nest it once more. */
function defaultOf(module: Record<string, unknown>, name?: string): unknown {
  if (name && typeof module[name] === "function") return module[name];
  const first = (module.default ?? module) as Record<string, unknown>;
  if (typeof first === "function") return first;
  if (name && typeof first[name] === "function") return first[name];
  return first.default;
}
