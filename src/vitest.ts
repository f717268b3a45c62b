/**
 * `import "property-listing-kit/vitest"` (or list it in vitest's `setupFiles`) adds the matcher
 * `toSatisfyContract` to `expect`.
 *
 * @example
 * const response = await request(app).get("/api/v1/object/property/42").set(headers);
 * expect(response).toSatisfyContract();
 * expect({ method: "POST", path: "/api/v1/object/property", headers, body }).toSatisfyContract();
 */
import { expect } from "vitest";
import { toSatisfyContract, type ContractMatcherOptions } from "./contract/to-satisfy-contract.ts";

expect.extend({ toSatisfyContract });

declare module "vitest" {
  interface Matchers<T = any> {
    /** Passes when the request or response is legal under the Property Listing Service contract. */
    toSatisfyContract(options?: ContractMatcherOptions): T;
  }
}

export { useContract, checkAgainstContract, type ContractMatcherOptions } from "./contract/to-satisfy-contract.ts";
