import { projectFloorplans, projectProperty } from "../store/project-records.ts";
import type { DocumentRecord, PropertyRecord } from "../store/records.ts";

/**
 * A retrieved property (endpoints 1 and 2) encoded as JSON: byte for byte `JSON.stringify(projectProperty(record,
 * documents))`, without building the projection. Retrieving a property is the mock's most common answer, and
 * the projection (a copy of the record without three fields, then a second copy with the new ones) is a good part
 * of the CPU of such a GET.
 *
 * The record is encoded as it is, and its first two members (`"id":…,"uid":…`) and its last (`"published":…`)
 * are replaced in the text: the projection puts `nid` and `uid` first, then the record's other fields in their
 * order, then `floorplans`. Only a record laid out that way takes this path (every record the mock creates and
 * every seeded one; a suffix `,"published":"1"}` can only be the last member, as a quote inside a string is
 * escaped); any other record, one holding its own `nid` or `floorplans`, say, is projected as before.
 * test/mock/encoded-retrievals.test.ts compares both on every seeded property.
 */
export function encodeRetrievedProperty(record: PropertyRecord, documents: Iterable<DocumentRecord>): string {
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
    return (
      `{"nid":${JSON.stringify(String(record.id))},"uid":${JSON.stringify(String(record.uid))},${fields},` +
      `"floorplans":${JSON.stringify(projectFloorplans(documents))}}`
    );
  }
  return JSON.stringify(projectProperty(record, documents));
}
