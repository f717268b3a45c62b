/**
 * What a report says of the generated phase (`--fuzz`), in a module of its own: the report's types
 * (`run-report.ts`) hold it, and the phase (`run-fuzz-phase.ts`) fills it, so neither imports the other for it.
 */

/** What the generated phase did, per operation. */
export interface FuzzOperationSummary {
  /** Cases sent (valid and invalid), shrinking included. */
  cases: number;
  valid: number;
  invalid: number;
  /** Requests sent to shrink failures (part of `cases`). */
  shrinks: number;
  /** Retrieves and lists that checked what a case did. */
  reads: number;
  /** Valid creates sent as edits of the phase's own property, since the phase had made the properties it may. */
  asEdits?: number;
  /** Creates not sent, since the phase had made the properties it may and the service takes creates it rules out. */
  notSent?: number;
  /** Why no case was sent, when none was. */
  skipped?: string;
  /** Cases dropped since a request of theirs got no answer (each such request fails not_a_server_error once). */
  unanswered?: number;
}

/** What a report says of the generated phase. */
export interface FuzzSummary {
  casesPerOperation: number;
  /** The properties the phase may create (one per 20 cases asked for), and those it did. */
  properties: { limit: number; created: number };
  operations: Record<string, FuzzOperationSummary>;
}
