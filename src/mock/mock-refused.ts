import { refusalLines, toProblemBody, type Failure, type ProblemBody } from "./problems.ts";

/**
 * A call that configures the mock in-process (`mock.faults.add(rule)`) was refused, and nothing changed. It says
 * what the admin route says of the same input (`POST /__admin/faults` answers it as problem+json): the detail, then
 * each offending place. `problem` is that very body, for a test that reads its fields.
 */
export class MockRefused extends Error {
  readonly problem: ProblemBody;

  constructor(call: string, failure: Failure, instance?: string) {
    super(`${call} refused, nothing was changed: ${refusalLines(failure).join("\n  ")}`);
    this.name = "MockRefused";
    this.problem = toProblemBody(failure, instance);
  }
}
