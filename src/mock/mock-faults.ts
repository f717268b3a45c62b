import { MockRefused } from "./mock-refused.ts";
import type { FaultRule, FaultRules } from "./services/fault-rules.ts";

/** The fault rules of a mock as a test adds them in-process (`POST /__admin/faults` is the same over HTTP). */
export interface MockFaults {
  /**
   * Adds a rule and gives it back with its id. Throws a {@link MockRefused}, adding nothing, for a rule the admin
   * route refuses (an unknown field, a path no operation has, the most rules reached), with the route's message:
   * a test that forgot to look at a returned failure would run with no fault at all.
   */
  add(rule: Omit<FaultRule, "id">): FaultRule;
  /** The active rules, with how many times each is left. */
  list(): FaultRule[];
  /** Removes the rule with this id; the rule removed, or undefined when there is none (used up, or never added). */
  remove(id: number): FaultRule | undefined;
  /** Removes every rule; ids start again at 1. */
  clear(): void;
}

/** The in-process face of a mock's fault rules: the rules the admin routes use, with a refusal thrown. */
export function mockFaults(rules: FaultRules): MockFaults {
  return {
    add(rule) {
      const added = rules.add(rule);
      if (!added.ok) throw new MockRefused("faults.add", added.failure, "/__admin/faults");
      return added.value;
    },
    list: () => rules.list(),
    remove: (id) => rules.remove(id),
    clear: () => rules.clear(),
  };
}
