import type { JournalRecord, RequestJournal } from "../services/request-journal.ts";
import type { Answered, ApiAnswer, ApiCall, ApiInterceptor } from "./api-interceptor.ts";
import { andThen } from "./maybe-async.ts";
import { firstHeader } from "./mock-request.ts";
import { encodeReply } from "./reply.ts";

/**
 * Records every API call in the request journal: on arrival, so entries keep arrival order and a
 * pending call shows; then its body, what was done to it on purpose, and the status of the final reply
 * (`null` when nothing was answered: the client left, or a fault dropped the connection). It is the outermost
 * interceptor, so it sees the faults and delays of the others. Per call it adds a small record that keeps
 * references, and one object pairing it with the call; bodies are decoded only when someone reads the journal. A
 * call answered synchronously is recorded synchronously: no promise, no function made for it.
 */
export function journalRequests(journal: RequestJournal): ApiInterceptor {
  return (call, next) => {
    const open: OpenCall = { record: journal.begin(call.request, call.receivedAt), call };
    let answer: ApiAnswer;
    try {
      answer = next(call);
    } catch (error) {
      return failed(error, open); // a bug of the mock threw: there was no reply from here
    }
    return andThen(answer, over, failed, open);
  };
}

/** A call being answered and its record: what completes the record, in one object rather than closures per call. */
interface OpenCall {
  record: JournalRecord;
  call: ApiCall;
}

/** A bug of the mock ended the call: its record completed as unanswered, the error passed on. */
function failed(error: unknown, open: OpenCall): never {
  over(UNANSWERED, open);
  throw error;
}

/** What a call a bug of the mock ended gave: nothing known, nothing answered. */
const UNANSWERED: Answered = { reply: undefined };

/**
 * Completes a call's record once it is over, answered or not, from what answering it gave, and passes that on:
 * the status last, since the journal's listeners (the console) are told of the call then. The reply is encoded
 * here (reply.ts, `encodeReply`) and passed on encoded, so that the journal keeps the very text the host sends.
 */
function over(answered: Answered, { record, call }: OpenCall): Answered {
  let result = answered;
  if (answered.rawBody) record.body(answered.rawBody, firstHeader(call.request.headers, "content-type"));
  if (answered.fault) record.fault(answered.fault);
  record.about(answered.operationId, answered.account);
  const given = answered.reply;
  const reply = given && encodeReply(given);
  if (reply) {
    if (reply !== given) result = { ...answered, reply };
    record.answer(reply);
  }
  record.finish(reply?.status ?? null);
  return result;
}
