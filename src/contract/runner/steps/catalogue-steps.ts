import type { RunContext } from "../run-context.ts";
import { API, record, type Json } from "./step-support.ts";

/** Section 2.4: the access level of each template, by machine name. */
const PRO = ["icon", "eko", "lux", "north", "stak"];
const EXCLUSIVE = ["intra"];
/** Section 2.4: the twenty-three machine names of the catalogue. */
export const CATALOGUE_NAMES = [
  "rubik_v2",
  "icon",
  "air",
  "lnd",
  "focal",
  "mot",
  "rubik",
  "kit",
  "pipeline",
  "mak",
  "saren",
  "syd",
  "arlo",
  "bren",
  "dax",
  "cobi",
  "eko",
  "lux",
  "ryne",
  "north",
  "stak",
  "karr",
  "intra",
];

/** Endpoint 15: every template of section 2.4, once, with its access level. */
export async function catalogueSteps(ctx: RunContext): Promise<void> {
  const step = "fetch the template catalogue";
  const exchange = await ctx.call(step, "retrieveTemplateCatalogue", `${API}/template_base`, { expect: "success" });
  const body = record(exchange);
  if (!body) return;
  const entries = Array.isArray(body.templates) ? (body.templates as Json[]) : [];
  const names = entries.map((entry) => entry?.machine_name);
  const problems: string[] = [];
  const missing = CATALOGUE_NAMES.filter((name) => !names.includes(name));
  if (missing.length > 0) problems.push(`missing: ${missing.join(", ")}`);
  const repeated = names.filter((name, index) => names.indexOf(name) !== index);
  if (repeated.length > 0) problems.push(`listed more than once: ${repeated.join(", ")}`);
  for (const entry of entries) {
    const name = String(entry?.machine_name);
    const expected = PRO.includes(name) ? "pro" : EXCLUSIVE.includes(name) ? "exclusive" : "standard";
    if (CATALOGUE_NAMES.includes(name) && entry.access_level !== expected)
      problems.push(`${name} has access level ${JSON.stringify(entry.access_level)}, not ${expected}`);
  }
  ctx.check("template_catalogue", {
    step,
    passed: problems.length === 0,
    exchange,
    operation: "retrieveTemplateCatalogue",
    section: "2.4",
    message: problems.join("; "),
  });
}
