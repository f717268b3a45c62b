import type { IncomingMessage, RequestListener, ServerResponse } from "node:http";
import { createRequire } from "node:module";
import type { Contract } from "../../contract/create-contract.ts";
import type { RawRecordService } from "../../mock/services/raw-records.ts";
import type { MockStore } from "../../mock/store/mock-store.ts";
import type { AdminGuard } from "../../mock/http/admin-guard.ts";
import { adminRefusal, isAdminPath, isRawRecordsPath } from "../../mock/http/admin-routes.ts";
import type { Answer, AnswerRequest } from "../../mock/http/answer-requests.ts";
import { answerPreflight, CORS_HEADERS } from "./cors.ts";
import { createDocsPages, type DocsCredentials } from "./docs-pages.ts";
import { createConsolePages } from "./console-pages.ts";
import { createConsoleEvents, EVENTS_PATH } from "./console-events.ts";
import type { RequestJournal } from "../../mock/services/request-journal.ts";
import { NodeRequest } from "./node-request.ts";
import { createRawRecordsRoute } from "./raw-records-route.ts";
import { problemReply, textReply } from "../../mock/http/reply.ts";
import { logWhenFinished } from "./request-log.ts";
import type { LoggedRequest } from "./request-log-line.ts";
import { send } from "./send-reply.ts";
import type { Durability } from "../../mock/http/when-saved.ts";

/** What the Node host adds to the core (answer-requests.ts). */
export interface AppDeps {
  /** The mock's core: every request it does not keep to itself goes there. */
  answer: AnswerRequest;
  store: MockStore;
  raw: RawRecordService;
  contract: Contract;
  /** The admin guard, which `/__db` passes before json-server sees a request. */
  adminGuard: AdminGuard;
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

// The YAML serializer is loaded on the first request for /openapi.yaml rather than at every start.
const require = createRequire(import.meta.url);

/**
 * The Node host of the mock: a plain `node:http` request listener (also what `supertest(mock.app)` drives). It
 * gives the core (answer-requests.ts) each request as a {@link NodeRequest} and writes the reply it gets, and
 * keeps to itself what only a Node server does: CORS and its preflight, the request log, the API reference
 * under `/docs` (files of the package), `/openapi.yaml`, and json-server's raw records under `/__db` (behind the
 * core's admin guard). A fault that drops the connection destroys the socket.
 */
export function createApp(deps: AppDeps): RequestListener {
  const { contract, log } = deps;
  const reportError = deps.reportError ?? log ?? console.error;
  const docs = createDocsPages(deps.docsCredentials ?? (() => undefined));
  const rawRecords = createRawRecordsRoute({ store: deps.store, raw: deps.raw, bodyLimit: deps.bodyLimit, log: reportError, ...(deps.durability ? { durability: deps.durability } : {}) });
  const consolePages = deps.journal ? createConsolePages(deps.adminGuard) : undefined;
  const consoleEvents = deps.journal ? createConsoleEvents(deps.journal, deps.adminGuard) : undefined;
  let specYaml: string | undefined; // built on the first request for it: most runs never ask

  /** A bug of the mock in this host: logged with its stack, answered 500 if nothing was sent yet. */
  const internalError = (request: IncomingMessage, response: ServerResponse, path: string, error: unknown, cors: readonly string[] | undefined): void => {
    reportError(`Internal error on ${request.method} ${request.url}: ${(error as Error).stack ?? String(error)}`);
    if (response.headersSent) {
      response.destroy();
      return;
    }
    send(response, problemReply({ problem: "internalError", detail: "The mock failed on this request; this is a bug of the mock." }, path), cors);
  };

  /**
   * Writes what the core answered: the reply, or nothing on purpose (the socket closed), or nothing (the client
   * left). A bug met while writing is answered like any other (500, or the socket closed if the head went out).
   */
  const deliver = (request: IncomingMessage, response: ServerResponse, path: string, answer: Answer, cors: readonly string[] | undefined): void => {
    try {
      if (answer?.dropped) request.socket.destroy();
      else if (answer) send(response, answer.reply, cors);
    } catch (error) {
      internalError(request, response, path, error, cors);
    }
  };

  /** What this host answers by itself; false hands the request to the core. */
  const ownPage = (request: IncomingMessage, response: ServerResponse, path: string): boolean => {
    const method = request.method;
    if (consolePages?.(request, response, path)) return true;
    if (consoleEvents && path === EVENTS_PATH) {
      consoleEvents(request, response);
      return true;
    }
    if (isRawRecordsPath(path)) {
      const refused = adminRefusal(deps.adminGuard, new NodeRequest(request, response), path);
      if (refused) send(response, refused);
      else rawRecords(request, response, path);
      return true;
    }
    if (method !== "GET" && method !== "HEAD") return false;
    if (path === "/openapi.yaml") {
      request.resume();
      specYaml ??= (require("yaml") as typeof import("yaml")).stringify(contract.document);
      send(response, textReply("application/yaml", specYaml), CORS_HEADERS);
      return true;
    }
    if (docs(request, response, path)) {
      request.resume();
      return true;
    }
    return false;
  };

  return (request, response) => {
    const receivedAt = performance.now();
    if (log) logWhenFinished(request, response, receivedAt, log, deps.now, deps.formatRequest);
    const url = request.url ?? "/";
    const query = url.indexOf("?");
    const path = query === -1 ? url : url.slice(0, query);
    // The admin surface gets no CORS at all, preflight included: no page of another origin may read or
    // write it (its guard refuses such pages outright).
    const cors = isAdminPath(path) ? undefined : CORS_HEADERS;
    if (cors && answerPreflight(request, response)) return;
    try {
      if (ownPage(request, response, path)) return;
    } catch (error) {
      internalError(request, response, path, error, cors);
      return;
    }
    let answer: Answer | Promise<Answer>;
    try {
      answer = deps.answer(new NodeRequest(request, response), receivedAt);
    } catch (error) {
      internalError(request, response, path, error, cors);
      return;
    }
    // Most answers come at once (api-interceptor.ts): written now, without a turn of the microtask queue.
    if (!(answer instanceof Promise)) deliver(request, response, path, answer, cors);
    else {
      answer.then(
        (settled) => deliver(request, response, path, settled, cors),
        (error: unknown) => internalError(request, response, path, error, cors),
      );
    }
  };
}
