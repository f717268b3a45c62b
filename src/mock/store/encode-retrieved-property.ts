import { projectFloorplans, projectProperty } from "./project-records.ts";
import type { DocumentRecord, PropertyRecord } from "./records.ts";

/**
 * A retrieved property (endpoints 1 and 2) encoded as JSON: byte for byte `JSON.stringify(projectProperty(record,
 * documents))`, without building the projection. Retrieving a property is the mock's most common answer, and
 * the projection (a copy of the record without three fields, then a second copy with the new ones) cost as much
 * as a sixth of the CPU of such a GET (issue 23).
 *
 * The record is encoded as it is, and its first two members (`"id":…,"uid":…`) and its last (`"published":…`)
 * are replaced in the text: the projection puts `nid` and `uid` first, then the record's other fields in their
 * order, then `floorplans`. Only a record laid out that way takes this path (every record the mock creates and
 * every seeded one; a suffix `,"published":"1"}` can only be the last member, as a quote inside a string is
 * escaped); any other record, one holding its own `nid` or `floorplans`, say, is projected as before.
 * test/mock/encode-retrieved-property.test.ts compares both on every seeded property and on generated ones.
 * The text is what encoded-retrievals.ts keeps, as bytes.
 */
export function encodeRetrievedProperty(record: PropertyRecord, documents: Iterable<DocumentRecord>): string {
  return encodeRetrievedParts(record, documents).text;
}

/**
 * A retrieved property's JSON text, and when it is made from the record's own text (the record laid out as the
 * mock lays it out), where the record's members lie in it and how the record's text ends: the record's text is
 * then `{"id":<id>,"uid":<uid>,` + `text.slice(fieldsFrom, fieldsTo)` + `,"published":<published>}`, so that a
 * store can keep the answer alone and read the record back from it (property-table.ts).
 */
export interface RetrievedParts {
  text: string;
  record?: { fieldsFrom: number; fieldsTo: number; published: string };
}

/** {@link encodeRetrievedProperty}, with where the record's own members lie in the answer. */
export function encodeRetrievedParts(record: PropertyRecord, documents: Iterable<DocumentRecord>): RetrievedParts {
  const text = JSON.stringify(record);
  const head = `{"id":${record.id},"uid":${record.uid},`;
  const published = JSON.stringify(record.published) as string | undefined;
  const tail = `,"published":${published}}`;
  if (
    published !== undefined &&
    text.length > head.length + tail.length &&
    text.startsWith(head) &&
    text.endsWith(tail) &&
    !Object.hasOwn(record, "nid") &&
    !Object.hasOwn(record, "floorplans")
  ) {
    const fields = text.slice(head.length, text.length - tail.length);
    const answerHead = `{"nid":${JSON.stringify(String(record.id))},"uid":${JSON.stringify(String(record.uid))},`;
    return {
      text: `${answerHead}${fields},"floorplans":${JSON.stringify(projectFloorplans(documents))}}`,
      record: { fieldsFrom: answerHead.length, fieldsTo: answerHead.length + fields.length, published: published! },
    };
  }
  return { text: JSON.stringify(projectProperty(record, documents)) };
}
