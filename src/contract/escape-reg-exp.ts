/**
 * A text matched as itself inside a regular expression: each character with a meaning in a pattern escaped.
 * Written for `new RegExp` (with or without the `u` flag) and for Pact's regex matchers alike, so it escapes
 * only the syntax characters, never `/` or `-`, which Unicode patterns refuse to see escaped outside a class.
 */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
