import { http, type HttpHandler } from "msw";
import type { Contract } from "../../contract/build-contract.ts";
import { builtInContract } from "../../contract/built-in-contract.ts";
import type { ContractViolation } from "../../contract/contract-violation.ts";
import { escapeRegExp } from "../../contract/escape-reg-exp.ts";
import { DEFAULT_FIXTURES_JSON } from "../../generated/default-fixtures.ts";
import { createMockCore, withConfiguredAccounts } from "../../mock/create-mock-core.ts";
import { definedOnly } from "../../mock/defined-only.ts";
import {
  ANY,
  checkOptions,
  coreOptionsOf,
  MOCK_OPTIONS,
  readLatency,
  type CheckedMockOptions,
  type MockOptions,
  type OptionDescriptor,
} from "../../mock/mock-options.ts";
import type { Playback } from "../../mock/profile-playback.ts";
import { mockFaults, type MockFaults } from "../../mock/mock-faults.ts";
import type { Latency } from "../../mock/services/latency.ts";
import type { JournalEntry, JournalFilter } from "../../mock/services/request-journal.ts";
import type { MockStore } from "../../mock/store/mock-store.ts";
import { describeRecordFault, firstRecordFault } from "../../mock/store/record-fault.ts";
import type { Database } from "../../mock/store/records.ts";
import { chooseState as chooseStateWith, type ChosenState } from "../../mock/store/choose-state.ts";
import type { RawRecordValidator } from "../../mock/store/raw-record-validator.ts";
import { refusalLines, type Outcome } from "../../mock/problems.ts";
import { mockRequestOf, responseOf } from "../fetch/fetch-exchange.ts";
import { storagePersistence, type KeyValueStorage } from "./storage-persistence.ts";
import { operationUrl } from "./operation-url.ts";
import { createOverrideObserver, type ObservedNetwork } from "./override-observer.ts";
import type { UsageControl } from "../../mock/usage/usage-recorder.ts";
import { registerUsage } from "../../mock/usage/usage-registry.ts";
import { usageOptionProblem } from "../../mock/usage/check-usage-option.ts";
import type { AnswersDocument } from "../../contract/usage/answers-document.ts";
import type { AnswersServer } from "../../mock/answers/answers-server.ts";
import { answersOption } from "./answers-option.ts";

/** Options of {@link createMockHandlers}: the server's own where they make sense in a browser ({@link MockOptions}). */
export interface MockHandlersOptions extends MockOptions {
  /**
   * The origin the handlers answer (and, with a path, the prefix the mock's paths follow): `http://localhost:4010`,
   * `https://api.example.test/mock`. By default the page's origin in a browser, and any origin elsewhere (Node).
   * Auto-login links start with it (`http://localhost` when it is any origin).
   */
  baseUrl?: string;
  /** The state to start from (a `Database` object); the shipped fixtures by default. */
  fixtures?: Database;
  /**
   * A shipped state to start from, made from the fixtures: `"empty-account"`, `"seats-full"`, `"many-properties"`
   * or `"fixtures"` (docs/setting-up-a-test.md). `reset()` comes back to it.
   */
  state?: string;
  /**
   * The check of a state's records, from `await loadRecordChecker()` (it brings a schema compiler): with it,
   * `useState(records)` and `POST /__admin/state` with records work as on the Node server; without it, a state is a
   * shipped name, and your own records are the `fixtures` option.
   */
  checkRecords?: RawRecordValidator;
  /**
   * A service profile to play back, as read and checked by `loadProfilePlayback` of `property-listing-kit/msw`
   * (profiles need a schema compiler, which this module leaves out so that it stays small).
   */
  playback?: LoadedPlayback;
  /** Told of a contract violation of the mock or a bug met on a request; `console.error` by default. */
  log?: (line: string) => void;
  /**
   * Keep the state across a reload of the page (opt-in): in the page's `sessionStorage` or `localStorage`, or in
   * any object with `getItem`, `setItem` and `removeItem`. `reset()` brings back the seed there too.
   */
  persist?: "sessionStorage" | "localStorage" | KeyValueStorage;
  /** The storage key of the kept state; one per base URL by default. */
  persistKey?: string;
  /**
   * Serve a service's answers (`property-listing-contract --write-answers`): the document or its JSON text. While
   * a test runs, its requests get what the service answered the same test's recorded interactions, in order;
   * others are answered as the mock would, and `mock.answers.notCovered()` lists them. In Node, with `usage`
   * given and no `answers`, the file `MOCK_ANSWERS` names is served. Nothing is recorded meanwhile: `mock.usage`
   * reads back the usage the answers were made from.
   */
  answers?: AnswersDocument | string;
}

