import { escapeToken, parsePointer } from "./json-pointer.ts";
import type { OpenApiDocument } from "./openapi-document.ts";

/** One decision of ours that the spec marks with `x-assumption` or `x-security-assumption`. */
export interface Assumption {
  /** JSON pointer to the marked object in the spec. */
  pointer: string;
  /** Why we decided what the interface document leaves open. */
  text: string;
}

const MARKERS = ["x-assumption", "x-security-assumption"] as const;

/** Every marked place in the document, in document order. */
export function listAssumptions(document: OpenApiDocument): Assumption[] {
  const found: Assumption[] = [];
  const visit = (node: unknown, pointer: string): void => {
    if (node === null || typeof node !== "object") return;
    for (const marker of MARKERS) {
      const text = (node as Record<string, unknown>)[marker];
      if (typeof text === "string") found.push({ pointer, text });
    }
    for (const [key, child] of Object.entries(node)) visit(child, `${pointer}/${escapeToken(key)}`);
  };
  visit(document, "");
  return found;
}

/** A readable form of a spec pointer: `POST /api/v1/object/agent_card/ › requestBody`. */
export function describePlace(pointer: string): string {
  const tokens = parsePointer(pointer);
  if (tokens[0] === "paths" && tokens.length >= 3) {
    const [, path, method, ...rest] = tokens;
    return [`${method!.toUpperCase()} ${path}`, ...rest].join(" › ");
  }
  return tokens.join(" › ");
}

/** What the contract runner checks at the assumption tier on its own, and the rules it moved out of the fact tier. */
export interface RunnerAssumptions {
  rules: ReadonlyArray<{ check: string; rule: string; why: string }>;
  moved: readonly string[];
  /** Rules that were assumptions, or not checked, and are facts now. */
  movedToFacts?: readonly string[];
}

/** Renders the list as the Markdown page `docs/assumptions.md`. */
export function renderAssumptions(document: OpenApiDocument, runner?: RunnerAssumptions): string {
  const lines = [
    "# Assumptions in the contract",
    "",
    "<!-- Generated from spec/openapi.yaml by `npm run generate`; do not edit by hand. -->",
    "",
    "The interface document of the Property Listing Service says plainly where it is silent (\"not shown\").",
    "Where the contract had to decide, `spec/openapi.yaml` marks the decision with `x-assumption` (or",
    "`x-security-assumption` on an operation). Contract checks report a violation of a marked part as a warning,",
    "not a failure, unless they run with `--strict`. This page lists every marker, in the order of the spec.",
    "",
    "| # | Where in the spec | Decision and reason |",
    "|---|---|---|",
  ];
  listAssumptions(document).forEach(({ pointer, text }, index) => {
    const cell = (value: string) => value.replace(/\|/g, "\\|").replace(/\n/g, " ");
    lines.push(`| ${index + 1} | ${cell(describePlace(pointer))} | ${cell(text)} |`);
  });
  if (runner) {
    const cell = (value: string) => value.replace(/\|/g, "\\|").replace(/\n/g, " ");
    lines.push(
      "",
      "## Checked by the contract runner as assumptions",
      "",
      "Beside the spec's markers, these rules of the contract runner (`src/contract/runner/runner-assumptions.ts`)",
      "are our reading where the interface document is silent, so they warn rather than fail:",
      "",
      "| # | Check | Rule | Why it is ours |",
      "|---|---|---|---|",
      ...runner.rules.map(({ check, rule, why }, index) => `| ${index + 1} | ${cell(check)} | ${cell(rule)} | ${cell(why)} |`),
      "",
      "## Moved out of the fact tier",
      "",
      "A fact is a rule the interface document states, with its section cited. These were checked as facts before",
      "and are assumptions now, since the document does not state them:",
      "",
      ...runner.moved.map((entry) => `- ${entry}`),
    );
    if (runner.movedToFacts?.length) {
      lines.push(
        "",
        "## Moved into the fact tier",
        "",
        "These were assumptions, or went unchecked, and are facts now, each with the section that states it:",
        "",
        ...runner.movedToFacts.map((entry) => `- ${entry}`),
      );
    }
  }
  lines.push("");
  return lines.join("\n");
}
