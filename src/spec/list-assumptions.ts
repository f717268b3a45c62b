import { escapeToken, parsePointer } from "./json-pointer.ts";
import type { OpenApiDocument } from "./openapi-document.ts";

/** One decision of ours that the spec marks with `x-assumption` or `x-security-assumption`. */
export interface Assumption {
  /**
   * The decision's stable name (`seat-limit-status`), from the marker's sibling `x-assumption-id` (or
   * `x-security-assumption-id`): what reports, usage and Pact files call it. Empty when the spec gives none,
   * which `checkAssumptionNames` refuses.
   */
  id: string;
  /** Which marker: a decision on the data (`x-assumption`) or on an operation's credentials. */
  marker: "x-assumption" | "x-security-assumption";
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
      const id = (node as Record<string, unknown>)[`${marker}-id`];
      if (typeof text === "string") found.push({ id: typeof id === "string" ? id : "", marker, pointer, text });
    }
    for (const [key, child] of Object.entries(node)) visit(child, `${pointer}/${escapeToken(key)}`);
  };
  visit(document, "");
  return found;
}

/** A stable name: lower-case words joined by hyphens. */
const NAME = /^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$/;

/**
 * Why the spec's assumption names cannot be used, one line each: a marker without a name, a name not in
 * kebab-case, one name for two decisions (two texts), or two names for one decision. The same decision written
 * in several places (the credentials of endpoints 6 to 14) shares its name.
 */
export function checkAssumptionNames(assumptions: readonly Assumption[]): string[] {
  const problems: string[] = [];
  const textOf = new Map<string, string>();
  const nameOf = new Map<string, string>();
  for (const { id, marker, pointer, text } of assumptions) {
    const place = describePlace(pointer);
    if (id === "") {
      problems.push(`${place}: ${marker} has no ${marker}-id`);
      continue;
    }
    if (!NAME.test(id)) problems.push(`${place}: ${marker}-id ${JSON.stringify(id)} is not a kebab-case name`);
    const named = textOf.get(id);
    if (named !== undefined && named !== text) problems.push(`${place}: ${id} already names another decision`);
    textOf.set(id, text);
    const other = nameOf.get(text);
    if (other !== undefined && other !== id)
      problems.push(`${place}: this decision is already named ${other}, not ${id}`);
    nameOf.set(text, id);
  }
  return problems;
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
    'The interface document of the Property Listing Service says plainly where it is silent ("not shown").',
    "Where the contract had to decide, `spec/openapi.yaml` marks the decision with `x-assumption` (or",
    "`x-security-assumption` on an operation). Contract checks report a violation of a marked part as a warning,",
    "not a failure, unless they run with `--strict`. This page lists every marker, in the order of the spec.",
    "Each decision has a stable name (`x-assumption-id`): reports, usage files and Pact files name it so.",
    "",
    "| # | Name | Where in the spec | Decision and reason |",
    "|---|---|---|---|",
  ];
  listAssumptions(document).forEach(({ id, pointer, text }, index) => {
    const cell = (value: string) => value.replace(/\|/g, "\\|").replace(/\n/g, " ");
    lines.push(`| ${index + 1} | \`${id}\` | ${cell(describePlace(pointer))} | ${cell(text)} |`);
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
      ...runner.rules.map(
        ({ check, rule, why }, index) => `| ${index + 1} | ${cell(check)} | ${cell(rule)} | ${cell(why)} |`,
      ),
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
