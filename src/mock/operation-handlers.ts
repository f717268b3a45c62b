import type { OperationId } from "../contract/operation-id.ts";
import type { components } from "../generated/openapi.ts";
import type { Outcome } from "./problems.ts";
import type { AccountRecord } from "./store/records.ts";
import type { AccountService } from "./services/account-service.ts";
import type { AgentService } from "./services/agent-service.ts";
import type { DocumentService } from "./services/document-service.ts";
import type { PropertyService } from "./services/property-service.ts";
import { TEMPLATE_CATALOGUE } from "./services/template-catalogue.ts";
import { success } from "./problems.ts";

type Schemas = components["schemas"];

/** The services behind the fifteen operations. */
export interface Services {
  accounts: AccountService;
  properties: PropertyService;
  agents: AgentService;
  documents: DocumentService;
}

/** What an operation gets once the request is authenticated and valid against the contract. */
export interface OperationInput {
  account: AccountRecord;
  /** Path parameters, converted to their schema's type. */
  params: Record<string, unknown>;
  /** The JSON body, valid against the operation's request schema. */
  body: unknown;
  /** The `Host` header as the client sent it: the address an auto-login `uri` is built on when no base URL is set. */
  host?: string | undefined;
}

export type OperationHandler = (input: OperationInput) => Outcome<unknown>;

/** The operationIds of the spec; the record below must name every one (the generated types enforce it). */
export type { OperationId };

/**
 * One line per operation: from a validated request to a service call. The contract has already checked the
 * body and the path, so the casts below only name what the contract guarantees.
 */
export function createOperationHandlers({
  properties,
  agents,
  documents,
}: Services): Record<OperationId, OperationHandler> {
  const nid = (params: Record<string, unknown>) => params.nid as number;
  return {
    retrieveProperty: ({ account, params }) => properties.retrieveJson(account, nid(params)),
    retrievePropertyByExternalId: ({ account, params }) =>
      properties.retrieveByExternalIdJson(account, params["external-id"] as string),
    createProperty: ({ account, body, host }) => properties.create(account, body as Schemas["PropertyCreate"], host),
    editProperty: ({ account, params, body, host }) =>
      properties.edit(account, nid(params), body as Schemas["PropertyEdit"], host),
    listUserProperties: ({ account, params }) => properties.listByUserJson(account, params.uid as number),
    retrieveAgentCard: ({ account, params }) => agents.retrieve(account, nid(params)),
    createAgentCard: ({ account, body }) => agents.create(account, body as Schemas["AgentCardCreate"]),
    updateAgentCard: ({ account, params, body }) =>
      agents.update(account, nid(params), body as Schemas["AgentCardUpdate"]),
    deleteAgentCard: ({ account, params }) => agents.remove(account, nid(params)),
    listAgentCards: ({ account }) => agents.list(account),
    createDocument: ({ account, body }) => documents.create(account, body as Schemas["DocumentCreate"]),
    updateDocument: ({ account, params, body }) =>
      documents.update(account, nid(params), body as Schemas["DocumentUpdate"]),
    retrieveDocument: ({ account, params }) => documents.retrieve(account, nid(params)),
    deleteDocument: ({ account, params }) => documents.remove(account, nid(params)),
    retrieveTemplateCatalogue: () => success({ templates: [...TEMPLATE_CATALOGUE] }),
  };
}
