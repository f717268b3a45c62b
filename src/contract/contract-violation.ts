import type { OperationId } from "./operation-id.ts";

/**
 * Whether a rule is stated by the interface document, or is a decision the spec marks with `x-assumption`; or
 * (`profile`) what a service profile recorded (`--profile`), which fails like a fact.
 */
export type Tier = "fact" | "assumption" | "profile";

/** The part of an exchange a violation is found in. */
export type ExchangePart = "route" | "method" | "path" | "header" | "body" | "status";

/** One way a request or a response breaks the contract. */
export interface ContractViolation {
  /** The operationId, or `METHOD path` when no operation matched. */
  operation: string;
  side: "request" | "response";
  part: ExchangePart;
  /** JSON pointer within the part (`/floorplans/12/nid`), or "" for the part itself. */
  pointer: string;
  /** Side, part and pointer in one string, for example `response.body/floorplans/12/nid`. */
  location: string;
  /**
   * The JSON Schema keyword broken (`type`, `required`, …) or a contract rule (`status`, `content-type`, `security`,
   * `operation`, `method`).
   */
  rule: string;
  /** What was expected and what was found. */
  message: string;
  tier: Tier;
  /** Why the rule is ours, when `tier` is `assumption`. */
  assumption?: string;
  /**
   * The section of the interface document that states the rule (`2.1`, `4`), always given for a fact: a rule
   * the spec cites no section for is an assumption.
   */
  section?: string;
}

/** The answer of `validateRequest` and `validateResponse`. */
export interface ContractResult {
  valid: boolean;
  errors: ContractViolation[];
  /** The operationId the exchange was matched to, when one was. */
  operationId?: OperationId;
}

/** Renders a violation on one line: `createProperty response.body/nid: must be string, got integer 3 [rule type]`. */
export function formatViolation(violation: ContractViolation): string {
  const tier = violation.tier === "assumption" ? " (assumption)" : "";
  return `${violation.operation} ${violation.location}: ${violation.message} [${violation.rule}]${tier}`;
}

/** Why a rule with no section of the interface document behind it is only an assumption. */
export const UNCITED_RULE = "No section of the interface document states this rule, so it is checked as an assumption.";

/** How a section is cited in reports: `section 2.1`, or `introduction` for the document's opening paragraph. */
export function citeSection(section: string): string {
  return /^[0-9]/.test(section) ? `section ${section}` : section;
}
