import { createServer, type RequestListener, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createContract, type Contract } from "../contract/create-contract.ts";
import type { ContractViolation } from "../contract/contract-violation.ts";
import { formatViolation } from "../contract/contract-violation.ts";
import { createAdminGuard } from "./http/admin-guard.ts";
import { clientOrigin } from "./http/allowed-hosts.ts";
import type { ApiInterceptor } from "./http/api-interceptor.ts";
import { createApp } from "./http/create-app.ts";
import { formatRequestLog } from "./http/request-log-line.ts";
import { messageLine, type LogLevel } from "./log-line.ts";
import { DEFAULT_FIXTURES_PATH, loadFixtures } from "./load-fixtures.ts";
import { createOperationHandlers } from "./operation-handlers.ts";
import { AccountService, DEFAULT_MAX_ACCOUNTS } from "./services/account-service.ts";
import { AgentService } from "./services/agent-service.ts";
import { AutologinTokens } from "./services/autologin-tokens.ts";
import { DocumentService } from "./services/document-service.ts";
import { createDocumentedAnswers } from "./services/documented-answers.ts";
import { FaultRules } from "./services/fault-rules.ts";
import { DEFAULT_JOURNAL_SIZE, RequestJournal, type JournalEntry, type JournalFilter } from "./services/request-journal.ts";
import { journalRequests } from "./http/journal-interceptor.ts";
import { steerRequests } from "./http/steering-interceptor.ts";
import { createSteeringRoutes } from "./http/steering-routes.ts";
import { PropertyService } from "./services/property-service.ts";
import { createDurabilityInterceptor, type Durability } from "./http/when-saved.ts";
import { readServiceProfile, readServiceProfileFile } from "../contract/profile/read-service-profile.ts";
import type { ServiceProfile } from "../contract/profile/service-profile.ts";
import { createProfilePlayback } from "./profile-playback.ts";
import { loadState, type LoadedState } from "./store/load-state.ts";
import { stateFilesOf, StateFileError } from "./store/state-files.ts";
import { DEFAULT_COMPACT_AFTER_BYTES, StateJournal } from "./store/state-journal.ts";
import { RawRecordService } from "./services/raw-records.ts";
import { createRawRecordValidator } from "./store/create-raw-record-validator.ts";
import { MockStore } from "./store/mock-store.ts";
import { SharedState } from "./store/shared-state.ts";
import { chooseState, type ChosenState } from "./store/choose-state.ts";
import { success, type Failure, type Outcome } from "./problems.ts";
import type { AccountRecord, Database } from "./store/records.ts";

import {
  DEFAULT_AGENT_SEATS,
  DEFAULT_BODY_LIMIT,
  DEFAULT_HOST,
  DEFAULT_PORT,
  ProfileRefused,
  StateRefused,
  resolveMockServerOptions,
  type AccountConfig,
  type MockServerOptions,
} from "./mock-server-options.ts";

export {
  DEFAULT_AGENT_SEATS,
  DEFAULT_BODY_LIMIT,
  DEFAULT_HOST,
  DEFAULT_MAX_ACCOUNTS,
  DEFAULT_PORT,
  ProfileRefused,
  StateRefused,
  type AccountConfig,
  type MockServerOptions,
} from "./mock-server-options.ts";
export { NAMED_STATES, STATE_NAMES } from "./store/named-states.ts";

/** Where a started mock listens. */
export interface Listening {
  url: string;
  port: number;
  host: string;
}

