import type { JournalRecord, RequestJournal } from "../services/request-journal.ts";
import type { ApiCall, ApiInterceptor } from "./api-interceptor.ts";
import { JsonBytes } from "../json-bytes.ts";
import { andThen } from "./maybe-async.ts";
import { firstHeader } from "./mock-request.ts";
import type { Reply } from "./reply.ts";

/**
 * Records every API call in the request journal: on arrival, so entries keep arrival order and a
 * pending call shows; then its body, what was done to it on purpose, and the status of the final reply
 * (`null` when nothing was answered: the client left, or a fault dropped the connection). It is the outermost
 * interceptor, so it sees the faults and delays of the others. Per call it adds one small object that keeps
 * references; bodies are decoded only when someone reads the journal. A call answered synchronously is
 * recorded synchronously: no promise, no function made for it.
 */
export function journalRequests(journal: RequestJournal): ApiInterceptor {
  return (call, next) => {
    const record = journal.begin(call.request, call.receivedAt);
    let answer;
    try {
      answer = next(call);
    } catch (error) {
      over(record, call, undefined); // a bug of the mock threw: there was no reply from here
      throw error;
    }
    return andThen(
      answer,
      (reply) => over(record, call, reply),
      (error: unknown) => {
        over(record, call, undefined);
        throw error;
      },
    );
  };
}

/**
 * Completes a call's record once it is over, answered or not, and passes its reply on: the status last, since
 * the journal's listeners (the console) are told of the call then. A JSON value is encoded here rather than by
 * the host, so that the journal keeps the very text sent and nothing is encoded twice.
 */
function over(record: JournalRecord, call: ApiCall, given: Reply | undefined): Reply | undefined {
  let reply = given;
  if (call.rawBody) record.body(call.rawBody, firstHeader(call.request.headers, "content-type"));
  if (call.fault) record.fault(call.fault);
  record.about(call.operationId, call.account);
  if (reply) {
    if (reply.contentType === "application/json" && !(reply.body instanceof JsonBytes) && reply.body !== undefined)
      reply = { ...reply, body: new JsonBytes(JSON.stringify(reply.body)) };
    record.answer(reply);
  }
  record.finish(reply?.status ?? null);
  return reply;
}
