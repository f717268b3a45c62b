import type { Contract } from "../contract/build-contract.ts";
import { formatViolation, type ContractViolation } from "../contract/contract-violation.ts";
import { DEFAULT_AGENT_SEATS, DEFAULT_BODY_LIMIT } from "./defaults.ts";
import { createAdminGuard } from "./http/admin-guard.ts";
import { admittedHosts, clientOrigin } from "./http/allowed-hosts.ts";
import type { ApiInterceptor } from "./http/api-interceptor.ts";
import { createRequestAnswerer, type AnswerRequest, type RequestAnswerer } from "./http/answer-requests.ts";
import { journalRequests } from "./http/journal-interceptor.ts";
import { steerRequests } from "./http/steering-interceptor.ts";
import { createRequestAndFaultRoutes } from "./http/request-and-fault-routes.ts";
import { createDurabilityInterceptor, type Durability } from "./http/when-saved.ts";
import type { LogLevel } from "./log-line.ts";
import { createOperationHandlers } from "./operation-handlers.ts";
import { OWN_ANSWERS, type Playback } from "./profile-playback.ts";
import type { AccountConfig } from "./account-config.ts";
import { AccountService, DEFAULT_MAX_ACCOUNTS } from "./services/account-service.ts";
import { AgentService } from "./services/agent-service.ts";
import { AutologinTokens } from "./services/autologin-tokens.ts";
import { DocumentService } from "./services/document-service.ts";
import { createDocumentedAnswers } from "./services/documented-answers.ts";
import type { CheckedMockOptions } from "./mock-options.ts";
import { definedOnly } from "./defined-only.ts";
import { FaultRules } from "./services/fault-rules.ts";
import type { Latency } from "./services/latency.ts";
import { PropertyService } from "./services/property-service.ts";
import { ProviderStates } from "./services/provider-states.ts";
import {
  DEFAULT_JOURNAL_SIZE,
  RequestJournal,
  type JournalEntry,
  type JournalFilter,
} from "./services/request-journal.ts";
import { MockStore } from "./store/mock-store.ts";
import type { ChosenState } from "./store/choose-state.ts";
import { failure, success, type Outcome } from "./problems.ts";
import { RecordRefused } from "./store/record-fault.ts";
import { StateFileError } from "./store/state-file-error.ts";
import { FixturesUnreadable } from "./fixtures-unreadable.ts";
import type { AccountRecord, Database } from "./store/records.ts";
import { SharedState } from "./store/shared-state.ts";
import type { ChangeLog, StatePersistence } from "./store/state-persistence.ts";
import { createConsoleRoutes, type LatencyControl } from "./console/console-routes.ts";
import { Coverage } from "./console/coverage.ts";
import { createAnswerBasis } from "./usage/answer-basis.ts";
import { recordUsage } from "./usage/usage-interceptor.ts";
import { UsageRecorder } from "./usage/usage-recorder.ts";
import { AnswersServer } from "./answers/answers-server.ts";
import type { AnswersDocument } from "../contract/usage/answers-document.ts";

/**
 * What the core is built from: the contract, the seed, the options every host shares, already checked
 * (mock-options.ts), and what each host gives of itself.
 */
export interface MockCoreOptions extends CheckedMockOptions {
  /** The contract the mock routes, validates and checks its answers with (closed, as the mock reads it). */
  contract: Contract;
  /**
   * The seeded state: the fixtures, with the configured accounts when there are (see
   * {@link withConfiguredAccounts}).
   */
  seed: () => Database;
  /** The name of the state `seed` builds (a shipped state's, `"given"`, or `"fixtures"`, the default). */
  seedName?: string;
  /**
   * A state a test names or gives (`POST /__admin/state`, `useState`): what builds it, or why it is refused
   * (store/choose-state.ts). Without, only the seed's state can be used.
   */
  chooseState?: (state: unknown) => Outcome<ChosenState>;
  /** Where the state outlives the mock; in memory only without. */
  persistence?: StatePersistence;
  /** The public base address (auto-login links, the admin guard's own origin). */
  baseUrl?: string;
  /** Where links point when there is no `baseUrl` (the Node host: where it listens). */
  defaultBaseUrl?: () => string;
  allowedHosts?: readonly string[];
  /** The address the host listens on, once it does, for the admin guard. */
  listenHost?: () => string | undefined;
  /** The host delivers requests from inside the process (MSW): the admin guard does not check `Host`. */
  inProcess?: boolean;
  /** How failures and successes are answered (a service profile's way); the mock's own without. */
  playback?: Playback;
  /** The profile played back, named by `/healthz`. */
  profile?: { source: string; runId: string; recordedAt: string };
  /** Told of what a person should know: a contract violation of the mock, a state that cannot be saved. */
  tell: (level: LogLevel, text: string) => void;
  /** Told of a bug met on a request (its stack). */
  reportError: (text: string) => void;
  /** Where the host serves the API reference, for the index page; none when it serves none. */
  docsPath?: string;
  /** Where the host serves the console's page, for the index page; none when it serves none. */
  consolePath?: string;
  /**
   * Serve a service's answers to the suite that recorded the usage they answer (answers/answers-server.ts),
   * checked (answers/check-answers.ts). Nothing is recorded meanwhile: the usage stays the one recorded.
   */
  answers?: AnswersDocument;
}

