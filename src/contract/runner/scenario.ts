import type { RunContext } from "./run-context.ts";
import { agentSteps } from "./steps/agent-steps.ts";
import { authSteps } from "./steps/auth-steps.ts";
import { catalogueSteps } from "./steps/catalogue-steps.ts";
import { documentSteps } from "./steps/document-steps.ts";
import { nearMissSteps } from "./steps/near-miss-steps.ts";
import { propertySteps } from "./steps/property-steps.ts";
import { seatSteps, type SeatOptions } from "./steps/seat-steps.ts";
import type { RunNames } from "./steps/step-support.ts";

/** What shapes a scenario beyond the service: the names of its records and the seat checks. */
export interface ScenarioOptions extends RunNames {
  seats: SeatOptions;
}

/**
 * The stateful scenario: every operation, in the order a client would use them, each answer held against the
 * contract, then the facts a schema cannot state; near misses; every operation with broken credentials; the seat
 * limit on an account without agents. Records it creates are deleted by the run (see RunContext.cleanUp).
 */
export async function runScenario(ctx: RunContext, options: ScenarioOptions): Promise<{ clash?: string }> {
  await catalogueSteps(ctx);
  const properties = await propertySteps(ctx, options);
  if (properties) await documentSteps(ctx, options, properties);
  else ctx.skip("floorplan_on_property", "floorplan steps", "the property could not be created");
  await agentSteps(ctx, options);
  await nearMissSteps(ctx, properties);
  await authSteps(ctx, options, properties);
  return seatSteps(ctx, options, options.seats);
}