/** A service profile made ready for playback (`loadProfilePlayback`). */
export interface LoadedPlayback {
  playback: Playback;
  about: { source: string; runId: string; recordedAt: string };
}

/** A handler set: MSW's handlers and the mock behind them. */
export interface MockHandlers {
  /** For `setupWorker(...handlers)` (msw/browser) and `setupServer(...handlers)` (msw/node). */
  readonly handlers: HttpHandler[];
  /** Puts the seeded state back, removes every fault rule and empties the request journal. */
  reset(): void;
  /**
   * A reset to a shipped state for one test (`POST /__admin/state` does the same): fault rules and the journal
   * emptied too; `reset()` later goes back to the start state. Your own records (`{ accounts, properties, agents,
   * documents }`) too, given the `checkRecords` option. Throws a `TypeError`, changing nothing, for an unknown
   * name or records that are not right.
   *
   * @example
   * beforeEach(() => mock.useState("seats-full"));
   */
  useState(state: string | object): void;
  /** The API requests received, oldest first, optionally filtered: `expect(mock).toHaveReceived(...)` reads them. */
  requests(filter?: JournalFilter): JournalEntry[];
  /**
   * Resolves once the requests your own handlers answered (with `observe`) have their status and body in the
   * journal. In a page, MSW reports an override's answer a moment after the page's fetch resolved: await this
   * before `requests()` or `toHaveReceived` there (`GET /__admin/requests` waits by itself). In Node the answer is
   * there when the fetch resolves. Waits at most 5 seconds.
   *
   * @example
   * await fetch("/api/v1/object/agent_cards", { headers });
   * await mock.settled();
   * expect(mock).toHaveReceived({ path: "/api/v1/object/agent_cards", overridden: true, status: 200 });
   */
  settled(): Promise<void>;
  /**
   * The fault rules (`POST /__admin/faults` adds them too); `faults.add` throws a `MockRefused` where the route
   * refuses.
   */
  readonly faults: MockFaults;
  /** Answers that broke the contract (with `validateResponses`). */
  readonly violations: Array<{ request: string; errors: ContractViolation[] }>;
  /** The records, for a test that looks at the state itself (what `/__db` gives where the Node server runs). */
  readonly store: MockStore;
  /** The origin (and prefix) the handlers answer, or undefined for any origin. */
  readonly baseUrl: string | undefined;
  /**
   * One MSW handler for one operation of the contract (its method and path alone), answering as the mock does
   * from the same state: to compose a set of your own, or to put the mock's answer back after an override.
   * Throws a `TypeError` naming the operations for an unknown id.
   *
   * @example
   * server.use(mock.handlerFor("listUserProperties"));
   */
  handlerFor(operationId: string): HttpHandler;
  /**
   * Keeps the API requests your own handlers answer (`server.use(http.get(...))`, which runs before the mock's) in
   * this mock's journal, marked `overridden: true` with the status they answered, so `requests()`,
   * `GET /__admin/requests` and `toHaveReceived` still see them. Give it what `setupServer()` or `setupWorker()`
   * returned; the function returned stops it.
   *
   * @example
   * const server = setupServer(...mock.handlers);
   * mock.observe(server);
   */
  observe(network: ObservedNetwork): () => void;
  /**
   * The consumer's usage, with the `usage` option (undefined without); while answers are served, the usage they
   * answer.
   */
  readonly usage: UsageControl | undefined;
  /** The service's answers served (the `answers` option, `MOCK_ANSWERS`), or undefined. */
  readonly answers: AnswersServer | undefined;
}

/**
 * The options and their checks: the ones every host shares (mock-options.ts), and this host's, whose values are
 * read where they are used (`baseOf`, `storageOf`, `chooseState`, `answersOption`) or taken as they are.
 */
