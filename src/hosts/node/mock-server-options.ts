/**
 * The options of `createMockServer`, as a program gives them (the CLI's flags camel-cased), and their reading:
 * defaults, former names, unknown names refused with a `TypeError` naming them.
 */
import type { Contract } from "../../contract/create-contract.ts";
import type { ServiceProfile } from "../../contract/profile/service-profile.ts";
import { LOG_FORMATS, type LogFormat } from "./log-line.ts";
import { readAccountsFile, type AccountConfig } from "./read-accounts-file.ts";

export type { AccountConfig };
import { DEFAULT_MAX_ACCOUNTS } from "../../mock/services/account-service.ts";
export { DEFAULT_AGENT_SEATS, DEFAULT_BODY_LIMIT, DEFAULT_HOST, DEFAULT_PORT } from "../../mock/defaults.ts";
import type { Latency } from "../../mock/services/latency.ts";
import {
  ANY,
  checkOptions,
  MOCK_OPTIONS,
  nonEmptyString,
  readLatency,
  type CheckedMockOptions,
  type MockOptions,
  type OptionDescriptor,
} from "../../mock/mock-options.ts";
import type { Database } from "../../mock/store/records.ts";
import type { JournalIo, SyncMode } from "./state/state-journal.ts";
import type { UsageOption } from "../../mock/usage/check-usage-option.ts";
import type { AnswersDocument } from "../../contract/usage/answers-document.ts";

export type { UsageOption };

export { DEFAULT_MAX_ACCOUNTS };
export { ProfileRefused } from "../../mock/profile-refused.ts";

/**
 * Options of {@link createMockServer}; every one has a default. The names are the command line's flags
 * camel-cased (`--db` is `db`, `--validate-responses` is `validateResponses`), plus a few only a program can
 * pass (`contract`, `log`, `now`, `bodyLimit`). An unknown name is refused, so a misspelt option cannot
 * silently leave the mock running with its default.
 */
export interface MockServerOptions extends Omit<MockOptions, "accounts" | "usage"> {
  /** Where `listen()` listens unless given a port (`--port`); 0 picks a free port. */
  port?: number;
  /** Where `listen()` listens unless given a host (`--host`). */
  host?: string;
  /**
   * The public base address used in the auto-login `uri` (`--base-url`). Without it the `uri` starts with the
   * address the client used (its `Host`), when the mock answers to that host, else with where the mock listens.
   */
  baseUrl?: string;
  /**
   * Keep the state in this JSON file across restarts (`--db`); it is seeded from the fixtures when it does not
   * exist. Without it the state lives in memory.
   */
  db?: string;
  /**
   * With `db` (`--db-sync`): `"fsync"` (default) answers a change once it is synced to disk, `"none"` without
   * waiting.
   */
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
   * The state to start from, and to go back to on `reset` (`--state`): the name of a shipped state
   * (`"empty-account"`, `"seats-full"`, `"many-properties"`, `"fixtures"`; each built from the fixtures), or a
   * state's records as a plain object (`{ accounts, properties, agents, documents }`, what `GET /__db/db`
   * answers), checked record by record. A state that is refused throws a {@link StateRefused}. `mock.useState()`
   * changes it during a run.
   */
  state?: string | object;
  /**
   * Admit only these accounts (`--accounts`), instead of the seeded ones and instead of opening accounts on
   * first use: the list, or a JSON file holding it.
   */
  accounts?: AccountConfig[] | string;
  /**
   * Host names or addresses (no port) the admin routes answer to besides `localhost`, the loopback addresses,
   * the host of `baseUrl` and the address the mock listens on (`--allowed-hosts`); `.example.test` admits a
   * name and all its subdomains. Any other `Host` is refused (DNS rebinding).
   */
  allowedHosts?: string[];
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
  /** A compiled contract to reuse (compiling takes a few hundred milliseconds). */
  contract?: Contract;
  /** With `db`: the journal's write and sync, injectable so a test can hold them up or make them fail. */
  journalIo?: JournalIo;
  /**
   * A service profile (`--profile`): a file written by `property-listing-contract --write-profile`, or its object.
   * The mock then answers as that service was seen to where the document is silent (error statuses, media
   * types and bodies, list orders, the fresh account's seats unless `agentSeats` is given, undocumented
   * fields). A profile that is not valid, or contradicts the document, throws a {@link ProfileRefused}.
   */
  profile?: string | ServiceProfile;
  /**
   * Record a consumer's usage (`--record-usage <file>`, `--consumer <name>`): each test's requests and answers,
   * and what each answer rests on. `consumer` names it; with `file` the document is written there (as each test
   * ends, and on close); `mock.usage.toJSON()` gives it in any case. Tests begin with `mock.usage.beginTest(name)`,
   * `POST /__admin/usage/tests`, or by themselves under `property-listing-kit/vitest`.
   */
  usage?: UsageOption;
  /**
   * Serve a service's answers (`--answers <file>`; `property-listing-contract --write-answers`): the file, or the
   * document. While a test runs, its requests get what the service answered the same test's recorded
   * interactions, in order; others are answered as the mock would, marked in the journal, and listed by
   * `mock.answers.notCovered()`. With `usage` given and no `answers`, the file `MOCK_ANSWERS` names is served, so
   * a suite set up to record its usage serves the answers unchanged. Nothing is recorded meanwhile, and the usage
   * file is not written.
   */
  answers?: string | AnswersDocument;
  /** @deprecated The former name of `db`. */
  dbFile?: string;
  /** @deprecated The former name of `fixtures` given as a file. */
  fixturesFile?: string;
}

