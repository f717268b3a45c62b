/**
 * `import "property-listing-kit/vitest"` (or list it in vitest's `setupFiles`) adds the matchers
 * `toSatisfyContract` and `toHaveReceived` to `expect`.
 *
 * @example
 * const response = await request(app).get("/api/v1/object/property/42").set(headers);
 * expect(response).toSatisfyContract();
 * expect({ method: "POST", path: "/api/v1/object/property", headers, body }).toSatisfyContract();
 * expect(mock).toHaveReceived({ method: "POST", path: "/api/v1/object/property", body: expect.objectContaining({ street: "1 Main St" }) });
 */
import { expect } from "vitest";
import { toSatisfyContract, type ContractMatcherOptions } from "./contract/to-satisfy-contract.ts";
import { toHaveReceived, type ReceivedOptions, type ReceivedPattern } from "./mock/to-have-received.ts";

expect.extend({ toSatisfyContract, toHaveReceived });

declare module "vitest" {
  interface Matchers<T = any> {
    /** Passes when the request or response is legal under the Property Listing Service contract. */
    toSatisfyContract(options?: ContractMatcherOptions): T;
    /**
     * Passes when the mock (or its `requests()`, or the body of `GET /__admin/requests`) holds a request matching
     * the pattern (exactly `times` of them when given); when it fails, it lists what was received.
     */
    toHaveReceived(pattern: ReceivedPattern, options?: ReceivedOptions): T;
  }
}

export { useContract, checkAgainstContract, type ContractMatcherOptions } from "./contract/to-satisfy-contract.ts";
export type { ReceivedPattern, ReceivedOptions, ReceivedSource } from "./mock/to-have-received.ts";
