/**
 * `property-listing-kit/matchers`: the matchers `toSatisfyContract` and `toHaveReceived` for any `expect` that takes
 * jest-style matchers (`expect.extend(matchers)`), with no test runner imported: Storybook's `storybook/test` in a
 * story's `play`, in the Storybook UI as under its Vitest addon. Under vitest itself, `property-listing-kit/vitest`
 * adds them to vitest's `expect`.
 *
 * @example
 * import { expect } from "storybook/test";
 * import { matchers } from "property-listing-kit/matchers";
 * expect.extend(matchers);
 */
import { toSatisfyContract } from "./contract/to-satisfy-contract.ts";
import { toHaveReceived } from "./mock/to-have-received.ts";

export const matchers = { toSatisfyContract, toHaveReceived };
export type { ContractMatcherOptions } from "./contract/to-satisfy-contract.ts";
export type { ReceivedPattern, ReceivedOptions } from "./mock/to-have-received.ts";
