/**
 * Projections from stored records to the answers of the API (sections 2.1 to 2.3): the internal `id` becomes
 * the documented `nid`/`id` field, the owner's `uid` becomes a numeric string, and a property's `floorplans`
 * are derived from its floorplan documents.
 */
import type { components } from "../../generated/openapi.ts";
import type { AgentRecord, DocumentRecord, PropertyRecord } from "./records.ts";

type Schemas = components["schemas"];

/** A retrieved property (endpoints 1 and 2), with the floorplans among the given documents of the property. */
export function projectProperty(record: PropertyRecord, documents: Iterable<DocumentRecord>): Schemas["Property"] {
  const { id, uid, published: _published, ...fields } = record;
  return { nid: String(id), uid: String(uid), ...fields, floorplans: projectFloorplans(documents) };
}

/** A property's `floorplans` (section 2.1): its floorplan documents, keyed by nid. */
export function projectFloorplans(documents: Iterable<DocumentRecord>): Schemas["Property"]["floorplans"] {
  const floorplans: Schemas["Property"]["floorplans"] = {};
  for (const document of documents) {
    if (!document.is_floorplan) continue;
    floorplans[String(document.id)] = {
      nid: String(document.id),
      title: document.title,
      floorplan_url: document.file_url,
    };
  }
  return floorplans;
}

/** An entry of the list-by-user answer (endpoint 5). */
export function projectListItem(record: PropertyRecord): Schemas["PropertyListItem"] {
  return { nid: String(record.id), published: record.published, title: record.title, external_id: record.external_id };
}

/** A retrieved agent card (endpoint 6); social links come ordered by their weight (section 2.2). */
export function projectAgent(record: AgentRecord): Schemas["AgentCard"] {
  const { id, uid: _uid, social_media_links, ...fields } = record;
  // null only where a service profile says a never-set field comes back null (agent-service.ts); anything but an
  // array (a state file's card may hold anything there) is answered as it is.
  return {
    id: String(id),
    ...fields,
    social_media_links: Array.isArray(social_media_links) ? orderByWeight(social_media_links) : social_media_links,
  };
}

/** A retrieved document (endpoint 13). */
export function projectDocument(record: DocumentRecord): Schemas["Document"] {
  const { id, uid: _uid, ...fields } = record;
  return { nid: String(id), ...fields };
}

/** Social links in ascending order of their integer-like weight; equal weights keep their order. */
export function orderByWeight<T extends { weight: string }>(links: readonly T[]): T[] {
  return [...links].sort((a, b) => Number((a as Partial<T> | null)?.weight) - Number((b as Partial<T> | null)?.weight));
}