/** A mock of the Property Listing Service, to start, use and close. */
export interface MockServer {
  /** The request listener, for in-process requests (`supertest(mock.app)`) without a port. */
  readonly app: RequestListener;
  readonly store: MockStore;
  /** Answers that broke the contract (with `validateResponses`); a test can assert that there are none. */
  readonly violations: Array<{ request: string; errors: ContractViolation[] }>;
  /** Starts listening (port 0 picks a free port). */
  listen(port?: number, host?: string): Promise<Listening>;
  /**
   * Stops listening, ends open connections and writes any pending change. Always settles: it rejects, saying
   * how many changes were not saved and why, when the last write to the `db` fails.
   */
  close(): Promise<void>;
  /** Why the mock is unhealthy (changes cannot be saved), or undefined. */
  problem(): string | undefined;
  /** Puts the start state back (the `state` option's, else the fixtures), removes every fault rule and empties the request journal. */
  reset(): void;
  /**
   * A reset to another state, for one test (`POST /__admin/state`): a shipped state's name (`"empty-account"`,
   * `"seats-full"`, `"many-properties"`, `"fixtures"`) or a state's records (`{ accounts, properties, agents,
   * documents }`, what `GET /__db/db` answers). The records are replaced, the nid sequence starts again after
   * theirs, fault rules and the request journal are emptied; `reset()` later goes back to the start state.
   * Throws a {@link StateRefused}, changing nothing, for an unknown name or records that are not right.
   *
   * @example
   * beforeEach(() => mock.useState("seats-full"));
   */
  useState(state: string | object): void;
  /** The `db` file the state was read from at start, or undefined when the mock started from its fixtures. */
  readonly restoredFrom: string | undefined;
  /** The service profile it plays back: where it came from, its run and when it was recorded. */
  readonly profile: { source: string; runId: string; recordedAt: string } | undefined;
  /**
   * The API requests the mock received, oldest first (the same entries as `GET /__admin/requests`), optionally
   * filtered by method and exact path. `expect(mock).toHaveReceived(...)` reads them.
   */
  requests(filter?: JournalFilter): JournalEntry[];
  /**
   * The fault rules of this mock, as `POST /__admin/faults` adds them: `mock.faults.add(rule)` validates alike
   * (a rule that can match no operation is refused) and answers the rule with its id, `mock.faults.remove(id)`
   * removes that rule alone (`DELETE /__admin/faults/{id}`), `mock.faults.clear()` every one.
   */
  readonly faults: FaultRules;
}

/**
 * Builds the mock: the store holding the seeded state, the services with the rules of the service,
 * and the HTTP application in front of them.
 *
 * @example
 * const mock = createMockServer({ validateResponses: true });
 * const { url } = await mock.listen(0);
 * // … point the client under test at url …
 * await mock.close();
 */
