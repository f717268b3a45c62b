import { createServer, type RequestListener, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createContract, type Contract } from "../../contract/create-contract.ts";
import type { ContractViolation } from "../../contract/contract-violation.ts";
import {
  compileBodySchema,
  readServiceProfile,
  readServiceProfileFile,
} from "../../contract/profile/read-service-profile.ts";
import type { ServiceProfile } from "../../contract/profile/service-profile.ts";
import { createMockCore, withConfiguredAccounts } from "../../mock/create-mock-core.ts";
import { definedOnly } from "../../mock/defined-only.ts";
import { coreOptionsOf } from "../../mock/mock-options.ts";
import { createApp } from "./create-app.ts";
import { isWildcardHost } from "../../mock/http/allowed-hosts.ts";
import { DOCS_PATH } from "./docs-pages.ts";
import { CONSOLE_PATH } from "./console-assets.ts";
import { formatRequestLog } from "./request-log-line.ts";
import { messageLine, type LogLevel } from "./log-line.ts";
import { DEFAULT_FIXTURES_PATH, loadFixtures } from "./state/load-fixtures.ts";
import { createProfilePlayback } from "../../mock/profile-playback.ts";
import { AutologinTokens } from "../../mock/services/autologin-tokens.ts";
import { mockFaults, type MockFaults } from "../../mock/mock-faults.ts";
import type { JournalEntry, JournalFilter } from "../../mock/services/request-journal.ts";
import { RawRecordService } from "../../mock/services/raw-records.ts";
import { createRawRecordValidator } from "../../mock/store/create-raw-record-validator.ts";
import { filePersistence } from "./state/file-persistence.ts";
import type { MockStore } from "../../mock/store/mock-store.ts";
import type { Database } from "../../mock/store/records.ts";
import { chooseState, type ChosenState } from "../../mock/store/choose-state.ts";
import { firstRecordFault, RecordRefused } from "../../mock/store/record-fault.ts";
import { refusalLines, type Outcome } from "../../mock/problems.ts";
import type { UsageControl } from "../../mock/usage/usage-recorder.ts";
import { writeUsageFile } from "./usage-file.ts";
import { answersOption } from "../msw/answers-option.ts";
import type { AnswersServer } from "../../mock/answers/answers-server.ts";
import { readFileSync } from "node:fs";
import { registerUsage } from "../../mock/usage/usage-registry.ts";

import {
  DEFAULT_BODY_LIMIT,
  DEFAULT_HOST,
  DEFAULT_PORT,
  ProfileRefused,
  StateRefused,
  resolveMockServerOptions,
  type MockServerOptions,
} from "./mock-server-options.ts";

