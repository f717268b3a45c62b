import type { RequestJournal } from "../services/request-journal.ts";
import type { ApiInterceptor } from "./api-interceptor.ts";
import type { Reply } from "./reply.ts";

/**
 * Records every API call in the request journal (issue 12): on arrival, so entries keep arrival order and a
 * pending call shows; then its body, what was done to it on purpose, and the status of the final reply
 * (`null` when nothing was answered: the client left, or a fault dropped the connection). It is the outermost
 * interceptor, so it sees the faults and delays of the others. Per call it adds one small object that keeps
 * references; bodies are decoded only when someone reads the journal.
 */
export function journalRequests(journal: RequestJournal): ApiInterceptor {
  return (call, next) => {
    const record = journal.begin({ method: call.method, url: call.url, headers: call.request.headers }, call.receivedAt);
    // What the call left to read once it is over, answered or not (a chain of the promise rather than an async
    // function around it: one promise less on every call).
    const over = () => {
      if (call.rawBody) record.body(call.rawBody, header(call.request.headers["content-type"]));
      if (call.fault) record.fault(call.fault);
      record.finish(null); // a bug of the mock threw: there was no reply from here
    };
    let replied: Promise<Reply | undefined>;
    try {
      replied = next();
    } catch (error) {
      over();
      throw error;
    }
    return replied.then(
      (reply) => {
        record.finish(reply?.status ?? null);
        over();
        return reply;
      },
      (error: unknown) => {
        over();
        throw error;
      },
    );
  };
}

function header(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
