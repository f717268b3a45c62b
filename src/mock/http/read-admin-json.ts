import type { MockRequest } from "./mock-request.ts";
import { parseJson, readBody } from "./read-body.ts";
import { problemReply, type Reply } from "./reply.ts";

/** What an admin route tells a client whose body it cannot take: one past its limit, or none. */
export interface AdminBodyWords {
  tooLarge: string;
  empty: string;
}

/**
 * The JSON body of an admin write (fault rules, states, provider states, a test's name, a latency), read up to
 * `limit` bytes: its value, or the answer instead: 413 past the limit (the connection then closed), 400 when it
 * is empty or not JSON, in the route's own words; undefined when the client left. That the body is JSON at all
 * is the admin guard's rule, checked before.
 */
export async function readAdminJson(
  request: MockRequest,
  limit: number,
  instance: string,
  words: AdminBodyWords,
): Promise<{ ok: true; value: unknown } | { ok: false; reply: Reply | undefined }> {
  const read = await readBody(request, limit);
  if (read.kind === "aborted") return { ok: false, reply: undefined };
  if (read.kind === "too-large")
    return {
      ok: false,
      reply: problemReply({ problem: "payloadTooLarge", detail: words.tooLarge }, instance, { Connection: "close" }),
    };
  const parsed = read.kind === "empty" ? { ok: false as const, reason: words.empty } : parseJson(read.bytes);
  if (!parsed.ok)
    return { ok: false, reply: problemReply({ problem: "malformedJson", detail: parsed.reason }, instance) };
  return { ok: true, value: parsed.value };
}
