/**
 * Keeps the work of validating a body bounded whatever a client sends under the body limit. A schema
 * validator that reports every error (AJV's `allErrors`) does work, and builds a list, in proportion to the
 * number of errors, and collects them at a cost that grows faster than that (docs/performance.md has a measure of
 * it). So the body is first walked once, cheaply: nesting deeper than {@link MAX_DEPTH} is refused
 * outright, and a copy is made in which every array keeps its first {@link MAX_CHECKED_ITEMS} items and every
 * object its first {@link MAX_CHECKED_KEYS} fields. Errors are then looked for in that copy.
 *
 * The cut never hides a valid body behind an invalid one: the schemas the copy is checked against allow no
 * array longer, and no object wider, than the copy keeps (test/spec/spec-limits.test.ts holds the spec to
 * that), so a body that had to be cut is invalid in the copy as well.
 */

import { escapeToken } from "../../spec/json-pointer.ts";

/** Nesting deeper than this is refused before any schema sees it; no record of the service nests half as deep. */
export const MAX_DEPTH = 32;
/** Items of one array that are checked; every array of a request schema allows fewer. */
export const MAX_CHECKED_ITEMS = 64;
/** Fields of one object that are checked; every object of a request schema lists fewer. */
export const MAX_CHECKED_KEYS = 128;

/** What the walk gives: the value to check (the body itself when nothing was cut), or the place nested too deep. */
export type BoundedValue = { ok: true; value: unknown; cut: boolean } | { ok: false; pointer: string; detail: string };

/** Walks a parsed JSON value once (never deeper than {@link MAX_DEPTH} + 1 frames) and bounds it for validation. */
export function boundForValidation(value: unknown): BoundedValue {
  const path: string[] = [];
  let tooDeep = false;
  let cut = false;

  const visit = (node: unknown, depth: number): unknown => {
    if (tooDeep || node === null || typeof node !== "object") return node;
    if (depth >= MAX_DEPTH) {
      tooDeep = true;
      return node;
    }
    if (Array.isArray(node)) {
      const kept = node.length > MAX_CHECKED_ITEMS ? node.slice(0, MAX_CHECKED_ITEMS) : node;
      if (kept !== node) cut = true;
      let copy: unknown[] | undefined;
      for (let index = 0; index < kept.length; index += 1) {
        path.push(String(index));
        const child = visit(kept[index], depth + 1);
        if (tooDeep) return node;
        path.pop();
        if (child !== kept[index]) (copy ??= [...kept])[index] = child;
      }
      return copy ?? kept;
    }
    const record = node as Record<string, unknown>;
    const all = Object.keys(record);
    let keys = all;
    if (keys.length > MAX_CHECKED_KEYS) {
      keys = keys.slice(0, MAX_CHECKED_KEYS);
      cut = true;
    }
    let copy: Record<string, unknown> | undefined;
    for (const key of keys) {
      path.push(key);
      const child = visit(record[key], depth + 1);
      if (tooDeep) return node;
      path.pop();
      if (child !== record[key]) (copy ??= {})[key] = child;
    }
    if (!copy && keys === all) return node;
    // Rebuild in the original order; `defineProperty` keeps a `__proto__` key an own field, as JSON.parse made it.
    const result: Record<string, unknown> = {};
    for (const key of keys)
      Object.defineProperty(result, key, {
        value: copy && key in copy ? copy[key] : record[key],
        enumerable: true,
        writable: true,
        configurable: true,
      });
    return result;
  };

  const bounded = visit(value, 0);
  if (tooDeep) {
    return {
      ok: false,
      pointer: path
        .map(escapeToken)
        .join("/")
        .replace(/^(?=.)/, "/"),
      detail: `nests deeper than ${MAX_DEPTH} levels; no field of this service does`,
    };
  }
  return { ok: true, value: bounded, cut };
}
