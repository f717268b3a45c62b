import type { ContractResult } from "../contract-violation.ts";
import type { Contract } from "../create-contract.ts";
import type { ObservedAnswer } from "../profile/profile-observer.ts";
import type { Exchange } from "../runner/http-exchange.ts";
import type { RecordedExchange } from "./recorded-exchange.ts";

/**
 * A recorded exchange as the profile observer takes it (`--recording … --write-profile`): a recording does not
 * say what a request meant to provoke, so the situation of a refusal is read from the request itself, held
 * against the contract. No route, or a method the path does not take; credentials missing, or present and
 * refused (401/403); no content-type, or a body in another media type; a body that breaks the contract; a 404
 * to a valid request; a document refused for its property reference. The named errors of section 7 are read
 * from the body by the observer.
 */
export function recordedAnswer(
  contract: Contract,
  recorded: RecordedExchange,
  path: string,
  checked: ContractResult,
  exchange: Exchange,
): ObservedAnswer {
  const headers = recorded.requestHeaders;
  const credentials =
    !headers["api-key"] && !headers.token
      ? "none"
      : !headers["api-key"]
        ? "no-key"
        : !headers.token
          ? "no-token"
          : "valid";
  const answer: ObservedAnswer = { step: recorded.label, account: "primary", credentials, exchange };
  if (checked.operationId) answer.operationId = checked.operationId;
  const status = exchange.status;
  if (status >= 200 && status < 300) return answer;
  const found = contract.match(recorded.method, path.split("?")[0]!);
  if (found.kind === "no-route") answer.point = "error.no_route";
  else if (found.kind === "method-not-allowed") answer.point = "error.method_not_allowed";
  else if (credentials === "valid" && (status === 401 || status === 403)) answer.credentials = "wrong-token";
  else if (credentials === "valid") {
    const contentType = checked.errors.find(
      (error) => error.part === "header" && error.pointer.toLowerCase().includes("content-type"),
    );
    const media = headers["content-type"];
    if (recorded.requestBody !== undefined && media !== undefined && !/^application\/json\s*(;|$)/i.test(media))
      answer.point = "error.content_type.wrong";
    else if (contentType && media === undefined) answer.point = "error.content_type.missing";
    else if (checked.errors.some((error) => error.part === "body" || error.part === "path"))
      answer.refusal = "negative_data_rejection";
    else if (status === 404) answer.point = "error.not_found";
    else if (checked.operationId === "createDocument" || checked.operationId === "updateDocument")
      answer.point = "error.unknown_property_reference";
  }
  return answer;
}
