import type { components } from "../../generated/openapi.ts";
import { failure, foreign, success, type Outcome } from "../problems.ts";
import type { MockStore } from "../store/mock-store.ts";
import { projectDocument } from "../store/project-records.ts";
import type { AccountRecord, DocumentRecord } from "../store/records.ts";
import { ownedBy } from "./owned-by.ts";

type Schemas = components["schemas"];

/** Collaborators of {@link DocumentService}. */
export interface DocumentServiceDeps {
  store: MockStore;
  /** The current time in milliseconds, for `created` and `changed`. */
  now: () => number;
}

/**
 * Documents and floorplans (section 4.3, endpoints 11 to 14). A document belongs to a property of the same
 * account; one with `is_floorplan` set appears in its property's `floorplans` (derived when the property is
 * retrieved, so it leaves them as soon as it is deleted or no longer a floorplan).
 */
export class DocumentService {
  readonly #deps: DocumentServiceDeps;

  constructor(deps: DocumentServiceDeps) {
    this.#deps = deps;
  }

  /** Endpoint 13. */
  retrieve(account: AccountRecord, nid: number): Outcome<Schemas["Document"]> {
    const document = this.#own(account, nid);
    return document
      ? success(projectDocument(document))
      : foreign(notFound(nid), this.#deps.store.record("documents", nid) !== undefined);
  }

  /** Endpoint 11: answers the nid as an integer. */
  create(account: AccountRecord, body: Schemas["DocumentCreate"]): Outcome<Schemas["IntegerNidResult"]> {
    const { store } = this.#deps;
    if (!this.#ownsProperty(account, body.property_reference)) return unknownProperty(body.property_reference);
    const now = this.#seconds();
    const isFloorplan = body.is_floorplan ?? false;
    const document: DocumentRecord = {
      id: store.nextId(),
      uid: account.id,
      created: now,
      changed: now,
      title: body.title,
      property_reference: body.property_reference,
      file_url: body.file_url,
      visible: body.visible ?? true,
      category: body.category ?? (isFloorplan ? "floorplan" : "document"),
      is_floorplan: isFloorplan,
      Show_on_unbranded: body.Show_on_unbranded ?? false,
    };
    store.add("documents", document);
    return success({ nid: document.id });
  }

  /** Endpoint 12: answers the nid as a string. */
  update(account: AccountRecord, nid: number, body: Schemas["DocumentUpdate"]): Outcome<Schemas["StringNidResult"]> {
    const document = this.#own(account, nid);
    if (!document) return foreign(notFound(nid), this.#deps.store.record("documents", nid) !== undefined);
    if (body.property_reference !== undefined && !this.#ownsProperty(account, body.property_reference)) {
      return unknownProperty(body.property_reference);
    }
    this.#deps.store.update("documents", document, { ...body, changed: Math.max(document.created, this.#seconds()) });
    return success({ nid: String(document.id) });
  }

  /** Endpoint 14. */
  remove(account: AccountRecord, nid: number): Outcome<Schemas["DeleteResult"]> {
    const document = this.#own(account, nid);
    if (!document) return foreign(notFound(nid), this.#deps.store.record("documents", nid) !== undefined);
    this.#deps.store.remove("documents", document);
    return success([true]);
  }

  #own(account: AccountRecord, nid: number): DocumentRecord | undefined {
    return ownedBy(this.#deps.store.record("documents", nid), account);
  }

  #ownsProperty(account: AccountRecord, propertyId: number): boolean {
    return this.#deps.store.propertyOwner(propertyId) === account.id;
  }

  #seconds(): number {
    return Math.floor(this.#deps.now() / 1000);
  }
}

function notFound(nid: number): Outcome<never> {
  return failure("notFound", `No document with nid ${nid} for this account.`);
}

function unknownProperty(propertyId: number): Outcome<never> {
  return failure("unknownPropertyReference", `No property with nid ${propertyId} for this account.`, [
    { in: "body", pointer: "/property_reference", detail: "refers to no property of this account" },
  ]);
}
