import jsonServer from "json-server";
import { createServer, type RequestListener, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createContract, type Contract } from "../contract/create-contract.ts";
import type { ContractViolation } from "../contract/contract-violation.ts";
import { formatViolation } from "../contract/contract-violation.ts";
import { createAdminGuard } from "./http/admin-guard.ts";
import type { ApiInterceptor } from "./http/api-interceptor.ts";
import { createApp } from "./http/create-app.ts";
import { DEFAULT_FIXTURES_PATH, loadFixtures } from "./load-fixtures.ts";
import { createOperationHandlers } from "./operation-handlers.ts";
import { AccountService } from "./services/account-service.ts";
import { AgentService } from "./services/agent-service.ts";
import { AutologinTokens } from "./services/autologin-tokens.ts";
import { DocumentService } from "./services/document-service.ts";
import { PropertyService } from "./services/property-service.ts";
import { createFilePersistence, readDatabaseFile, type FilePersistence } from "./store/file-persistence.ts";
import { MockStore } from "./store/mock-store.ts";
import type { AccountRecord, Database } from "./store/records.ts";

/** The address the mock listens on unless told otherwise. */
export const DEFAULT_PORT = 4010;
export const DEFAULT_HOST = "127.0.0.1";
/** Agent seats of an account unless configured (section 8 does not state the limit). */
export const DEFAULT_AGENT_SEATS = 10;
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

/** Options of {@link createMockServer}; every one has a default. */
export interface MockServerOptions {
  /** The seeded state that start and `reset` restore (the mock works on a copy). */
  fixtures?: Database;
  /**
   * A fixtures file to seed from instead, read at start and again on `reset`, so the mock holds no second copy
   * of a large seed. Defaults to `fixtures/db.json` when neither is given.
   */
  fixturesFile?: string;
  /** Keep the state in this JSON file across restarts; it is seeded from the fixtures when it does not exist. */
  dbFile?: string;
  /** The public base address used in the auto-login `uri`; defaults to the address the mock listens on. */
  baseUrl?: string;
  /** Agent seats of accounts opened on first use. */
  agentSeats?: number;
  /** Admit only these accounts (instead of the seeded ones, and instead of opening accounts on first use). */
  accounts?: AccountConfig[];
  /** Check every answer against the contract; a mismatch answers 500 and is recorded in `violations`. */
  validateResponses?: boolean;
  /** Largest request body accepted, in bytes. */
  bodyLimit?: number;
  /** The clock, in milliseconds (documents' `created` and `changed`). */
  now?: () => number;
  /** Told of every answered request, and of contract violations. */
  log?: (line: string) => void;
  /** A compiled contract to reuse (compiling takes a few hundred milliseconds). */
  contract?: Contract;
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
  /** Stops listening, ends open connections and writes any pending state. */
  close(): Promise<void>;
  /** Puts the seeded state back. */
  reset(): void;
}

/**
 * Builds the mock: json-server's store holding the seeded state, the services with the rules of the service,
 * and the HTTP application in front of them.
 *
 * @example
 * const mock = createMockServer({ validateResponses: true });
 * const { url } = await mock.listen(0);
 * // … point the client under test at url …
 * await mock.close();
 */
export function createMockServer(options: MockServerOptions = {}): MockServer {
  const given = options.fixtures;
  const seed = (): Database =>
    withConfiguredAccounts(given ? structuredClone(given) : loadFixtures(options.fixturesFile ?? DEFAULT_FIXTURES_PATH), options.accounts);
  const persisted = options.dbFile ? readDatabaseFile(options.dbFile) : undefined;
  const router = jsonServer.router<Database>(persisted ?? seed());
  const store = new MockStore(router.db, seed);
  const contract = options.contract ?? createContract({ closed: true });
  const tokens = new AutologinTokens();
  let baseUrl = options.baseUrl?.replace(/\/+$/, "");
  let listeningAt: string | undefined;

  const services = {
    accounts: new AccountService(store, {
      openOnFirstUse: options.accounts === undefined,
      defaultAgentSeats: options.agentSeats ?? DEFAULT_AGENT_SEATS,
    }),
    properties: new PropertyService({
      store,
      tokens,
      autologinUrl: (token) => `${baseUrl ?? listeningAt ?? `http://${DEFAULT_HOST}:${DEFAULT_PORT}`}/autologin/${token}`,
    }),
    agents: new AgentService(store),
    documents: new DocumentService({ store, now: options.now ?? Date.now }),
  };

  // The two seams of the HTTP layer (src/mock/README.md): the guard every admin request passes first, and the
  // interceptors every API request passes through (a journal, fault rules, latency), outermost first.
  const adminGuard = createAdminGuard();
  const apiInterceptors: ApiInterceptor[] = [];

  const violations: MockServer["violations"] = [];
  const app = createApp({
    adminGuard,
    apiInterceptors,
    store,
    router,
    tokens,
    contract,
    accounts: services.accounts,
    handlers: createOperationHandlers(services),
    bodyLimit: options.bodyLimit ?? DEFAULT_BODY_LIMIT,
    validateResponses: options.validateResponses ?? false,
    onViolation: (errors, request) => {
      violations.push({ request, errors });
      (options.log ?? console.error)(`CONTRACT VIOLATION by the mock on ${request}:\n  ${errors.map(formatViolation).join("\n  ")}`);
    },
    ...(options.log ? { log: options.log } : {}),
  });

  let persistence: FilePersistence | undefined;
  if (options.dbFile) {
    persistence = createFilePersistence(options.dbFile, () => store.state, options.log ? { onError: (error) => options.log!(`Could not write ${options.dbFile}: ${error.message}`) } : {});
    store.onChange(() => persistence!.schedule());
    if (!persisted) persistence.schedule();
  }

  let server: Server | undefined;
  return {
    app,
    store,
    violations,
    listen(port = DEFAULT_PORT, host = DEFAULT_HOST) {
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
      await persistence?.flush();
    },
    reset: () => store.reset(),
  };
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
