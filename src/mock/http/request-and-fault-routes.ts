import type { MockRequest } from "./mock-request.ts";
import { readAdminJson } from "./read-admin-json.ts";
import type { FaultRules } from "../services/fault-rules.ts";
import type { JournalFilter, RequestJournal } from "../services/request-journal.ts";
import { okReply, problemReply, type Reply } from "./reply.ts";

/** A fault rule is a few fields; a body larger than this is not one. */
const RULE_BODY_LIMIT = 16 * 1024;
const FILTERS = new Set(["method", "path"]);

/** The handlers of `/__admin/requests` and `/__admin/faults`, mounted by the admin routes: each gives its reply. */
export interface RequestAndFaultRoutes {
  /** `GET /__admin/requests`, filtered by the target's query (after the `?`). */
  listRequests(query: string): Reply;
  clearRequests(): Reply;
  /** Undefined when the client left before its body was read. */
  addFault(request: MockRequest): Promise<Reply | undefined>;
  listFaults(): Reply;
  clearFaults(): Reply;
  /** `DELETE /__admin/faults/{id}`: `id` is the path's last segment, as sent. */
  removeFault(id: string): Reply;
}

/**
 * What a test reads and sets of the mock's API calls: the request journal (`GET`/`DELETE /__admin/requests`,
 * WireMock's model) and the fault rules the steering interceptor applies (`POST`/`GET`/`DELETE /__admin/faults`,
 * `DELETE /__admin/faults/{id}`). Rule bodies are small; JSON only is the admin guard's rule.
 */
export function createRequestAndFaultRoutes(journal: RequestJournal, faults: FaultRules): RequestAndFaultRoutes {
  return {
    listRequests(query) {
      const filter = readFilter(query);
      if ("problem" in filter) return problemReply(filter, "/__admin/requests");
      return okReply({ requests: journal.entries(filter) });
    },
    clearRequests() {
      journal.clear();
      return okReply({ requests: [] });
    },
    async addFault(request) {
      const instance = "/__admin/faults";
      // JSON only (415 otherwise) is the admin guard's rule for every admin write, checked before this runs.
      const parsed = await readAdminJson(request, RULE_BODY_LIMIT, instance, {
        tooLarge: `A fault rule must be under ${RULE_BODY_LIMIT} bytes.`,
        empty: "The body is empty; send a fault rule.",
      });
      if (!parsed.ok) return parsed.reply;
      const added = faults.add(parsed.value);
      if (!added.ok) return problemReply(added.failure, instance);
      return { ...okReply(added.value), status: 201 };
    },
    listFaults() {
      return okReply({ faults: faults.list() });
    },
    clearFaults() {
      faults.clear();
      return okReply({ faults: [] });
    },
    removeFault(id) {
      const instance = `/__admin/faults/${id}`;
      const removed = /^[1-9][0-9]{0,14}$/.test(id) ? faults.remove(Number(id)) : undefined;
      if (!removed) {
        const shown = JSON.stringify(id.slice(0, 100));
        return problemReply(
          {
            problem: "notFound",
            detail:
              `No fault rule has the id ${shown} (a rule used up its times is gone); ` +
              "GET /__admin/faults lists the rules and their ids.",
          },
          instance,
        );
      }
      return okReply({ removed, faults: faults.list() });
    },
  };
}

/** The journal filter from the query; an unknown or repeated parameter is refused rather than ignored. */
function readFilter(query: string):
  | JournalFilter
  | {
      problem: "invalidJournalFilter";
      detail: string;
      errors: Array<{ in: "query"; pointer: string; detail: string }>;
    } {
  const filter: JournalFilter = {};
  const errors: Array<{ in: "query"; pointer: string; detail: string }> = [];
  for (const [name, value] of new URLSearchParams(query)) {
    const pointer = `/${name.slice(0, 100)}`;
    if (!FILTERS.has(name))
      errors.push({ in: "query", pointer, detail: "is not a filter of the journal (method, path)" });
    else if (filter[name as keyof JournalFilter] !== undefined)
      errors.push({ in: "query", pointer, detail: "is given twice" });
    else filter[name as keyof JournalFilter] = value;
    if (errors.length >= 20) break;
  }
  if (errors.length > 0)
    return { problem: "invalidJournalFilter", detail: "GET /__admin/requests takes ?method= and ?path= only.", errors };
  return filter;
}
