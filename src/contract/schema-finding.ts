/** One way a value breaks a schema, located inside the value. */
export interface SchemaFinding {
  /** JSON pointer into the validated value, for example `/floorplans/12/nid`. */
  pointer: string;
  /** The JSON Schema keyword that failed (`type`, `required`, `enum`, …). */
  keyword: string;
  /** What the value should have been, and what it was. */
  message: string;
  /** The `x-assumption` text covering the failed keyword, when the rule is our decision and not documented. */
  assumption?: string;
  /** The section of the interface document that states the rule (`x-section`), when the spec cites one. */
  section?: string;
}