const HANDLER_OPTIONS = {
  baseUrl: ANY,
  fixtures: {
    problem: (value) =>
      typeof value === "object" && value !== null ? undefined : '"fixtures" must be a state object (a Database).',
  },
  state: ANY,
  checkRecords: ANY,
  ...MOCK_OPTIONS,
  usage: {
    problem: (value) =>
      usageOptionProblem(value) ??
      ((value as { file?: unknown }).file === undefined
        ? undefined
        : '"usage.file" is the Node server\'s; here, write mock.usage.toJSON() where you want it.'),
  },
  playback: ANY,
  log: ANY,
  persist: ANY,
  persistKey: ANY,
  answers: ANY,
} as const satisfies { [Name in keyof Required<MockHandlersOptions>]: OptionDescriptor };

/** The paths of the mock: only these are answered, so that the page's own files and other calls go on. */
const MOCK_PATHS = /^\/(?:api(?:\/|$)|__admin(?:\/|$)|__db(?:\/|$)|healthz$|openapi\.json$|autologin\/)/;

let sharedContract: Contract | undefined;

/**
 * The stateful, validating mock as MSW request handlers, answering as the Node server does (the same core). Each
 * call makes a handler set with its own state, seeded from the shipped fixtures (no faker at run time).
 *
 * @example
 * // Node (vitest, jest): the handlers answer in-process
 * import { setupServer } from "msw/node";
 * import { createMockHandlers } from "property-listing-kit/msw";
 * const mock = createMockHandlers({ baseUrl: "http://localhost:4010" });
 * const server = setupServer(...mock.handlers);
 * server.listen(); afterEach(() => mock.reset()); afterAll(() => server.close());
 */
export function createMockHandlers(options: MockHandlersOptions = {}): MockHandlers {
  const given = checkHandlerOptions(options);
  const base = baseOf(given.baseUrl);
  const fixtures = given.fixtures;
  // Checked once, here: a record the store cannot hold is refused at once, not met when its answer is encoded.
  const fixturesFault = fixtures ? firstRecordFault(fixtures) : undefined;
  if (fixturesFault)
    throw new TypeError(
      `createMockHandlers: "fixtures" hold a record the mock cannot hold: ${describeRecordFault(fixturesFault)}.`,
    );
  const fixturesSeed = (): Database =>
    withConfiguredAccounts(
      fixtures ? structuredClone(fixtures) : (JSON.parse(DEFAULT_FIXTURES_JSON) as Database),
      given.accounts,
    );
  /** Shipped states by name, and records when there is a check for them (`checkRecords`). */
  const checkRecords = given.checkRecords;
  const chooseState = (state: unknown): Outcome<ChosenState> =>
    chooseStateWith(state, {
      fixtures: fixturesSeed,
      validate: checkRecords,
      recordsRefused:
        "A state of your own records needs the checkRecords option of createMockHandlers (checkRecords: await " +
        "loadRecordChecker()); without it, give a shipped state's name, or your records as the fixtures option.",
      finish: (records) => withConfiguredAccounts(records, given.accounts),
    });
  const startState = given.state === undefined ? undefined : chooseState(given.state);
  if (startState && !startState.ok) throw new TypeError(`createMockHandlers: "state": ${startState.failure.detail}`);
  const seed = startState?.value.build ?? fixturesSeed;
  // Compiled once for all handler sets: the contract holds no state.
  const contract = (sharedContract ??= builtInContract({ closed: true }));
  const log = given.log ?? ((line: string) => console.error(line));
  const storage = storageOf(given.persist);
  const answers = answersOption(given.answers, given.usage, "createMockHandlers");
  const core = createMockCore({
    contract,
    seed,
    seedName: startState?.value.name ?? "fixtures",
    chooseState,
    ...coreOptionsOf(given),
    ...definedOnly({
      persistence:
        storage &&
        storagePersistence(storage, given.persistKey ?? `property-listing-kit/msw ${base.origin ?? "*"}${base.prefix}`),
      baseUrl: base.origin && `${base.origin}${base.prefix}`,
      playback: given.playback?.playback,
      profile: given.playback?.about,
      answers,
    }),
    defaultBaseUrl: () => "http://localhost",
    inProcess: true,
    tell: (_level, text) => log(text),
    reportError: log,
  });
  const usage = core.usage ?? core.answers;
  if (usage) registerUsage(usage);

  const pattern = base.origin
    ? new RegExp(`^${escapeRegExp(base.origin + base.prefix)}/`)
    : /^[a-z][a-z0-9+.-]*:\/\/[^/]+\//i;
  const overrides = createOverrideObserver({
    journal: core.journal,
    apiPath: (url) => {
      if (base.origin !== undefined && url.origin !== base.origin) return undefined;
      if (!url.pathname.startsWith(`${base.prefix}/api/`)) return undefined;
      return url.pathname.slice(base.prefix.length);
    },
  });
  const resolve = async ({ request, requestId }: { request: Request; requestId: string }) => {
    const url = new URL(request.url);
    const path = url.pathname.slice(base.prefix.length);
    if (!MOCK_PATHS.test(path)) return undefined; // not the mock's: the next handler, or the network
    overrides.answered(requestId);
    // The journal as the page's earlier requests left it, overrides' answers included.
    if (path.startsWith("/__admin/requests")) await overrides.settled();
    return responseOf(await core.answer(mockRequestOf(request, path, url.search)));
  };
  const handler = http.all(pattern, resolve);

  return {
    handlers: [handler],
    reset: core.reset,
    useState(state) {
      const used = core.useState(state);
      if (!used.ok) throw new TypeError(`useState: ${refusalLines(used.failure).join("\n  ")}`);
    },
    requests: (filter) => core.requests(filter),
    settled: () => overrides.settled(),
    faults: mockFaults(core.faults),
    violations: core.violations,
    store: core.store,
    baseUrl: base.origin ? `${base.origin}${base.prefix}` : undefined,
    handlerFor(operationId) {
      const operation = contract.operations.find((candidate) => candidate.id === operationId);
      if (!operation)
        throw new TypeError(
          `handlerFor: no operation is called ${JSON.stringify(String(operationId)).slice(0, 100)}. ` +
            `The operations are ${contract.operations.map((candidate) => candidate.id).join(", ")}.`,
        );
      const method = operation.method.toLowerCase() as "get" | "post" | "put" | "delete" | "patch";
      return http[method](operationUrl(operation, base), resolve);
    },
    observe: (network) => overrides.observe(network),
    usage,
    answers: core.answers,
  };
}

