/**
 * The JSON Schemas of the records the store keeps (records.ts), built from the spec's answer schemas so the two
 * cannot drift: a stored record is the answer of its kind without the fields the projection derives, plus the
 * internal `id` and the owner's `uid`. A raw write through `/__db` is checked against these, so that whatever a
 * test prepares, the store, its indexes, the nid sequence and every answer built from it stay sound.
 */
import { SPEC_ID } from "../../contract/ajv-with.ts";
import type { OpenApiDocument, SchemaObject } from "../../spec/openapi-document.ts";
import type { CollectionName } from "./records.ts";

/** Where the stored-record schemas are registered with AJV: `${STORED_RECORD_ID}/properties`. */
export const STORED_RECORD_ID = "https://property-listing.example/stored-records";

/** An id of the store (a nid, a uid): a positive integer that JSON numbers and the nid sequence keep exact. */
const ID = { type: "integer", minimum: 1, maximum: Number.MAX_SAFE_INTEGER } as const;

/** Tours or videos one stored property keeps; below what bound-for-validation.ts checks of an object. */
const MAX_KEYED = 100;

const ref = (pointer: string) => ({ $ref: `${SPEC_ID}#${pointer}` });

/** Every field of an answer schema except the derived ones, each as a reference to the spec's own schema. */
function fieldsOf(document: OpenApiDocument, schemaName: string, derived: string[]): Record<string, object> {
  const schema = document.components?.schemas?.[schemaName];
  const properties = (schema?.properties ?? {}) as Record<string, unknown>;
  const fields: Record<string, object> = {};
  for (const name of Object.keys(properties)) {
    if (!derived.includes(name))
      fields[name] = ref(
        `/components/schemas/${schemaName}/properties/${name.replace(/~/g, "~0").replace(/\//g, "~1")}`,
      );
  }
  return fields;
}

function closedRecord(collection: CollectionName, properties: Record<string, object>): SchemaObject {
  return {
    $id: `${STORED_RECORD_ID}/${collection}`,
    type: "object",
    additionalProperties: false,
    required: Object.keys(properties),
    properties,
  };
}

/**
 * The schema of each collection's stored records.
 *
 * @param nullAgentFields agent fields a stored card may hold null in: those a service profile says come back
 *   null when never set (agent-service.ts stores them so), which section 2.2 allows and our reading does not.
 */
export function storedRecordSchemas(
  document: OpenApiDocument,
  nullAgentFields: readonly string[] = [],
): Record<CollectionName, SchemaObject> {
  const agentFields: Record<string, object> = fieldsOf(document, "AgentCard", ["id"]);
  for (const field of nullAgentFields)
    if (agentFields[field]) agentFields[field] = { anyOf: [agentFields[field], { type: "null" }] };
  return {
    accounts: closedRecord("accounts", {
      id: ID,
      apiKey: { type: "string", minLength: 1 },
      token: { type: "string", minLength: 1 },
      agentSeats: { type: "integer", minimum: 0, maximum: Number.MAX_SAFE_INTEGER },
      name: { type: "string" },
    }),
    properties: closedRecord("properties", {
      id: ID,
      uid: ID,
      ...fieldsOf(document, "Property", ["nid", "uid", "floorplans"]),
      // Keyed by nid, so unbounded in the answer schema; a stored property keeps a number a page can show.
      virtual_tours: {
        allOf: [
          ref("/components/schemas/Property/properties/virtual_tours"),
          { type: ["object", "array"], maxProperties: MAX_KEYED },
        ],
      },
      property_videos: {
        allOf: [
          ref("/components/schemas/Property/properties/property_videos"),
          { type: "object", maxProperties: MAX_KEYED },
        ],
      },
      published: ref("/components/schemas/PropertyListItem/properties/published"),
    }),
    agents: closedRecord("agents", {
      id: ID,
      uid: ID,
      ...agentFields,
      // The API takes at most 50 links (AgentCardCreate); a stored card keeps no more.
      social_media_links: nullAgentFields.includes("social_media_links")
        ? {
            anyOf: [
              { type: "array", maxItems: 50, items: ref("/components/schemas/SocialMediaLink") },
              { type: "null" },
            ],
          }
        : { type: "array", maxItems: 50, items: ref("/components/schemas/SocialMediaLink") },
    }),
    documents: closedRecord("documents", {
      id: ID,
      uid: ID,
      ...fieldsOf(document, "Document", ["nid"]),
      property_reference: ID,
    }),
  };
}