/** The host-neutral mock: one function of a request, and what a test or a host does with the mock besides. */
export interface MockCore {
  /** Answers one request (mock-request.ts): what a host calls for every request. */
  readonly answer: AnswerRequest;
  /** The same router with a host's own routes (route-table.ts, `host: true`), and its one 500 answer. */
  readonly router: RequestAnswerer;
  readonly store: MockStore;
  readonly tokens: AutologinTokens;
  readonly contract: Contract;
  readonly playback: Playback;
  /** Answers that broke the contract (with `validateResponses`). */
  readonly violations: Array<{ request: string; errors: ContractViolation[] }>;
  readonly faults: FaultRules;
  readonly adminGuard: ReturnType<typeof createAdminGuard>;
  /** With a persistence port: when changes are saved. */
  readonly durability: Durability | undefined;
  /** The state read back by the persistence port at start, if any. */
  readonly restored: boolean;
  /** The consumer's usage, when it is recorded (the `usage` option). */
  readonly usage: UsageRecorder | undefined;
  /** The service's answers served, with the `answers` option: tests begin on it as on a recording. */
  readonly answers: AnswersServer | undefined;
  /** Puts the seeded state back, removes every fault rule and empties the request journal. */
  reset(): void;
  /** A reset to another state (a shipped name or records): fault rules and the journal emptied too; or why not. */
  useState(state: unknown): Outcome<{ name: string }>;
  /** The name of the state the mock was last set to. */
  currentState(): string;
  /** The API requests received, oldest first, optionally filtered. */
  requests(filter?: JournalFilter): JournalEntry[];
  /**
   * The request journal itself, for a host that records requests answered past the core (MSW overrides) or
   * follows it live (the console's server-sent events).
   */
  readonly journal: RequestJournal;
  /** Which operations and documented responses the session exercised. */
  readonly coverage: Coverage;
  /** Why changes cannot be saved, or undefined. */
  problem(): string | undefined;
  /** Saves what is pending (the `--db` change log). */
  close(): Promise<void>;
}

/**
 * Builds the mock's core: the store holding the seeded (or restored) state, the services with the rules of the
 * service, the interceptors (journal, faults, latency, durability), the admin surface, and the router in front
 * of them. It imports no `node:` module and no Node-only package: the Node server (src/hosts/node) and
 * MSW's handlers (src/hosts/msw) are adapters over {@link MockCore.answer}.
 */
