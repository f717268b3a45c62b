import type { RequestListener } from "node:http";
import { createRequire } from "node:module";
import type { Contract } from "../../contract/create-contract.ts";
import type { RawRecordService } from "../../mock/services/raw-records.ts";
import type { MockStore } from "../../mock/store/mock-store.ts";
import type { Answer, AnswerRequest, RequestAnswerer } from "../../mock/http/answer-requests.ts";
import { andThen } from "../../mock/http/maybe-async.ts";
import { isAdminRoute } from "../../mock/http/route-table.ts";
import { answerPreflight, CORS_HEADERS } from "./cors.ts";
import { createDocsPages, type DocsCredentials } from "./docs-pages.ts";
import { createConsolePages } from "./console-pages.ts";
import { createConsoleEvents } from "./console-events.ts";
import type { RequestJournal } from "../../mock/services/request-journal.ts";
import { NodeRequest } from "./node-request.ts";
import { createRawRecordsRoute } from "./raw-records-route.ts";
import { textReply } from "../../mock/http/reply.ts";
import { logWhenFinished } from "./request-log.ts";
import type { LoggedRequest } from "./request-log-line.ts";
import { send } from "./send-reply.ts";
import type { Durability } from "../../mock/http/when-saved.ts";

/** What the Node host adds to the core (answer-requests.ts). */
export interface AppDeps {
  /** The mock's core router, to which this host adds its own routes (route-table.ts, `host: true`). */
  router: RequestAnswerer;
  store: MockStore;
  raw: RawRecordService;
  contract: Contract;
  /** Largest request body accepted, in bytes. */
  bodyLimit: number;
  /** Told of every request once it is answered, in `formatRequest`'s words (`requestLogLine` unless given). */
  log?: (line: string) => void;
  formatRequest?: (request: LoggedRequest) => string;
  /** Told of a bug of the mock met on a request (its stack); `log`, else stderr, unless given. */
  reportError?: (text: string) => void;
  /** The clock of the log's timestamps, in milliseconds. */
  now?: () => number;
  /** With `--db`: raw writes are answered once on disk. */
  durability?: Durability;
  /** The credentials `/docs` fills in for "Try it out", if any (none when accounts are configured). */
  docsCredentials?: () => DocsCredentials | undefined;
  /** The request journal, which the console follows live (`/__admin/events`); no console without it. */
  journal?: RequestJournal;
}

/**
 * The CORS headers of an answer on this path: none for the admin surface, preflight included, so that no page of
 * another origin may read or write it (its guard refuses such pages outright).
 */
function corsOf(path: string): readonly string[] | undefined {
  return isAdminRoute(path) ? undefined : CORS_HEADERS;
}

// The YAML serializer is loaded on the first request for /openapi.yaml rather than at every start.
const require = createRequire(import.meta.url);

/**
 * The Node host of the mock: a plain `node:http` request listener (also what `supertest(mock.app)` drives). It
 * gives the core's route table (route-table.ts) each request as a {@link NodeRequest}, with the handlers of the
 * routes only a Node server answers: the API reference under `/docs` and the console's page (files of the
 * package), `/openapi.yaml`, the console's live journal (a response held open), and json-server's raw records
 * under `/__db`; each writes its answer itself. It writes every other reply, and keeps to itself CORS and its
 * preflight, and the request log. A fault that drops the connection destroys the socket.
 */
export function createApp(deps: AppDeps): RequestListener {
  const { contract, log, router } = deps;
  const reportError = deps.reportError ?? log ?? console.error;
  const docs = createDocsPages(deps.docsCredentials ?? (() => undefined));
  const rawRecords = createRawRecordsRoute({
    store: deps.store,
    raw: deps.raw,
    bodyLimit: deps.bodyLimit,
    log: reportError,
    internalError: router.internalError,
    ...(deps.durability ? { durability: deps.durability } : {}),
  });
  const consolePages = deps.journal ? createConsolePages() : undefined;
  const consoleEvents = deps.journal ? createConsoleEvents(deps.journal) : undefined;
  let specYaml: string | undefined; // built on the first request for it: most runs never ask

  const answer: AnswerRequest<NodeRequest> = router.withHost<NodeRequest>({
    docs: (request, path) => void docs(request.incoming, request.response, path),
    openapiYaml: () => {
      specYaml ??= (require("yaml") as typeof import("yaml")).stringify(contract.document);
      return textReply("application/yaml", specYaml);
    },
    rawRecords: (request, path) => rawRecords(request.incoming, request.response, path, request.query),
    ...(consolePages
      ? {
          consolePage: (request: NodeRequest, path: string) =>
            void consolePages(request.incoming, request.response, path),
        }
      : {}),
    ...(consoleEvents
      ? { consoleEvents: (request: NodeRequest) => void consoleEvents(request.incoming, request.response) }
      : {}),
  });

  /**
   * Writes what the core answered: the reply, or nothing on purpose (the socket closed), or nothing (the client
   * left, or a handler of this host wrote the answer). A bug met on the way is the core's 500, or, once the head
   * went out, the socket closed.
   */
  const deliver = (answered: Answer, request: NodeRequest): void => {
    try {
      const reply = answered?.reply;
      if (answered?.dropped) request.incoming.socket.destroy();
      else if (!reply) return;
      else if (request.response.headersSent) request.response.destroy();
      else send(request.response, reply, corsOf(request.path));
    } catch (error) {
      deliver(router.internalError(request, request.path, error), request);
    }
  };

  return (incoming, response) => {
    const receivedAt = performance.now();
    if (log) logWhenFinished(incoming, response, receivedAt, log, deps.now, deps.formatRequest);
    // The target is split once, here (node-request.ts); the core and this host read its path from the request.
    const request = new NodeRequest(incoming, response);
    if (corsOf(request.path) && answerPreflight(incoming, response)) return;
    // Most answers come at once (api-interceptor.ts): written now, without a turn of the microtask queue. The
    // router turns every exception into its 500 answer, so the promise of an answer never rejects.
    void andThen(answer(request, receivedAt), deliver, undefined, request);
  };
}