/** The options checked once, at the edge: an unknown name or a wrong value is a `TypeError` saying which. */
function checkHandlerOptions(options: MockHandlersOptions): Omit<MockHandlersOptions, "latency"> & CheckedMockOptions {
  checkOptions(options, HANDLER_OPTIONS, "createMockHandlers");
  const { latency, ...rest } = options;
  return {
    ...rest,
    ...definedOnly({ latency: latency === undefined ? undefined : (readLatency(latency) as Latency) }),
  };
}

/** The storage `persist` names, or undefined without it. */
function storageOf(persist: MockHandlersOptions["persist"]): KeyValueStorage | undefined {
  if (persist === undefined) return undefined;
  if (typeof persist === "object" && persist !== null && typeof persist.getItem === "function") return persist;
  if (persist === "sessionStorage" || persist === "localStorage") {
    const storage = (globalThis as Record<string, unknown>)[persist] as KeyValueStorage | undefined;
    if (!storage)
      throw new TypeError(
        `createMockHandlers: "persist" is ${persist}, which this host does not have (a browser page has it).`,
      );
    return storage;
  }
  throw new TypeError(
    'createMockHandlers: "persist" must be "sessionStorage", "localStorage" or an object with getItem, setItem ' +
      "and removeItem.",
  );
}

/** The origin and path prefix the handlers answer; no origin means any (outside a browser, without baseUrl). */
function baseOf(baseUrl: string | undefined): { origin: string | undefined; prefix: string } {
  const page = (globalThis as { location?: { origin?: string } }).location?.origin;
  const given = baseUrl ?? (page && page !== "null" ? page : undefined);
  if (given === undefined) return { origin: undefined, prefix: "" };
  let url: URL;
  try {
    url = new URL(given);
  } catch {
    throw new TypeError(
      'createMockHandlers: "baseUrl" must be an absolute http(s) URL such as http://localhost:4010, ' +
        `got ${JSON.stringify(given)}.`,
    );
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new TypeError(`createMockHandlers: "baseUrl" must be an http(s) URL, got ${JSON.stringify(given)}.`);
  return { origin: url.origin, prefix: url.pathname.replace(/\/+$/, "") };
}