export function createMockCore(options: MockCoreOptions): MockCore {
  const { contract, seed } = options;
  const loaded = options.persistence?.restored;
  // A restart with --accounts admits the configured accounts, not the ones the file was written with.
  const state = new SharedState<Database>(loaded ? withConfiguredAccounts(loaded.state, options.accounts) : seed());
  const store = new MockStore(state, seed);
  if (loaded) store.advanceSequences(loaded.meta);
  const playback = options.playback ?? OWN_ANSWERS;
  const tokens = new AutologinTokens({
    secret: loaded?.meta.autologin.secret ?? options.autologinSecret ?? AutologinTokens.newSecret(),
    issued: loaded?.meta.autologin.issued ?? 0,
  });
  store.onReset(() => tokens.clear());
  // The change log that saves the state (`--db`); the request journal lists API calls.
  let changeLog: ChangeLog | undefined;
  if (options.persistence) {
    const opened = options.persistence.open({
      state: () => store.state,
      meta: () => ({ ...store.sequences(), autologin: { secret: tokens.secret, issued: tokens.issued } }),
      log: (line, level) => options.tell(level, line),
    });
    store.onChange((change) => opened.append(change));
    changeLog = opened;
  }
  const durability: Durability | undefined = changeLog && {
    version: () => store.version,
    saved: () => changeLog.saved(),
    problem: () => changeLog.problem,
  };
  const baseUrl = options.baseUrl?.replace(/\/+$/, "");
  const configuredHosts = (options.allowedHosts ?? []).map((host) => host.toLowerCase());
  /** The base URL when given; else the address the client used, if the mock admits its host; else the host's. */
  const autologinBase = (host: string | undefined): string =>
    baseUrl ??
    clientOrigin(host, admittedHosts(configuredHosts, options.listenHost?.())) ??
    options.defaultBaseUrl?.() ??
    "";

  const services = {
    accounts: new AccountService({
      store,
      openOnFirstUse: options.accounts === undefined,
      defaultAgentSeats: options.agentSeats ?? playback.seats ?? DEFAULT_AGENT_SEATS,
      maxAccounts: options.maxAccounts ?? DEFAULT_MAX_ACCOUNTS,
    }),
    properties: new PropertyService({
      store,
      tokens,
      autologinUrl: (token, host) => `${autologinBase(host)}/autologin/${token}`,
      newestFirst: playback.newestFirst,
      sharedExternalIds: playback.sharedExternalIds,
      listItemExtra: playback.listItemExtra,
      propertyExtra: playback.propertyExtra,
      ...definedOnly({ derived: playback.derived, neverSet: playback.propertyNeverSet }),
    }),
    agents: new AgentService(store, definedOnly({ neverSet: playback.agentNeverSet })),
    documents: new DocumentService({ store, now: options.now ?? Date.now }),
  };

  // The two seams of the HTTP layer (src/mock/README.md): the guard every admin request passes first, and the
  // interceptors every API request passes through (a journal, fault rules, latency), outermost first.
  const adminGuard = createAdminGuard(
    definedOnly({
      allowedHosts: options.allowedHosts,
      baseUrl: baseUrl || undefined,
      adminToken: options.adminToken,
      listenHost: options.listenHost,
      inProcess: options.inProcess,
    }),
  );
  const requestJournal = new RequestJournal(options.journalSize ?? DEFAULT_JOURNAL_SIZE);
  const faults = new FaultRules(contract.operations);
  const documented = createDocumentedAnswers(contract);
  const bodyLimit = options.bodyLimit ?? DEFAULT_BODY_LIMIT;
  const coverage = new Coverage(contract);
  requestJournal.countAnswers((operationId, status) => coverage.record(operationId, status));
  // Read by the steering interceptor on every call: PUT /__admin/latency changes it for the next one.
  const latencyNow: { latency: Latency | undefined } = { latency: options.latency };
  const latencyControl: LatencyControl = {
    get: () => latencyNow.latency,
    set: (latency) => (latencyNow.latency = latency),
  };
  const apiInterceptors: ApiInterceptor[] = [
    ...(requestJournal.capacity > 0 ? [journalRequests(requestJournal)] : []),
    steerRequests({
      faults,
      get latency() {
        return latencyNow.latency;
      },
      ...definedOnly({ random: options.random }),
      documented,
      operationOf: (method, path) => {
        const found = contract.match(method, path);
        return found.kind === "operation" ? found.operation.id : undefined;
      },
      bodyLimit,
    }),
  ];
  // Innermost, so that whatever runs around it (a delay, a fault) sees the answer only once the change is saved.
  if (durability) apiInterceptors.push(createDurabilityInterceptor(durability));
  let currentState = options.seedName ?? "fixtures";
  const answers = options.answers && new AnswersServer(options.answers, contract);
  // Inside the faults: a fault a test asks for is the mock's, as it was while recording.
  if (answers) apiInterceptors.push(answers.interceptor());
  const usage = answers
    ? undefined
    : options.usage &&
      new UsageRecorder({
        consumer: options.usage.consumer,
        contract,
        store,
        basis: createAnswerBasis(contract, {
          playing: options.profile !== undefined,
          agentUnset: new Set(Object.keys(playback.agentNeverSet ?? {})),
          propertyUnset: new Set(Object.keys(playback.propertyNeverSet ?? {})),
        }),
        currentState: () => currentState,
        configured: options.accounts !== undefined,
        now: options.now ?? Date.now,
        ...definedOnly({ profile: options.profile, limits: options.usage.limits }),
      });
  // Beside the journal, outside the faults: it sees what a test asked for, and leaves those answers out.
  if (usage) apiInterceptors.splice(requestJournal.capacity > 0 ? 1 : 0, 0, recordUsage(usage));
  const reset = () => {
    store.reset();
    faults.clear();
    requestJournal.clear();
    latencyNow.latency = options.latency;
    currentState = options.seedName ?? "fixtures";
    usage?.stateChanged();
  };
  /** `POST /__admin/reset`: a reset, or why not (a seed read again that is refused now), nothing changed. */
  const answerReset = (): Outcome<void> => built(reset);
  const useState = (given: unknown): Outcome<{ name: string }> => {
    const chosen = options.chooseState?.(given) ?? failure("invalidState", "This mock was built without named states.");
    if (!chosen.ok) return chosen;
    const state = built(chosen.value.build);
    if (!state.ok) return state;
    store.replace(state.value);
    faults.clear();
    requestJournal.clear();
    currentState = chosen.value.name;
    usage?.stateChanged();
    return success({ name: chosen.value.name });
  };

  const violations: MockCore["violations"] = [];
  const router = createRequestAnswerer({
    adminGuard,
    apiInterceptors,
    requestsAndFaults: createRequestAndFaultRoutes(requestJournal, faults),
    reset: answerReset,
    states: { use: useState, current: () => currentState },
    providerStates: new ProviderStates({ contract, services, store, reset: answerReset }),
    usage: usage ?? answers,
    store,
    tokens,
    contract,
    accounts: services.accounts,
    handlers: createOperationHandlers(services),
    playback,
    bodyLimit,
    validateResponses: options.validateResponses ?? false,
    onViolation: (errors, request) => {
      violations.push({ request, errors });
      options.tell(
        "error",
        `CONTRACT VIOLATION by the mock on ${request}:\n  ${errors.map(formatViolation).join("\n  ")}`,
      );
    },
    reportError: options.reportError,
    console: createConsoleRoutes({ journal: requestJournal, coverage, latency: latencyControl }),
    ...definedOnly({
      durability,
      profile: options.profile,
      docsPath: options.docsPath || undefined,
      consolePath: options.consolePath || undefined,
    }),
  });

  return {
    answer: router.answer,
    router,
    store,
    tokens,
    contract,
    playback,
    violations,
    faults,
    adminGuard,
    durability,
    restored: loaded?.restored ?? false,
    usage,
    answers,
    reset,
    useState,
    currentState: () => currentState,
    requests: (filter) => requestJournal.entries(filter),
    journal: requestJournal,
    coverage,
    problem: () => changeLog?.problem,
    close: async () => changeLog?.close(),
  };
}

