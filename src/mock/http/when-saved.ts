import type { SaveResult } from "../store/state-persistence.ts";
import type { ApiInterceptor } from "./api-interceptor.ts";
import { problemReply, type Reply } from "./reply.ts";

/** What the HTTP layer needs of a `--db` state: whether a request changed something, and when that is saved. */
export interface Durability {
  /** A number that moves with every change of the state. */
  version(): number;
  /** Resolves once every change so far is on disk; undefined when there is nothing to wait for. */
  saved(): Promise<SaveResult> | undefined;
  /** Why changes cannot be saved right now, or undefined while they can. */
  problem(): string | undefined;
}

/**
 * The answer to a request that may have changed the state, once it is safe to send: a 2xx to a write with
 * `--db` means the change is on disk, so when the request changed something (the version moved since
 * `before`) the answer waits for the sync; when the write failed the answer is a 503 instead.
 */
export async function whenSaved(
  durability: Durability | undefined,
  before: number | undefined,
  reply: Reply,
  instance: string,
): Promise<{ reply: Reply; saved: boolean }> {
  if (!durability || before === undefined || durability.version() === before) return { reply, saved: true };
  const result = await durability.saved();
  if (!result || result.saved) return { reply, saved: true };
  const detail =
    `${result.reason}. ` +
    "The change is made in memory and is saved once writing works again, but it is not on disk now.";
  return { reply: problemReply({ problem: "stateNotSaved", detail }, instance), saved: false };
}

/**
 * The API's side of {@link whenSaved}, as an interceptor (`api-interceptor.ts`): it notes the version before
 * the handler runs and holds the handler's reply until what the request changed is on disk.
 */
export function createDurabilityInterceptor(durability: Durability): ApiInterceptor {
  return async (call, next) => {
    const before = durability.version();
    const answered = await next(call);
    if (!answered.reply) return answered;
    const { reply } = await whenSaved(durability, before, answered.reply, call.path);
    return reply === answered.reply ? answered : { ...answered, reply };
  };
}
