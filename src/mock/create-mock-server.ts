import { createServer, type RequestListener, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createContract, type Contract } from "../contract/create-contract.ts";
import type { ContractViolation } from "../contract/contract-violation.ts";
import { formatViolation } from "../contract/contract-violation.ts";
import { createAdminGuard } from "./http/admin-guard.ts";
import type { ApiInterceptor } from "./http/api-interceptor.ts";
import { createApp } from "./http/create-app.ts";
import { formatRequestLog } from "./http/request-log-line.ts";
import { LOG_FORMATS, messageLine, type LogFormat, type LogLevel } from "./log-line.ts";
import { DEFAULT_FIXTURES_PATH, loadFixtures } from "./load-fixtures.ts";
import { createOperationHandlers } from "./operation-handlers.ts";
import { AccountService, DEFAULT_MAX_ACCOUNTS } from "./services/account-service.ts";
import { AgentService } from "./services/agent-service.ts";
import { AutologinTokens } from "./services/autologin-tokens.ts";
import { DocumentService } from "./services/document-service.ts";
import { createDocumentedAnswers } from "./services/documented-answers.ts";
import { FaultRules } from "./services/fault-rules.ts";
import { parseLatency, type Latency } from "./services/latency.ts";
import { DEFAULT_JOURNAL_SIZE, MAX_JOURNAL_SIZE, RequestJournal, type JournalEntry, type JournalFilter } from "./services/request-journal.ts";
import { journalRequests } from "./http/journal-interceptor.ts";
import { steerRequests } from "./http/steering-interceptor.ts";
import { createSteeringRoutes } from "./http/steering-routes.ts";
import { PropertyService } from "./services/property-service.ts";
import { readAccountsFile } from "./read-accounts-file.ts";
import { createDurabilityInterceptor, type Durability } from "./http/when-saved.ts";
import { readServiceProfile, readServiceProfileFile } from "../contract/profile/read-service-profile.ts";
import type { ServiceProfile } from "../contract/profile/service-profile.ts";
import { createProfilePlayback } from "./profile-playback.ts";
import { loadState, type LoadedState } from "./store/load-state.ts";
import { stateFilesOf, StateFileError } from "./store/state-files.ts";
import { DEFAULT_COMPACT_AFTER_BYTES, StateJournal, type JournalIo, type SyncMode } from "./store/state-journal.ts";
import { RawRecordService } from "./services/raw-records.ts";
import { createRawRecordValidator } from "./store/create-raw-record-validator.ts";
import { MockStore } from "./store/mock-store.ts";
import { SharedState } from "./store/shared-state.ts";
import type { AccountRecord, Database } from "./store/records.ts";

/** The address the mock listens on unless told otherwise. */
export const DEFAULT_PORT = 4010;
export const DEFAULT_HOST = "127.0.0.1";
/** Agent seats of an account unless configured (section 8 does not state the limit). */
export const DEFAULT_AGENT_SEATS = 10;
export { DEFAULT_MAX_ACCOUNTS };
/** Largest request body, in bytes (section 8 does not state one). */
export const DEFAULT_BODY_LIMIT = 1024 * 1024;

/** An account the mock admits when it runs with configured accounts only. */
export interface AccountConfig {
  apiKey: string;
  token: string;
  /** The account's user id; give the uid of seeded data to reach it. Defaults to the next free uid. */
  uid?: number;
  agentSeats?: number;
  name?: string;
}

/**
 * Options of {@link createMockServer}; every one has a default. The names are the command line's flags
 * camel-cased (`--db` is `db`, `--validate-responses` is `validateResponses`), plus a few only a program can
 * pass (`contract`, `log`, `now`, `bodyLimit`). An unknown name is refused, so a misspelt option cannot
 * silently leave the mock running with its default.
 */