/** The fixtures with their accounts replaced by the configured ones, when there are any. */
export function withConfiguredAccounts(fixtures: Database, accounts: AccountConfig[] | undefined): Database {
  if (!accounts) return fixtures;
  let nextUid =
    Math.max(0, ...accounts.map((account) => account.uid ?? 0), ...fixtures.accounts.map((account) => account.id)) + 1;
  const configured: AccountRecord[] = accounts.map((account) => ({
    id: account.uid ?? nextUid++,
    apiKey: account.apiKey,
    token: account.token,
    agentSeats: account.agentSeats ?? DEFAULT_AGENT_SEATS,
    name: account.name ?? `Configured account ${account.apiKey}`,
  }));
  return { ...fixtures, accounts: configured };
}

/**
 * Runs what builds a seed or a shipped state again (a fixtures file is read again on every reset), and answers
 * the refusal of a seed whose file changed since the start as a failure, instead of a 500: gone or no longer
 * JSON, no longer a state, or holding a record the store cannot hold. The state is replaced only once built, so
 * nothing was changed.
 */
function built<T>(build: () => T): Outcome<T> {
  try {
    return success(build());
  } catch (error) {
    if (!SEED_REFUSALS.some((refusal) => error instanceof refusal)) throw error;
    return failure(
      "seedRefused",
      `${(error as Error).message} Nothing was changed; mend the file, or start the mock again.`,
    );
  }
}

/** What reading a seed again may refuse it with (an other exception is a bug of the mock: 500). */
const SEED_REFUSALS = [RecordRefused, FixturesUnreadable, StateFileError];
