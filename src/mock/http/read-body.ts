import { MAX_DEPTH } from "../validation/bound-for-validation.ts";
import type { BodyRead, MockRequest } from "./mock-request.ts";

export type { BodyRead };

/**
 * Reads a request body into memory, up to `limit` bytes, however the host delivers it (mock-request.ts). A larger
 * body is not buffered: reading stops, the rest is discarded, and the caller answers 413.
 */
export function readBody(request: MockRequest, limit: number): Promise<BodyRead> {
  return request.readBody(limit);
}

/** Discards a body the operation does not take, without buffering it. */
export function discardBody(request: MockRequest): void {
  request.discardBody();
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

/**
 * Parses a JSON body; a failure is a value carrying what is wrong with it (`tooDeep`: it nests past
 * {@link MAX_DEPTH}).
 */
export function parseJson(
  bytes: Uint8Array,
): { ok: true; value: unknown } | { ok: false; reason: string; tooDeep?: true } {
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    return { ok: false, reason: "The body is not valid UTF-8." };
  }
  // JSON.parse takes hundreds of milliseconds over a megabyte of nesting or of one object's fields, and no
  // value of the service nests deep or holds many members: such a body is refused before it is parsed.
  const shape = outsizedShape(text);
  if (shape === "deep")
    return {
      ok: false,
      reason: `The body nests deeper than ${MAX_DEPTH} levels; no field of this service does.`,
      tooDeep: true,
    };
  if (shape === "wide")
    return {
      ok: false,
      reason:
        `The body holds an array or object of more than ${MAX_MEMBERS} members; ` +
        "no field of this service holds more than 100.",
      tooDeep: true,
    };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    return { ok: false, reason: `The body is not valid JSON: ${(error as Error).message}` };
  }
}

/** Members of one array or object past which a body is refused unparsed (a valid one has at most 100). */
export const MAX_MEMBERS = 1000;

/**
 * Whether JSON text opens more than {@link MAX_DEPTH} arrays or objects inside each other ("deep"), or gives
 * one of them more than {@link MAX_MEMBERS} members ("wide"). One pass over the text, strings skipped; text
 * that is not JSON passes, for JSON.parse to refuse.
 */
function outsizedShape(text: string): "deep" | "wide" | undefined {
  const members = new Int32Array(MAX_DEPTH + 2);
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (inString) {
      if (code === 0x5c)
        index += 1; // a backslash escapes the next character
      else if (code === 0x22) inString = false;
    } else if (code === 0x22) {
      inString = true;
    } else if (code === 0x5b || code === 0x7b) {
      depth += 1;
      if (depth > MAX_DEPTH) return "deep";
      members[depth] = 0;
    } else if (code === 0x5d || code === 0x7d) {
      if (depth > 0) depth -= 1;
    } else if (code === 0x2c && depth > 0) {
      members[depth] = members[depth]! + 1;
      if (members[depth]! >= MAX_MEMBERS) return "wide";
    }
  }
  return undefined;
}