export interface MockServerOptions {
  /** Where `listen()` listens unless given a port (`--port`); 0 picks a free port. */
  port?: number;
  /** Where `listen()` listens unless given a host (`--host`). */
  host?: string;
  /** The public base address used in the auto-login `uri` (`--base-url`); defaults to the address the mock listens on. */
  baseUrl?: string;
  /**
   * Keep the state in this JSON file across restarts (`--db`); it is seeded from the fixtures when it does not
   * exist. Without it the state lives in memory.
   */
  db?: string;
  /** With `db` (`--db-sync`): `"fsync"` (default) answers a change once it is synced to disk, `"none"` without waiting. */
  dbSync?: SyncMode;
  /** With `db` (`--db-compact-after`): the journal size, in bytes, past which it is compacted into the snapshot. */
  dbCompactAfter?: number;
  /**
   * What start and `reset` restore (`--fixtures`): a fixtures file, read at start and again on `reset` (so the
   * mock holds no second copy of a large seed), or the state itself (the mock works on a copy). Defaults to
   * `fixtures/db.json`.
   */
  fixtures?: string | Database;
  /**
   * Admit only these accounts (`--accounts`), instead of the seeded ones and instead of opening accounts on
   * first use: the list, or a JSON file holding it.
   */
  accounts?: AccountConfig[] | string;
  /** Agent seats of accounts opened on first use (`--agent-seats`). */
  agentSeats?: number;
  /**
   * No account is opened on first use once the mock holds this many accounts (default 10,000): every new API
   * key a client invents costs memory. A new key beyond it answers 401 saying so.
   */
  maxAccounts?: number;
  /**
   * Host names or addresses (no port) the admin routes answer to besides `localhost`, the loopback addresses,
   * the host of `baseUrl` and the address the mock listens on (`--allowed-hosts`); `.example.test` admits a
   * name and all its subdomains. Any other `Host` is refused (DNS rebinding).
   */
  allowedHosts?: string[];
  /** When set, the admin routes require `Authorization: Bearer <adminToken>` (`--admin-token`). */
  adminToken?: string;
  /** Check every answer against the contract (`--validate-responses`); a mismatch answers 500 and is recorded in `violations`. */
  validateResponses?: boolean;
  /** No request log (`--quiet`), even when `log` is given. */
  quiet?: boolean;
  /** Told of every answered request, and of contract violations. The library logs nothing without it. */
  log?: (line: string) => void;
  /**
   * What `log` is told (`--log-format`): `"text"` (default), a line for people per request, or `"json"`, one JSON
   * object per line in pino's shape (`level`, `time`, `pid`, `hostname`, `msg`; a request's `req`, `res` and
   * `responseTime`), for log tooling.
   */
  logFormat?: LogFormat;
  /** Largest request body accepted, in bytes. */
  bodyLimit?: number;
  /** The clock, in milliseconds (documents' `created` and `changed`, the request log's timestamps). */
  now?: () => number;
  /** API requests the request journal keeps (`--journal-size`; `GET /__admin/requests`, `mock.requests()`); 0 keeps none. */
  journalSize?: number;
  /**
   * A delay added to every API answer (`--latency`): milliseconds, a range as the flag writes it (`"100-400"`,
   * uniformly random), or `{ min, max }`.
   */
  latency?: number | string | Latency;
  /** Draws the latency; `Math.random` unless a test wants it fixed. */
  random?: () => number;
  /** A compiled contract to reuse (compiling takes a few hundred milliseconds). */
  contract?: Contract;
  /** With `db`: the journal's write and sync, injectable so a test can hold them up or make them fail. */
  journalIo?: JournalIo;
  /** The secret auto-login tokens are signed with; random unless given (and kept in the `db` state). */
  autologinSecret?: string;
  /**
   * A service profile (`--profile`): a file written by `property-listing-contract --write-profile`, or its object.
   * The mock then answers as that service was seen to where the document is silent (error statuses, media
   * types and bodies, list orders, the fresh account's seats unless `agentSeats` is given, undocumented
   * fields). A profile that is not valid, or contradicts the document, throws a {@link ProfileRefused}.
   */
  profile?: string | ServiceProfile;
  /** @deprecated The former name of `db`. */
  dbFile?: string;
  /** @deprecated The former name of `fixtures` given as a file. */
  fixturesFile?: string;
}

/**
 * Every option name, checked against {@link MockServerOptions} by the compiler: adding an option to the
 * interface without adding it here (or the reverse) does not build.
 */
const OPTION_NAMES = {
  port: true,
  host: true,
  baseUrl: true,
  db: true,
  fixtures: true,
  dbSync: true,
  dbCompactAfter: true,
  accounts: true,
  agentSeats: true,
  maxAccounts: true,
  allowedHosts: true,
  adminToken: true,
  validateResponses: true,
  quiet: true,
  log: true,
  logFormat: true,
  bodyLimit: true,
  now: true,
  contract: true,
  journalIo: true,
  autologinSecret: true,
  journalSize: true,
  latency: true,
  random: true,
  profile: true,
  dbFile: true,
  fixturesFile: true,
} as const satisfies Record<keyof MockServerOptions, true>;

/** The former option names and the names that replace them. */
const ALIASES = { dbFile: "db", fixturesFile: "fixtures" } as const;

/** The options with the aliases folded in and the accounts file read; what the mock is built from. */
interface ResolvedOptions extends Omit<MockServerOptions, "dbFile" | "fixturesFile" | "accounts" | "latency"> {
  accounts?: AccountConfig[];
  latency?: Latency;
}