export function createMockServer(given: MockServerOptions = {}): MockServer {
  const options = resolveMockServerOptions(given);
  const contract = options.contract ?? createContract({ closed: true });
  const profiled = options.profile === undefined ? undefined : readProfileOption(options.profile, contract);
  const playback = createProfilePlayback(profiled?.profile);
  const validateRecord = createRawRecordValidator(contract.document, Object.keys(playback.agentNeverSet ?? {}).filter((field) => playback.agentNeverSet![field] === null));
  const fixtures = options.fixtures ?? DEFAULT_FIXTURES_PATH;
  const fixturesSeed = (): Database =>
    withConfiguredAccounts(typeof fixtures === "string" ? loadFixtures(fixtures) : structuredClone(fixtures), options.accounts);
  /** A state a test names or gives (`state`, `POST /__admin/state`, `useState`): what builds it, or why it is refused. */
  const resolveState = (state: unknown) =>
    chooseState(state, { fixtures: fixturesSeed, validate: validateRecord, finish: (records) => withConfiguredAccounts(records, options.accounts) });
  const startState = options.state === undefined ? undefined : chosenOrThrow(resolveState(options.state), typeof options.state === "string" ? options.state : "(given as an object)");
  /** What start and `reset` restore: the start state, else the fixtures. */
  const seed = startState?.build ?? fixturesSeed;
  const files = options.db === undefined ? undefined : stateFilesOf(options.db);
  const loaded: LoadedState | undefined = files && loadState(files, seed, () => options.autologinSecret ?? AutologinTokens.newSecret());
  const logFormat = options.logFormat ?? "text";
  const clock = options.now ?? Date.now;
  /** A message for `log` in its format, or for stderr as it is when there is no `log`. */
  const tell = (level: LogLevel, text: string, fallback?: (text: string) => void): void => {
    if (options.log) options.log(messageLine(logFormat, level, text, clock()));
    else fallback?.(text);
  };
  for (const note of loaded?.notes ?? []) tell("info", note);
  // A restart with --accounts admits the configured accounts, not the ones the file was written with.
  const state = new SharedState<Database>(loaded ? withConfiguredAccounts(loaded.state, options.accounts) : seed());
  const store = new MockStore(state, seed);
  if (loaded) store.advanceSequences(loaded.meta);
  const tokens = new AutologinTokens({
    secret: loaded?.meta.autologin.secret ?? options.autologinSecret ?? AutologinTokens.newSecret(),
    issued: loaded?.meta.autologin.issued ?? 0,
  });
  store.onReset(() => tokens.clear());
  const journal = files && loaded && openJournal(files, loaded);
  const durability: Durability | undefined = journal && { version: () => store.version, saved: () => journal.saved(), problem: () => journal.problem };

  /** The journal every change goes through before it is answered; a place it cannot be opened stops the start. */
  function openJournal(stateFiles: NonNullable<typeof files>, state: LoadedState): StateJournal {
    try {
      const opened = new StateJournal({
        files: stateFiles,
        seq: state.meta.seq,
        sync: options.dbSync ?? "fsync",
        compactAfterBytes: options.dbCompactAfter ?? DEFAULT_COMPACT_AFTER_BYTES,
        state: () => store.state,
        meta: () => ({ ...store.sequences(), autologin: { secret: tokens.secret, issued: tokens.issued } }),
        log: (line, level) => tell(level, line, console.error),
        ...(options.journalIo ? { io: options.journalIo } : {}),
      });
      store.onChange((change) => opened.append(change));
      return opened;
    } catch (error) {
      throw new StateFileError(`Cannot use --db ${stateFiles.snapshot}: ${(error as Error).message}`);
    }
  }
  let baseUrl = options.baseUrl?.replace(/\/+$/, "");
  let listeningAt: string | undefined;
  let listeningHost: string | undefined;
  const configuredHosts = (options.allowedHosts ?? []).map((host) => host.toLowerCase());
  /** The hosts the mock answers to by name (as the admin guard admits them): the loopback, the listed ones, its own address. */
  const admittedHosts = (): readonly string[] =>
    listeningHost && !isWildcard(listeningHost) ? [...configuredHosts, listeningHost.replace(/^\[|\]$/g, "").toLowerCase()] : configuredHosts;
  /** `--base-url` when given; else the address the client used, if the mock admits its host; else where it listens. */
  const autologinBase = (host: string | undefined): string =>
    baseUrl ?? clientOrigin(host, admittedHosts()) ?? listeningAt ?? `http://${DEFAULT_HOST}:${DEFAULT_PORT}`;

  const services = {
    accounts: new AccountService(store, {
      openOnFirstUse: options.accounts === undefined,
      defaultAgentSeats: options.agentSeats ?? playback.seats ?? DEFAULT_AGENT_SEATS,
      maxAccounts: options.maxAccounts ?? DEFAULT_MAX_ACCOUNTS,
    }),
    properties: new PropertyService({
      store,
      tokens,
      autologinUrl: (token, host) => `${autologinBase(host)}/autologin/${token}`,
      newestFirst: playback.newestFirst,
      ...(playback.derived ? { derived: playback.derived } : {}),
      ...(playback.sharedExternalIds ? { sharedExternalIds: true } : {}),
      ...(playback.listItemExtra ? { listItemExtra: playback.listItemExtra } : {}),
      ...(playback.propertyExtra ? { propertyExtra: playback.propertyExtra } : {}),
    }),
    agents: new AgentService(store, playback.agentNeverSet ? { neverSet: playback.agentNeverSet } : {}),
    documents: new DocumentService({ store, now: options.now ?? Date.now }),
  };

  // The two seams of the HTTP layer (src/mock/README.md): the guard every admin request passes first, and the
  // interceptors every API request passes through (a journal, fault rules, latency), outermost first.
  const adminGuard = createAdminGuard({
    ...(options.allowedHosts ? { allowedHosts: options.allowedHosts } : {}),
    ...(baseUrl ? { baseUrl } : {}),
    ...(options.adminToken !== undefined ? { adminToken: options.adminToken } : {}),
    listenHost: () => listeningHost,
  });
  const requestJournal = new RequestJournal(options.journalSize ?? DEFAULT_JOURNAL_SIZE);
  const faults = new FaultRules(contract.operations);
  const documented = createDocumentedAnswers(contract);
  const apiInterceptors: ApiInterceptor[] = [
    ...(requestJournal.capacity > 0 ? [journalRequests(requestJournal)] : []),
    steerRequests({
      faults,
      latency: options.latency,
      ...(options.random ? { random: options.random } : {}),
      documented,
      operationOf: (method, path) => {
        const found = contract.match(method, path);
        return found.kind === "operation" ? found.operation.id : undefined;
      },
      bodyLimit: options.bodyLimit ?? DEFAULT_BODY_LIMIT,
    }),
  ];
  // Innermost, so that whatever runs around it (a delay, a fault) sees the answer only once the change is saved.
  if (durability) apiInterceptors.push(createDurabilityInterceptor(durability));
  /** `mock.reset()` and `POST /__admin/reset`: the seeded state back, no fault rules, an empty journal. */
  const reset = () => {
    store.reset();
    faults.clear();
    requestJournal.clear();
    currentState = startState?.name ?? "fixtures";
  };
  let currentState = startState?.name ?? "fixtures";
  /** `POST /__admin/state` and `mock.useState()`: a reset to another state, or nothing changed and why. */
  const useState = (state: unknown): Outcome<{ name: string }> => {
    const chosen = resolveState(state);
    if (!chosen.ok) return chosen;
    store.replace(chosen.value.build());
    faults.clear();
    requestJournal.clear();
    currentState = chosen.value.name;
    return success({ name: chosen.value.name });
  };

  const violations: MockServer["violations"] = [];
  const app = createApp({
    adminGuard,
    apiInterceptors,
    steering: createSteeringRoutes(requestJournal, faults),
    reset,
    states: { use: useState, current: () => currentState },
    store,
    raw: new RawRecordService(store, validateRecord),
    tokens,
    contract,
    ...(durability ? { durability } : {}),
    accounts: services.accounts,
    handlers: createOperationHandlers(services),
    playback,
    ...(profiled ? { profile: profiled.about } : {}),
    bodyLimit: options.bodyLimit ?? DEFAULT_BODY_LIMIT,
    validateResponses: options.validateResponses ?? false,
    onViolation: (errors, request) => {
      violations.push({ request, errors });
      tell("error", `CONTRACT VIOLATION by the mock on ${request}:\n  ${errors.map(formatViolation).join("\n  ")}`, console.error);
    },
    ...(options.log && !options.quiet ? { log: options.log, formatRequest: formatRequestLog(logFormat) } : {}),
    // A bug met on a request goes where the request log goes, in its format (stderr with --quiet, as before).
    reportError: (text: string) => (options.log && !options.quiet ? tell("error", text) : console.error(text)),
    ...(options.now ? { now: options.now } : {}),
    // The demo account's credentials, never a configured account's: the page is open to whoever reaches the mock.
    docsCredentials: () => {
      const demo = options.accounts ? undefined : store.state.accounts[0];
      return demo && { apiKey: demo.apiKey, token: demo.token };
    },
  });

  let server: Server | undefined;
  /** Stops the encoding of every property's retrieve answer ahead of its first GET, which listening starts. */
  let stopEncoding: (() => void) | undefined;
  return {
    app,
    store,
    violations,
    restoredFrom: loaded?.restored ? options.db : undefined,
    profile: profiled?.about,
    listen(port = options.port ?? DEFAULT_PORT, host = options.host ?? DEFAULT_HOST) {
      if (server) return Promise.reject(new Error("The mock is already listening."));
      const started = createServer(app);
      server = started;
      return new Promise<Listening>((resolve, reject) => {
        started.once("error", (error) => {
          server = undefined;
          reject(error);
        });
        started.listen(port, host, () => {
          const address = started.address() as AddressInfo;
          listeningAt = `http://${displayHost(host)}:${address.port}`;
          listeningHost = host;
          stopEncoding = services.properties.encodeAhead();
          resolve({ url: listeningAt, port: address.port, host });
        });
      });
    },
    async close() {
      stopEncoding?.();
      stopEncoding = undefined;
      const running = server;
      server = undefined;
      if (running) {
        await new Promise<void>((resolve) => {
          running.close(() => resolve());
          running.closeAllConnections();
        });
      }
      await journal?.close();
    },
    problem: () => journal?.problem,
    reset,
    useState(state) {
      const used = useState(state);
      if (!used.ok) throw new StateRefused(typeof state === "string" ? JSON.stringify(state) : "(given as an object)", refusalLines(used.failure));
    },
    requests: (filter) => requestJournal.entries(filter),
    faults,
  };
}

