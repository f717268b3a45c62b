/** JSON Pointer (RFC 6901) helpers. */

/** Escapes one reference token: `~` becomes `~0` and `/` becomes `~1` (RFC 6901 §3). */
export function escapeToken(token: string | number): string {
  const text = String(token);
  // Most names need no escape, and the usage recorder calls this for every field of every answer it writes.
  return text.includes("~") || text.includes("/") ? text.replace(/~/g, "~0").replace(/\//g, "~1") : text;
}

/** Splits a pointer (with or without a leading `#`) into unescaped reference tokens. */
export function parsePointer(pointer: string): string[] {
  const bare = pointer.startsWith("#") ? decodeURIComponent(pointer.slice(1)) : pointer;
  if (bare === "") return [];
  if (!bare.startsWith("/")) throw new Error(`Not a JSON pointer: ${pointer}`);
  return bare
    .slice(1)
    .split("/")
    .map((token) => token.replace(/~1/g, "/").replace(/~0/g, "~"));
}

/** The value a pointer designates inside `root`, or undefined when it designates nothing. */
export function resolvePointer(root: unknown, pointer: string): unknown {
  let node: unknown = root;
  for (const token of parsePointer(pointer)) {
    if (node === null || typeof node !== "object" || !Object.hasOwn(node, token)) return undefined;
    node = (node as Record<string, unknown>)[token];
  }
  return node;
}