export {
  DEFAULT_AGENT_SEATS,
  DEFAULT_HOST,
  DEFAULT_MAX_ACCOUNTS,
  DEFAULT_PORT,
  ProfileRefused,
  StateRefused,
  type AccountConfig,
  type MockServerOptions,
} from "./mock-server-options.ts";
export { NAMED_STATES, STATE_NAMES } from "../../mock/store/named-states.ts";

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
  /**
   * Puts the start state back (the `state` option's, else the fixtures), removes every fault rule and empties the
   * request journal.
   */
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
  /** What reading the `--db` files back did that a person may want to know (a torn last journal line ignored, say). */
  readonly restoredNotes: readonly string[];
  /** The service profile it plays back: where it came from, its run and when it was recorded. */
  readonly profile: { source: string; runId: string; recordedAt: string } | undefined;
  /**
   * The API requests the mock received, oldest first (the same entries as `GET /__admin/requests`), optionally
   * filtered by method and exact path. `expect(mock).toHaveReceived(...)` reads them.
   */
  requests(filter?: JournalFilter): JournalEntry[];
  /**
   * The fault rules of this mock, as `POST /__admin/faults` adds them: `mock.faults.add(rule)` validates alike and
   * throws a `MockRefused` with the route's message when the route would refuse the rule.
   */
  readonly faults: MockFaults;
  /**
   * The consumer's usage, with the `usage` option (undefined without): `beginTest(name)` names the test that
   * begins, `toJSON()` is the document. While answers are served, the usage they answer.
   */
  readonly usage: UsageControl | undefined;
  /** The service's answers served (`answers`, `MOCK_ANSWERS`): `notCovered()` lists the requests they did not cover. */
  readonly answers: AnswersServer | undefined;
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
  const playback = createProfilePlayback(profiled?.profile, compileBodySchema);
  const validateRecord = createRawRecordValidator(
    contract.document,
    Object.keys(playback.agentNeverSet ?? {}).filter((field) => playback.agentNeverSet![field] === null),
  );
  const fixtures = options.fixtures ?? DEFAULT_FIXTURES_PATH;
  // Fixtures given as an object are checked once, here, as a file is when it is read (record-fault.ts).
  const fixturesFault = typeof fixtures === "string" ? undefined : firstRecordFault(fixtures);
  if (fixturesFault) throw new RecordRefused("The fixtures given as an object", fixturesFault);
  const fixturesSeed = (): Database =>
    withConfiguredAccounts(
      typeof fixtures === "string" ? loadFixtures(fixtures) : structuredClone(fixtures),
      options.accounts,
    );
  /** A state a test names or gives (`state`, `POST /__admin/state`, `useState`): what builds it, or why not. */
  const resolveState = (state: unknown) =>
    chooseState(state, {
      fixtures: fixturesSeed,
      validate: validateRecord,
      finish: (records) => withConfiguredAccounts(records, options.accounts),
    });
  const startState =
    options.state === undefined
      ? undefined
      : chosenOrThrow(
          resolveState(options.state),
          typeof options.state === "string" ? options.state : "(given as an object)",
        );
  /** What start and `reset` restore: the start state, else the fixtures. */
  const seed = startState?.build ?? fixturesSeed;
  const logFormat = options.logFormat ?? "text";
  const clock = options.now ?? Date.now;
  /** A message for `log` in its format, or for stderr as it is when there is no `log`. */
  const tell = (level: LogLevel, text: string, fallback?: (text: string) => void): void => {
    if (options.log) options.log(messageLine(logFormat, level, text, clock()));
    else fallback?.(text);
  };
  // The Node host's persistence port: the --db files, read back now (a place that cannot be used stops the start).
  const persistence =
    options.db === undefined
      ? undefined
      : filePersistence(
          definedOnly({
            db: options.db,
            sync: options.dbSync,
            compactAfter: options.dbCompactAfter,
            io: options.journalIo,
          }),
          seed,
          () => options.autologinSecret ?? AutologinTokens.newSecret(),
        );
  for (const note of persistence?.restored?.notes ?? []) tell("info", note);
  const answers =
    typeof options.answers === "string"
      ? answersOption(
          readAnswersFile(options.answers),
          options.usage,
          "createMockServer",
          `"answers" (${options.answers})`,
        )
      : answersOption(options.answers, options.usage, "createMockServer");
  let listeningAt: string | undefined;
  let listeningHost: string | undefined;

  const core = createMockCore({
    contract,
    seed,
    seedName: startState?.name ?? "fixtures",
    chooseState: resolveState,
    ...coreOptionsOf(options),
    ...definedOnly({
      persistence,
      baseUrl: options.baseUrl,
      allowedHosts: options.allowedHosts,
      profile: profiled?.about,
      answers,
    }),
    defaultBaseUrl: () => listeningAt ?? `http://${DEFAULT_HOST}:${DEFAULT_PORT}`,
    listenHost: () => listeningHost,
    playback,
    tell: (level, text) => tell(level, text, console.error),
    // A bug met on a request goes where the request log goes, in its format (stderr with --quiet, as before).
    reportError: (text: string) => (options.log && !options.quiet ? tell("error", text) : console.error(text)),
    docsPath: DOCS_PATH,
    consolePath: CONSOLE_PATH,
  });
  const usageFile =
    core.usage && options.usage?.file
      ? writeUsageFile(core.usage, options.usage.file, (text) => tell("error", text, console.error))
      : undefined;
  const served = core.usage ?? core.answers;
  const forgetUsage = served ? registerUsage(served) : undefined;
  const { store } = core;
  const app = createApp({
    router: core.router,
    store,
    raw: new RawRecordService(store, validateRecord),
    contract,
    bodyLimit: options.bodyLimit ?? DEFAULT_BODY_LIMIT,
    journal: core.journal,
    ...(options.log && !options.quiet ? { log: options.log, formatRequest: formatRequestLog(logFormat) } : {}),
    reportError: (text: string) => (options.log && !options.quiet ? tell("error", text) : console.error(text)),
    ...definedOnly({ durability: core.durability, now: options.now }),
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
    violations: core.violations,
    restoredFrom: core.restored ? options.db : undefined,
    restoredNotes: persistence?.restored?.notes ?? [],
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
      forgetUsage?.();
      // The run's end says which requests the service's answers did not cover (answered as the mock would).
      const uncovered = core.answers?.notCovered() ?? [];
      if (uncovered.length > 0) {
        const shown = uncovered
          .slice(0, 20)
          .map((call) => `  ${call.test}: ${call.method} ${call.path} (${call.reason})`);
        tell(
          "warn",
          `${uncovered.length} request${uncovered.length === 1 ? " was" : "s were"} not covered by the service's ` +
            `answers, and answered as the mock would:\n${shown.join("\n")}` +
            (uncovered.length > 20 ? `\n  and ${uncovered.length - 20} more` : ""),
          console.error,
        );
      }
      await usageFile?.close();
      core.usage?.finish();
      await core.close();
    },
    problem: () => core.problem(),
    reset: core.reset,
    useState(state) {
      const used = core.useState(state);
      if (!used.ok)
        throw new StateRefused(
          typeof state === "string" ? JSON.stringify(state) : "(given as an object)",
          refusalLines(used.failure),
        );
    },
    requests: (filter) => core.requests(filter),
    faults: mockFaults(core.faults),
    usage: core.usage ?? core.answers,
    answers: core.answers,
  };
}