/** A chosen state, or the refusal thrown as a {@link StateRefused} (the `state` option at start). */
function chosenOrThrow(chosen: Outcome<ChosenState>, source: string): ChosenState {
  if (!chosen.ok) throw new StateRefused(source, refusalLines(chosen.failure));
  return chosen.value;
}

/** A refusal as lines for people: its detail, then each offending place. */
function refusalLines(failure: Failure): string[] {
  return [failure.detail, ...(failure.errors ?? []).map((error) => `${error.pointer || "(the state)"} ${error.detail}`)];
}

/** The profile option read and checked, all or nothing, with what names it. */
function readProfileOption(profile: string | ServiceProfile, contract: Contract): { profile: ServiceProfile; about: { source: string; runId: string; recordedAt: string } } {
  const source = typeof profile === "string" ? profile : "(given as an object)";
  const read = typeof profile === "string" ? readServiceProfileFile(profile, contract.document) : readServiceProfile(profile, contract.document);
  if (!read.ok) throw new ProfileRefused(source, read.problems);
  return { profile: read.profile, about: { source, runId: read.profile.runId, recordedAt: read.profile.recordedAt } };
}

/** Whether a listening address is every interface's. */
function isWildcard(host: string): boolean {
  return host === "0.0.0.0" || host === "::" || host === "";
}

/** A host a client can reach: a wildcard address is reached through the loopback. */
function displayHost(host: string): string {
  if (isWildcard(host)) return DEFAULT_HOST;
  return host.includes(":") ? `[${host}]` : host;
}

/** The fixtures with their accounts replaced by the configured ones, when there are any. */
function withConfiguredAccounts(fixtures: Database, accounts: AccountConfig[] | undefined): Database {
  if (!accounts) return fixtures;
  let nextUid = Math.max(0, ...accounts.map((account) => account.uid ?? 0), ...fixtures.accounts.map((account) => account.id)) + 1;
  const configured: AccountRecord[] = accounts.map((account) => ({
    id: account.uid ?? nextUid++,
    apiKey: account.apiKey,
    token: account.token,
    agentSeats: account.agentSeats ?? DEFAULT_AGENT_SEATS,
    name: account.name ?? `Configured account ${account.apiKey}`,
  }));
  return { ...fixtures, accounts: configured };
}
