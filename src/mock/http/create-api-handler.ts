import type { Contract } from "../../contract/build-contract.ts";
import type { OperationFound } from "../../contract/operation-table.ts";
import { mediaTypeOf } from "../../contract/build-contract.ts";
import type { ContractViolation } from "../../contract/contract-violation.ts";
import { formatViolation } from "../../contract/contract-violation.ts";
import type { AccountService } from "../services/account-service.ts";
import type { OperationHandler, OperationId } from "../operation-handlers.ts";
import type { FieldError } from "../problems.ts";
import type { AccountRecord } from "../store/records.ts";
import { boundForValidation } from "../validation/bound-for-validation.ts";
import { bodyLessContentType } from "../validation/body-less-content-type.ts";
import { capFieldErrors } from "../validation/cap-field-errors.ts";
import { CheckedAnswers } from "../validation/checked-answers.ts";
import type { Answered, ApiCall, ApiHandler } from "./api-interceptor.ts";
import type { MaybePromise } from "./maybe-async.ts";
import { firstHeader } from "./mock-request.ts";
import { noRouteHint } from "./no-route-hint.ts";
import { nonCanonicalId, nonCanonicalIdDetail } from "./non-canonical-id.ts";
import { JsonBytes } from "../json-bytes.ts";
import { discardBody, parseJson, readBody } from "./read-body.ts";
import { encodeReply, problemReply, type Reply } from "./reply.ts";
import { OWN_ANSWERS, type Playback } from "../profile-playback.ts";
import type { Failure } from "../problems.ts";

/** Collaborators and settings of the API handler. */
export interface ApiHandlerDeps {
  contract: Contract;
  accounts: AccountService;
  handlers: Record<OperationId, OperationHandler>;
  /** Largest request body accepted, in bytes. */
  bodyLimit: number;
  /** Check every answer against the contract before sending it; a mismatch answers 500 and is reported. */
  validateResponses: boolean;
  /** Told of every answer that broke the contract (only when `validateResponses` is on). */
  onViolation: (violations: ContractViolation[], request: string) => void;
  /** How failures and successes are answered: a service profile's way, or the mock's own (the default). */
  playback?: Playback;
}

/**
 * The one handler behind `/api`: it matches the request to an operation of the contract, authenticates it,
 * reads and validates the body, calls the operation, and gives back the reply to send (checked against the
 * contract first with `validateResponses`). The order of the checks is the order of the answers a client can
 * get: 404/405, then 401, then 413/415, then 400, then the operation's own. It writes nothing itself: the
 * listener sends the reply, after any interceptor (`api-interceptor.ts`) has seen it.
 */
