import type { IncomingMessage } from "node:http";

/** What reading a request body gave. */
export type BodyRead =
  | { kind: "empty" }
  | { kind: "bytes"; bytes: Buffer }
  | { kind: "too-large" }
  | { kind: "aborted" };

/**
 * Reads a request body into memory, up to `limit` bytes. A larger body is not buffered: reading stops, the rest
 * is discarded, and the caller answers 413.
 */
export function readBody(request: IncomingMessage, limit: number): Promise<BodyRead> {
  const declared = Number(request.headers["content-length"]);
  if (Number.isFinite(declared) && declared > limit) {
    request.resume();
    return Promise.resolve({ kind: "too-large" });
  }
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const settle = (result: BodyRead) => {
      if (settled) return;
      settled = true;
      request.off("data", onData);
      resolve(result);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        settle({ kind: "too-large" });
        request.resume();
        return;
      }
      chunks.push(chunk);
    };
    request.on("data", onData);
    request.on("end", () => settle(size === 0 ? { kind: "empty" } : { kind: "bytes", bytes: Buffer.concat(chunks, size) }));
    request.on("error", () => settle({ kind: "aborted" }));
    request.on("aborted", () => settle({ kind: "aborted" }));
  });
}

/** Discards a body the operation does not take, without buffering it. */
export function discardBody(request: IncomingMessage): void {
  request.resume();
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

/** Parses a JSON body; a failure is a value carrying what is wrong with it. */
export function parseJson(bytes: Buffer): { ok: true; value: unknown } | { ok: false; reason: string } {
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    return { ok: false, reason: "The body is not valid UTF-8." };
  }
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    return { ok: false, reason: `The body is not valid JSON: ${(error as Error).message}` };
  }
}