/** The check of an option that takes a file's path or an object read from one, naming what the object is. */
const pathOrObject =
  (name: string, what: string) =>
  (value: unknown): string | undefined =>
    value === "" || value === null || (typeof value !== "string" && typeof value !== "object")
      ? `"${name}" must be ${what}, got ${JSON.stringify(value)}.`
      : undefined;

/**
 * Every option and its check: the ones every host shares (mock-options.ts), extended with this host's. Checked
 * against {@link MockServerOptions} by the compiler: adding an option to the interface without adding it here (or
 * the reverse) does not build. The first few are the ones a misspelt name's message lists first.
 */
const SERVER_OPTIONS = {
  port: ANY,
  host: { problem: nonEmptyString("host") },
  baseUrl: { problem: nonEmptyString("baseUrl") },
  db: { problem: nonEmptyString("db") },
  fixtures: {
    problem: (value) =>
      value === "" || (typeof value !== "string" && (typeof value !== "object" || value === null))
        ? `"fixtures" must be a file path or a state object, got ${JSON.stringify(value)}.`
        : undefined,
  },
  state: { problem: pathOrObject("state", "a shipped state's name or a state object") },
  dbSync: ANY,
  dbCompactAfter: ANY,
  ...MOCK_OPTIONS,
  // A file's path, read once the options are checked; a list is checked as every host checks it.
  accounts: { problem: (value) => (typeof value === "string" ? undefined : MOCK_OPTIONS.accounts.problem(value)) },
  allowedHosts: ANY,
  quiet: ANY,
  log: ANY,
  logFormat: {
    problem: (value) => {
      if (LOG_FORMATS.includes(value as LogFormat)) return undefined;
      const formats = LOG_FORMATS.map((format) => JSON.stringify(format)).join(" or ");
      return `"logFormat" must be ${formats}, got ${JSON.stringify(value)}.`;
    },
  },
  contract: ANY,
  journalIo: ANY,
  profile: { problem: pathOrObject("profile", "a profile file's path or a profile object") },
  answers: { problem: pathOrObject("answers", "an answers file's path or an answers document") },
  dbFile: { formerNameOf: "db", problem: nonEmptyString("dbFile") },
  fixturesFile: { formerNameOf: "fixtures", problem: nonEmptyString("fixturesFile") },
} as const satisfies { [Name in keyof Required<MockServerOptions>]: OptionDescriptor };

/** The former option names and the names that replace them. */
const ALIASES = { dbFile: "db", fixturesFile: "fixtures" } as const;

/** The options with the aliases folded in, the latency and an accounts file read; what the mock is built from. */
interface ResolvedOptions
  extends Omit<MockServerOptions, "dbFile" | "fixturesFile" | "accounts" | "latency">,
    CheckedMockOptions {
  usage?: UsageOption;
}

/**
 * Checks the options (their names, and the values whose mistakes would go unnoticed), folds the former names
 * into the current ones, and reads the latency and an accounts file. A mistake is a bug of the calling program, so
 * it throws a TypeError that names the option.
 */
export function resolveMockServerOptions(options: MockServerOptions): ResolvedOptions {
  checkOptions(options, SERVER_OPTIONS, "createMockServer");
  const { dbFile, fixturesFile, accounts, latency, ...rest } = options;
  const resolved: ResolvedOptions = { ...rest };
  // Checked above: a latency read here is never refused.
  if (latency !== undefined) resolved.latency = readLatency(latency) as Latency;
  for (const [alias, name] of Object.entries(ALIASES) as Array<[keyof typeof ALIASES, "db" | "fixtures"]>) {
    const value = alias === "dbFile" ? dbFile : fixturesFile;
    if (value === undefined) continue;
    if (options[name] !== undefined && options[name] !== value) {
      throw new TypeError(`createMockServer: "${alias}" is the former name of "${name}"; give one of them, not both.`);
    }
    resolved[name] = value;
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

/** A state that cannot be used (`state`, `mock.useState()`): an unknown name, or records that are not right. */
export class StateRefused extends Error {
  constructor(
    readonly source: string,
    readonly problems: string[],
  ) {
    super(`The state ${source} is refused, nothing was changed:\n  ${problems.join("\n  ")}`);
    this.name = "StateRefused";
  }
}