export function createApiHandler(deps: ApiHandlerDeps): ApiHandler {
  const { contract } = deps;
  const playback = deps.playback ?? OWN_ANSWERS;
  const refuse = (
    failure: Failure,
    call: ApiCall,
    operationId: OperationId | undefined,
    headers?: Record<string, string>,
  ) => playback.refuse(failure, operationId, call.path, headers);

  /**
   * The answer to an API call. An operation without a body (every GET) is answered at once, without the promise
   * and the turn of an async function for each step: that is most requests, and their CPU is a goal of the bench
   * (docs/performance.md); an operation with one is answered once its body is read. Once the request reached an
   * operation, its answer, whatever it is, is held to the contract with `validateResponses` (`checked`).
   */
  const respond = (call: ApiCall): MaybePromise<Answered> => {
    const { request, path } = call;
    const found = contract.match(call.method, path);
    if (found.kind === "no-route") {
      discardBody(request);
      const failure: Failure = {
        problem: "notFound",
        detail: noRouteDetail(contract, call.method, path),
        situation: "no-route",
      };
      return { reply: refuse(failure, call, undefined) };
    }
    if (found.kind === "method-not-allowed") {
      discardBody(request);
      const detail =
        `${call.method} is not an operation of ${path}; it allows ${found.allowed.join(", ")}.` +
        noRouteHint(contract, call.method, path);
      return {
        reply: refuse({ problem: "methodNotAllowed", detail }, call, undefined, { Allow: found.allowed.join(", ") }),
      };
    }
    const operationId = found.operation.id;
    const auth = deps.accounts.authenticate(
      firstHeader(request.headers, "api-key"),
      firstHeader(request.headers, "token"),
    );
    if (!auth.ok) {
      discardBody(request);
      return checked(call, { reply: refuse(auth.failure, call, operationId), operationId });
    }
    const account = auth.value.id;
    if (found.operation.requestBody) return readAndAnswer(call, found, auth.value);
    discardBody(request);
    return checked(call, { reply: answerCall(call, found, auth.value, undefined), operationId, account });
  };

  /** An operation with a body: the body read, then answered (or the reading refused). */
  const readAndAnswer = async (call: ApiCall, route: OperationFound, account: AccountRecord): Promise<Answered> => {
    const { request } = call;
    const operationId = route.operation.id;
    const read = await readBody(request, deps.bodyLimit);
    if (read.kind === "aborted") return { reply: undefined, operationId, account: account.id };
    const answered = (reply: Reply, rawBody?: Uint8Array, body?: unknown): Answered =>
      checked(call, { reply, operationId, account: account.id, rawBody, body });
    if (read.kind === "too-large") {
      const failure: Failure = {
        problem: "payloadTooLarge",
        detail: `The request body exceeds ${deps.bodyLimit} bytes.`,
      };
      return answered(refuse(failure, call, operationId, { Connection: "close" }));
    }
    if (read.kind === "empty") return answered(answerCall(call, route, account, undefined));
    const media = mediaTypeOf(firstHeader(request.headers, "content-type"));
    if (media !== "application/json") {
      const detail = `The body must be sent as application/json, not ${media ?? "without a content-type"}.`;
      return answered(refuse({ problem: "unsupportedMediaType", detail }, call, operationId), read.bytes);
    }
    const parsed = parseJson(read.bytes);
    if (!parsed.ok) {
      const failure: Failure = {
        problem: parsed.tooDeep ? "invalidRequest" : "malformedJson",
        detail: parsed.reason,
        errors: [{ in: "body", pointer: "", detail: parsed.reason }],
      };
      return answered(refuse(failure, call, operationId), read.bytes);
    }
    return answered(answerCall(call, route, account, parsed.value), read.bytes, parsed.value);
  };

  /** A call whose body, if any, is read: checked against the contract, then handled. */
  const answerCall = (call: ApiCall, route: OperationFound, account: AccountRecord, body: unknown): Reply => {
    const { request, path } = call;
    const { operation, pathParams: rawParams } = route;
    // The body is checked in a bounded copy (equal to the body whenever the body can be valid), so that no
    // body under the size limit makes validation slow or its answer large.
    const bounded = boundForValidation(body);
    if (!bounded.ok) {
      const errors: FieldError[] = [{ in: "body", pointer: bounded.pointer, detail: bounded.detail }];
      const failure: Failure = {
        problem: "invalidRequest",
        ...capFieldErrors(errors, "The request breaks the contract"),
      };
      return refuse(failure, call, operation.id);
    }
    const assumedContentType = bodyLessContentType(operation, playback.refusesMissingContentType);
    const check = contract.validateRequest({
      method: call.method,
      path,
      headers: request.headers,
      body: bounded.value,
      route,
      assumedContentType,
    });
    if (!check.valid) {
      const errors: FieldError[] = check.errors.map((violation) => ({
        in: violation.part === "path" ? "path" : violation.part === "header" ? "header" : "body",
        pointer: violation.pointer,
        detail: violation.message,
      }));
      return refuse(
        { problem: "invalidRequest", ...capFieldErrors(errors, "The request breaks the contract", bounded.cut) },
        call,
        operation.id,
      );
    }
    const unknownId = nonCanonicalId(operation, rawParams);
    if (unknownId) return refuse({ problem: "notFound", detail: nonCanonicalIdDetail(unknownId) }, call, operation.id);

    const outcome = deps.handlers[operation.id]({
      account,
      params: check.pathParams ?? {},
      body,
      host: typeof request.headers.host === "string" ? request.headers.host : undefined,
    });
    return outcome.ok ? playback.succeed(operation.id, outcome.value) : refuse(outcome.failure, call, operation.id);
  };

  /** The answer of a call that reached an operation: as it is, or, with `validateResponses`, its reply checked. */
  const checked = (call: ApiCall, answered: Answered): Answered => {
    if (!deps.validateResponses || !answered.reply) return answered;
    const reply = checkedReply(call, answered.operationId, answered.reply);
    return reply === answered.reply ? answered : { ...answered, reply };
  };

  const checkedAnswers = new CheckedAnswers();
  /** A reply held to the contract (or to the profile that shaped it): as it is, encoded, or a 500 in its place. */
  const checkedReply = (call: ApiCall, operationId: OperationId | undefined, given: Reply): Reply => {
    let reply = given;
    // An error a service profile shaped is held to the profile: its status is a refusal (checked when the profile
    // was read) and its body has the profile's shape.
    const shaped = playback.check(reply);
    if (shaped.shaped) {
      if (shaped.problem === undefined) return reply;
      const violation: ContractViolation = {
        operation: operationId ?? `${call.method} ${call.path}`,
        side: "response",
        part: "body",
        pointer: "",
        location: "response.body",
        rule: "profile",
        message: shaped.problem,
        tier: "profile",
      };
      deps.onViolation([violation], `${call.method} ${call.url}`);
      return problemReply(
        {
          problem: "responseContractViolation",
          detail: `The mock's answer (${reply.status}) breaks the service profile: ${shaped.problem}`,
        },
        call.path,
      );
    }
    // The same bytes for the same operation, status and media type pass as they did before (checked-answers.ts).
    // A 200 answer is encoded here (reply.ts, `encodeReply`), and its text is what is checked and sent; a problem
    // is checked as the value it is.
    const check = `${operationId} ${reply.status} ${reply.contentType}`;
    if (reply.contentType === "application/json") reply = encodeReply(reply);
    let body: unknown = reply.body;
    let text: string | undefined;
    if (reply.body instanceof JsonBytes) {
      if (checkedAnswers.passedEncoded(reply.body, check)) return reply;
      // An answer encoded afresh for each request (a retrieved property) is remembered by its text, as a value is.
      if (typeof reply.body.encoded === "string") {
        text = reply.body.encoded;
        if (checkedAnswers.passedText(check, call.path, text)) return reply;
      }
      body = reply.body.value();
    }
    const result = contract.validateResponse({
      method: call.method,
      path: call.path,
      status: reply.status,
      headers: { "content-type": reply.contentType },
      body,
      operationId,
    });
    // A service profile's undocumented fields are the service's, not a mistake of the mock.
    const errors = playback.allowed(result.errors);
    if (errors.length === 0) {
      if (text !== undefined) checkedAnswers.addText(check, call.path, text);
      if (reply.body instanceof JsonBytes) checkedAnswers.addEncoded(reply.body, check);
      return reply;
    }
    deps.onViolation(errors, `${call.method} ${call.url}`);
    return problemReply(
      {
        problem: "responseContractViolation",
        detail: `The mock's answer (${reply.status}) breaks the contract: ${errors.map(formatViolation).join("; ")}`,
      },
      call.path,
    );
  };
  return respond;
}

/** Explains a path the contract does not have, pointing at the path most likely meant (no-route-hint.ts). */
function noRouteDetail(contract: Contract, method: string, path: string): string {
  return `No operation of the Property Listing Service at ${method} ${path}.${noRouteHint(contract, method, path)}`;
}
