import type { Operation } from "../../contract/operation-table.ts";

/**
 * The content-type the mock reads a request as when it sends none (`RequestExchange.assumedContentType`): for a
 * request to an operation without a body, the one the operation requires (`x-required-content-type`); else none.
 *
 * Section 5 requires `content-type: application/json` on endpoints 1 to 5 and 15, so also on the four GETs,
 * which carry no body. That stays a documented fact of the contract: `toSatisfyContract`, a recording's check
 * and the contract runner report a request without it as breaking section 5. What the service answers such a
 * request is not shown (section 7). Most clients send no content-type without a body (fetch, axios; hey-api's
 * client removes it even when given), and no form of the spec makes client generators send one
 * (docs/generated-clients.md), so the mock answers the request rather than refuse it, unless a service profile
 * saw the service refuse it (`refuse` true: `error.content_type.missing`). A content-type that names another
 * media type is sent, and still refused.
 */
export function bodyLessContentType(operation: Operation, refuse: boolean): string | undefined {
  return refuse || operation.requestBody ? undefined : operation.requiredContentType;
}
