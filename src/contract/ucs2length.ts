/**
 * The length of a string in Unicode code points, as JSON Schema's `minLength`/`maxLength` count it: AJV's own
 * runtime helper (`ajv/dist/runtime/ucs2length`, after punycode.js's ucs2.decode), kept here so that the
 * generated validators import it as a module of this package in every host, instead of calling `require`.
 */
export function ucs2length(text: string): number {
  const size = text.length;
  let length = 0;
  let position = 0;
  while (position < size) {
    length += 1;
    const code = text.charCodeAt(position++);
    // a high surrogate followed by a low one is one code point
    if (code >= 0xd800 && code <= 0xdbff && position < size && (text.charCodeAt(position) & 0xfc00) === 0xdc00)
      position += 1;
  }
  return length;
}
