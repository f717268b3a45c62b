/**
 * An encoded JSON object with more members: `members` (encoded, `"a":1,"b":""`) put before its closing brace, or
 * the object as it is when there are none. What a service profile's undocumented fields do to an answer already
 * encoded (a kept retrieve answer, a list item, an agent list's entry, a resource), without parsing it again.
 */
export function withMembers(object: string, members: string): string {
  if (members === "") return object;
  return object === "{}" ? `{${members}}` : `${object.slice(0, -1)},${members}}`;
}