/**
 * Checks the options' names (and the types of the ones whose mistakes would go unnoticed), folds the former
 * names into the current ones, and reads an accounts file. A mistake is a bug of the calling program, so it
 * throws a TypeError that names the option.
 */
export function resolveMockServerOptions(options: MockServerOptions): ResolvedOptions {
  if (options === null || typeof options !== "object" || Array.isArray(options)) {
    throw new TypeError(`createMockServer takes an object of options, got ${options === null ? "null" : typeof options}.`);
  }
  const known = Object.keys(OPTION_NAMES);
  for (const name of Object.keys(options)) {
    if (!Object.hasOwn(OPTION_NAMES, name)) {
      const near = known.find((candidate) => candidate.toLowerCase() === name.toLowerCase().replace(/[-_]/g, ""));
      throw new TypeError(
        `createMockServer: unknown option "${name}"${near ? ` (did you mean "${near}"?)` : ""}. The options are ${known.filter((option) => !(option in ALIASES)).join(", ")}.`,
      );
    }
  }
  const { dbFile, fixturesFile, accounts, latency, ...rest } = options;
  const resolved: ResolvedOptions = { ...rest };
  if (latency !== undefined) {
    const read = typeof latency === "object" && latency !== null ? checkLatency(latency) : parseLatency(String(latency));
    if (typeof read === "string") throw new TypeError(`createMockServer: ${read.replace("--latency", '"latency"')}`);
    resolved.latency = read;
  }
  if (resolved.journalSize !== undefined && !(Number.isInteger(resolved.journalSize) && resolved.journalSize >= 0 && resolved.journalSize <= MAX_JOURNAL_SIZE)) {
    throw new TypeError(`createMockServer: "journalSize" must be a whole number from 0 to ${MAX_JOURNAL_SIZE}, got ${JSON.stringify(resolved.journalSize)}.`);
  }
  for (const [alias, name] of Object.entries(ALIASES) as Array<[keyof typeof ALIASES, "db" | "fixtures"]>) {
    const value = alias === "dbFile" ? dbFile : fixturesFile;
    if (value === undefined) continue;
    if (options[name] !== undefined && options[name] !== value) {
      throw new TypeError(`createMockServer: "${alias}" is the former name of "${name}"; give one of them, not both.`);
    }
    resolved[name] = value;
  }
  if (resolved.logFormat !== undefined && !LOG_FORMATS.includes(resolved.logFormat)) {
    throw new TypeError(`createMockServer: "logFormat" must be ${LOG_FORMATS.map((format) => JSON.stringify(format)).join(" or ")}, got ${JSON.stringify(resolved.logFormat)}.`);
  }
  for (const name of ["db", "host", "baseUrl", "adminToken"] as const) {
    if (resolved[name] !== undefined && (typeof resolved[name] !== "string" || resolved[name] === "")) {
      throw new TypeError(`createMockServer: "${name}" must be a non-empty string, got ${JSON.stringify(resolved[name])}.`);
    }
  }
  if (resolved.fixtures !== undefined && (resolved.fixtures === "" || (typeof resolved.fixtures !== "string" && (typeof resolved.fixtures !== "object" || resolved.fixtures === null)))) {
    throw new TypeError(`createMockServer: "fixtures" must be a file path or a state object, got ${JSON.stringify(resolved.fixtures)}.`);
  }
  if (resolved.profile !== undefined && (resolved.profile === "" || resolved.profile === null || (typeof resolved.profile !== "string" && typeof resolved.profile !== "object"))) {
    throw new TypeError(`createMockServer: "profile" must be a profile file's path or a profile object, got ${JSON.stringify(resolved.profile)}.`);
  }
  if (typeof accounts === "string") {
    const read = readAccountsFile(accounts);
    if (typeof read === "string") throw new TypeError(`createMockServer: ${read}`);
    resolved.accounts = read;
  } else if (accounts !== undefined) {
    resolved.accounts = accounts;
  }
  return resolved;
}

/** A service profile that cannot be used: not JSON, another version, unknown keys, or contradicting the document. */
export class ProfileRefused extends Error {
  constructor(
    readonly source: string,
    readonly problems: string[],
  ) {
    super(`The service profile ${source} is refused (a profile is used whole or not at all):\n  ${problems.join("\n  ")}`);
    this.name = "ProfileRefused";
  }
}

