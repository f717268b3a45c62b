/**
 * Writes docs/assumptions.md from the markers in spec/openapi.yaml (part of `npm run generate`), or with `--check`
 * exits 1 when the committed page differs from what the spec says.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { MOVED_FROM_FACTS, MOVED_TO_FACTS, RUNNER_ASSUMPTIONS } from "../src/contract/runner/runner-assumptions.ts";
import { renderAssumptions } from "../src/spec/list-assumptions.ts";
import { loadSpec } from "../src/spec/load-spec.ts";

const target = fileURLToPath(new URL("../docs/assumptions.md", import.meta.url));
const rendered = renderAssumptions(loadSpec(), {
  rules: RUNNER_ASSUMPTIONS,
  moved: MOVED_FROM_FACTS,
  movedToFacts: MOVED_TO_FACTS,
});
if (process.argv.includes("--check")) {
  let current = "";
  try {
    current = readFileSync(target, "utf8");
  } catch {
    // a missing page is out of date
  }
  if (current !== rendered) {
    console.error("docs/assumptions.md is not up to date with spec/openapi.yaml: run `npm run generate`.");
    process.exitCode = 1;
  } else {
    console.log("docs/assumptions.md is up to date.");
  }
} else {
  writeFileSync(target, rendered);
  console.log(`wrote ${target}`);
}