/** A chosen state, or the refusal thrown as a {@link StateRefused} (the `state` option at start). */
function chosenOrThrow(chosen: Outcome<ChosenState>, source: string): ChosenState {
  if (!chosen.ok) throw new StateRefused(source, refusalLines(chosen.failure));
  return chosen.value;
}

/** An answers file's text, or a TypeError naming it. */
function readAnswersFile(file: string): string {
  try {
    return readFileSync(file, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === "ENOENT" ? "no such file" : code === "EISDIR" ? "it is a folder" : (error as Error).message;
    throw new TypeError(`createMockServer: "answers" (${file}): cannot read it: ${why}`);
  }
}

/** The profile option read and checked, all or nothing, with what names it. */
function readProfileOption(
  profile: string | ServiceProfile,
  contract: Contract,
): { profile: ServiceProfile; about: { source: string; runId: string; recordedAt: string } } {
  const source = typeof profile === "string" ? profile : "(given as an object)";
  const read =
    typeof profile === "string"
      ? readServiceProfileFile(profile, contract.document)
      : readServiceProfile(profile, contract.document);
  if (!read.ok) throw new ProfileRefused(source, read.problems);
  return { profile: read.profile, about: { source, runId: read.profile.runId, recordedAt: read.profile.recordedAt } };
}

/** A host a client can reach: a wildcard address is reached through the loopback. */
function displayHost(host: string): string {
  if (isWildcardHost(host)) return DEFAULT_HOST;
  return host.includes(":") ? `[${host}]` : host;
}
