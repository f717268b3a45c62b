/**
 * Which error point of a service profile an answer is, from its situation told in the same words by all who ask:
 * the mock playing a profile back (a `Failure` of its own), the observer recording one (how the request was made
 * and what it meant to break), a consumer's usage judged against one (its answer's basis). Each caller reads its
 * own input into an {@link ErrorSituation}; the points are chosen here, once.
 */
import type { ErrorPoint } from "./service-profile.ts";

/** A kind of refusal, as the caller could tell it, before the operation decides between the points it may be. */
export type ErrorKind =
  | "validation"
  | "content-type-missing"
  | "content-type-wrong"
  | "not-found"
  | "foreign-record"
  | "no-route"
  | "method-not-allowed"
  | "agent-exists"
  | "seats"
  | "unknown-property-reference"
  | "external-id-in-use";

/** What is known of an error answer, each part optional, the first one known deciding (in this order). */
export interface ErrorSituation {
  /** The operation of the contract, or undefined for a request outside it (an unknown route, a wrong method). */
  operationId?: string | undefined;
  /**
   * A named error value of section 7 the answer carries: the situation it names whatever the request meant to
   * provoke (a full account may refuse a duplicate email with Not Enough Agent Seats; section 7 gives no precedence).
   */
  named?: "agent-exists" | "seats" | undefined;
  /** Credentials left out or not the account's. */
  credentials?: "missing" | "wrong" | undefined;
  /** The kind of refusal. */
  kind?: ErrorKind | undefined;
  /** The answer's status, the last resort when nothing else tells the situation. */
  status?: number | undefined;
}

/** The point of each kind, but for the one the operation chooses (`agent-exists`: the create's or the update's). */
const POINT_OF_KIND: Record<Exclude<ErrorKind, "agent-exists">, ErrorPoint> = {
  validation: "error.validation",
  "content-type-missing": "error.content_type.missing",
  "content-type-wrong": "error.content_type.wrong",
  "not-found": "error.not_found",
  "foreign-record": "error.foreign_record",
  "no-route": "error.no_route",
  "method-not-allowed": "error.method_not_allowed",
  seats: "error.seats",
  "unknown-property-reference": "error.unknown_property_reference",
  "external-id-in-use": "error.external_id_in_use",
};

/** The point a status alone most likely is: the first situation of section 7 or of the assumptions to answer it. */
const POINT_OF_STATUS: Record<number, ErrorPoint> = {
  400: "error.validation",
  401: "error.unauthorized.missing",
  402: "error.seats",
  404: "error.not_found",
  409: "error.agent_exists.create",
  415: "error.content_type.wrong",
  422: "error.unknown_property_reference",
};

/** The error point of a situation, or undefined when it is none a profile records. */
export function errorPointOf(situation: ErrorSituation): ErrorPoint | undefined {
  const { operationId, named, credentials, kind, status } = situation;
  // Seats are a point of the create alone: an update refused for them is no situation a profile records.
  if (named === "seats") return operationId === "createAgentCard" ? "error.seats" : undefined;
  if (named === "agent-exists") return agentExistsPoint(operationId);
  if (credentials !== undefined)
    return credentials === "wrong" ? "error.unauthorized.wrong" : "error.unauthorized.missing";
  if (kind !== undefined) return kind === "agent-exists" ? agentExistsPoint(operationId) : POINT_OF_KIND[kind];
  return status === undefined ? undefined : POINT_OF_STATUS[status];
}

function agentExistsPoint(operationId: string | undefined): ErrorPoint {
  return operationId === "updateAgentCard" ? "error.agent_exists.update" : "error.agent_exists.create";
}
