import type { AjvParts } from "../../contract/ajv-with.ts";

let importing: Promise<AjvParts> | undefined;

/**
 * AJV's parts, imported once on first use: the browser module leaves the schema compiler out until a service
 * profile is read (load-profile-playback.ts) or records are to be checked (load-record-checker.ts).
 */
export function importAjvParts(): Promise<AjvParts> {
  // ajv/dist/2020.js exports its code template tag `_` too: no third module to import.
  importing ??= Promise.all([import("ajv/dist/2020.js"), import("ajv-formats")]).then(([ajvModule, formatsModule]) => ({
    Ajv2020: exported(ajvModule, "Ajv2020") as AjvParts["Ajv2020"],
    addFormats: exported(formatsModule) as AjvParts["addFormats"],
    _: exported(ajvModule, "_") as AjvParts["_"],
  }));
  return importing;
}

/**
 * A CommonJS module's export as ESM sees it. By name: the named export, else the name on the default (Node gives
 * `module.exports` as the default, and a bundler may nest it once more). Without a name: the default itself.
 */
function exported(module: object, name?: string): unknown {
  const layers: Array<Record<string, unknown> | undefined> = [module as Record<string, unknown>];
  layers.push(layers[0]!.default as Record<string, unknown> | undefined);
  layers.push(layers[1]?.default as Record<string, unknown> | undefined);
  if (name) return layers.map((layer) => layer?.[name]).find((value) => value !== undefined);
  return layers.slice(1).find((layer) => typeof layer === "function");
}
