/** One HTTP figure: a scenario's throughput and latency over one or more runs. */
export interface HttpFigure {
  scenario: string;
  /** Properties in the store when the scenario started (the create scenario adds some). */
  storeProperties: number;
  /** What one job is: one request, or a create+delete pair. */
  unit: "request" | "pair";
  jobs: number;
  requests: number;
  concurrency: number;
  validateResponses: boolean;
  wallMs: number;
  jobsPerSecond: number;
  requestsPerSecond: number;
  p50Ms: number;
  p95Ms: number;
  p99Ms: number;
  meanResponseBytes: number;
  failures: number;
  note?: string;
}
