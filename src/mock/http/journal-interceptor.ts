import type { RequestJournal } from "../services/request-journal.ts";
import type { ApiInterceptor } from "./api-interceptor.ts";

/**
 * Records every API call in the request journal (issue 12): on arrival, so entries keep arrival order and a
 * pending call shows; then its body, what was done to it on purpose, and the status of the final reply
 * (`null` when nothing was answered: the client left, or a fault dropped the connection). It is the outermost
 * interceptor, so it sees the faults and delays of the others. Per call it adds one small object that keeps
 * references; bodies are decoded only when someone reads the journal.
 */
export function journalRequests(journal: RequestJournal): ApiInterceptor {
  return async (call, next) => {
    const record = journal.begin({ method: call.method, url: call.url, headers: call.request.headers }, call.receivedAt);
    try {
      const reply = await next();
      record.finish(reply?.status ?? null);
      return reply;
    } finally {
      if (call.rawBody) record.body(call.rawBody, header(call.request.headers["content-type"]));
      if (call.fault) record.fault(call.fault);
      record.finish(null); // a bug of the mock threw: there was no reply from here
    }
  };
}

function header(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
