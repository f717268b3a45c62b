import type { IncomingMessage, ServerResponse } from "node:http";
import type { FaultRules } from "../services/fault-rules.ts";
import type { JournalFilter, RequestJournal } from "../services/request-journal.ts";
import { parseJson, readBody } from "./read-body.ts";
import { okReply, problemReply, send } from "./reply.ts";

/** A fault rule is a few fields; a body larger than this is not one. */
const RULE_BODY_LIMIT = 16 * 1024;
const FILTERS = new Set(["method", "path"]);

/** The handlers of `/__admin/requests` and `/__admin/faults`; plain Node handlers, mounted by the admin routes. */
export interface SteeringRoutes {
  listRequests(request: IncomingMessage, response: ServerResponse, url: string): void;
  clearRequests(request: IncomingMessage, response: ServerResponse): void;
  addFault(request: IncomingMessage, response: ServerResponse): Promise<void>;
  listFaults(request: IncomingMessage, response: ServerResponse): void;
  clearFaults(request: IncomingMessage, response: ServerResponse): void;
  /** `DELETE /__admin/faults/{id}`: `id` is the path's last segment, as sent. */
  removeFault(request: IncomingMessage, response: ServerResponse, id: string): void;
}

/**
 * The admin side of issue 12: the request journal (`GET`/`DELETE /__admin/requests`, WireMock's model) and the
 * fault rules (`POST`/`GET`/`DELETE /__admin/faults`, `DELETE /__admin/faults/{id}`). Rule bodies are small; JSON only is the admin guard's rule.
 */
export function createSteeringRoutes(journal: RequestJournal, faults: FaultRules): SteeringRoutes {
  return {
    listRequests(_request, response, url) {
      const filter = readFilter(url);
      if ("problem" in filter) {
        send(response, problemReply(filter, "/__admin/requests"));
        return;
      }
      send(response, okReply({ requests: journal.entries(filter) }));
    },
    clearRequests(_request, response) {
      journal.clear();
      send(response, okReply({ requests: [] }));
    },
    async addFault(request, response) {
      const instance = "/__admin/faults";
      // JSON only (415 otherwise) is the admin guard's rule for every admin write, checked before this runs.
      const read = await readBody(request, RULE_BODY_LIMIT);
      if (read.kind === "aborted") return;
      if (read.kind === "too-large") {
        send(response, problemReply({ problem: "payloadTooLarge", detail: `A fault rule must be under ${RULE_BODY_LIMIT} bytes.` }, instance, { Connection: "close" }));
        return;
      }
      const parsed = read.kind === "empty" ? { ok: false as const, reason: "The body is empty; send a fault rule." } : parseJson(read.bytes);
      if (!parsed.ok) {
        send(response, problemReply({ problem: "malformedJson", detail: parsed.reason }, instance));
        return;
      }
      const added = faults.add(parsed.value);
      if (!added.ok) {
        send(response, problemReply(added.failure, instance));
        return;
      }
      send(response, { ...okReply(added.value), status: 201 });
    },
    listFaults(_request, response) {
      send(response, okReply({ faults: faults.list() }));
    },
    clearFaults(_request, response) {
      faults.clear();
      send(response, okReply({ faults: [] }));
    },
    removeFault(_request, response, id) {
      const instance = `/__admin/faults/${id}`;
      const removed = /^[1-9][0-9]{0,14}$/.test(id) ? faults.remove(Number(id)) : undefined;
      if (!removed) {
        const shown = JSON.stringify(id.slice(0, 100));
        send(response, problemReply({ problem: "notFound", detail: `No fault rule has the id ${shown} (a rule used up its times is gone); GET /__admin/faults lists the rules and their ids.` }, instance));
        return;
      }
      send(response, okReply({ removed, faults: faults.list() }));
    },
  };
}

/** The journal filter from the query; an unknown or repeated parameter is refused rather than ignored. */
function readFilter(url: string): JournalFilter | { problem: "invalidJournalFilter"; detail: string; errors: Array<{ in: "query"; pointer: string; detail: string }> } {
  const at = url.indexOf("?");
  const filter: JournalFilter = {};
  const errors: Array<{ in: "query"; pointer: string; detail: string }> = [];
  for (const [name, value] of new URLSearchParams(at < 0 ? "" : url.slice(at + 1))) {
    const pointer = `/${name.slice(0, 100)}`;
    if (!FILTERS.has(name)) errors.push({ in: "query", pointer, detail: "is not a filter of the journal (method, path)" });
    else if (filter[name as keyof JournalFilter] !== undefined) errors.push({ in: "query", pointer, detail: "is given twice" });
    else filter[name as keyof JournalFilter] = value;
    if (errors.length >= 20) break;
  }
  if (errors.length > 0) return { problem: "invalidJournalFilter", detail: "GET /__admin/requests takes ?method= and ?path= only.", errors };
  return filter;
}