/** A latency given as `{ min, max }`, checked as the flag's text would be. */
function checkLatency(latency: Latency): Latency | string {
  return typeof latency.min === "number" && typeof latency.max === "number" ? parseLatency(`${latency.min}-${latency.max}`) : `--latency must be { min, max } in milliseconds, got ${JSON.stringify(latency)}`;
}

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
  /** Puts the seeded state back, removes every fault rule and empties the request journal. */
  reset(): void;
  /** The `db` file the state was read from at start, or undefined when the mock started from its fixtures. */
  readonly restoredFrom: string | undefined;
  /** The service profile it plays back: where it came from, its run and when it was recorded. */
  readonly profile: { source: string; runId: string; recordedAt: string } | undefined;
  /**
   * The API requests the mock received, oldest first (the same entries as `GET /__admin/requests`), optionally
   * filtered by method and exact path. `expect(mock).toHaveReceived(...)` reads them.
   */
  requests(filter?: JournalFilter): JournalEntry[];
  /** The fault rules of this mock, as `POST /__admin/faults` adds them (`mock.faults.add(rule)` validates alike). */
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
  const fixtures = options.fixtures ?? DEFAULT_FIXTURES_PATH;
  const seed = (): Database =>
    withConfiguredAccounts(typeof fixtures === "string" ? loadFixtures(fixtures) : structuredClone(fixtures), options.accounts);
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
  const contract = options.contract ?? createContract({ closed: true });
  const profiled = options.profile === undefined ? undefined : readProfileOption(options.profile, contract);
  const playback = createProfilePlayback(profiled?.profile);
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

  const services = {
    accounts: new AccountService(store, {
      openOnFirstUse: options.accounts === undefined,
      defaultAgentSeats: options.agentSeats ?? playback.seats ?? DEFAULT_AGENT_SEATS,
      maxAccounts: options.maxAccounts ?? DEFAULT_MAX_ACCOUNTS,
    }),
    properties: new PropertyService({
      store,
      tokens,
      autologinUrl: (token) => `${baseUrl ?? listeningAt ?? `http://${DEFAULT_HOST}:${DEFAULT_PORT}`}/autologin/${token}`,
      newestFirst: playback.newestFirst,
      ...(playback.derived ? { derived: playback.derived } : {}),
      ...(playback.sharedExternalIds ? { sharedExternalIds: true } : {}),
      ...(playback.listItemExtra ? { listItemExtra: playback.listItemExtra } : {}),
    }),
    agents: new AgentService(store, playback.agentNeverSet ? { neverSet: playback.agentNeverSet } : {}),
    documents: new DocumentService({ store, now: options.now ?? Date.now }),
  };

  // The two seams of the HTTP layer (src/mock/README.md): the guard every admin request passes first, and the
  // interceptors every API request passes through (a journal, fault rules, latency), outermost first.
  let listeningHost: string | undefined;
  const adminGuard = createAdminGuard({
    ...(options.allowedHosts ? { allowedHosts: options.allowedHosts } : {}),
    ...(baseUrl ? { baseUrl } : {}),
    ...(options.adminToken !== undefined ? { adminToken: options.adminToken } : {}),
    listenHost: () => listeningHost,
  });
  const requestJournal = new RequestJournal(options.journalSize ?? DEFAULT_JOURNAL_SIZE);
  const faults = new FaultRules();
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
  };

  const violations: MockServer["violations"] = [];
  const app = createApp({
    adminGuard,
    apiInterceptors,
    steering: createSteeringRoutes(requestJournal, faults),
    reset,
    store,
    raw: new RawRecordService(store, createRawRecordValidator(contract.document, Object.keys(playback.agentNeverSet ?? {}).filter((field) => playback.agentNeverSet![field] === null))),
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
          resolve({ url: listeningAt, port: address.port, host });
        });
      });
    },
    async close() {
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
    requests: (filter) => requestJournal.entries(filter),
    faults,
  };
}

/** The profile option read and checked, all or nothing, with what names it. */
function readProfileOption(profile: string | ServiceProfile, contract: Contract): { profile: ServiceProfile; about: { source: string; runId: string; recordedAt: string } } {
  const source = typeof profile === "string" ? profile : "(given as an object)";
  const read = typeof profile === "string" ? readServiceProfileFile(profile, contract.document) : readServiceProfile(profile, contract.document);
  if (!read.ok) throw new ProfileRefused(source, read.problems);
  return { profile: read.profile, about: { source, runId: read.profile.runId, recordedAt: read.profile.recordedAt } };
}

/** A host a client can reach: a wildcard address is reached through the loopback. */
function displayHost(host: string): string {
  if (host === "0.0.0.0" || host === "::" || host === "") return DEFAULT_HOST;
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
