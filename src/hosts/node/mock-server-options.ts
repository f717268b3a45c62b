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
import { parseLatency, type Latency } from "../../mock/services/latency.ts";
import { MAX_JOURNAL_SIZE } from "../../mock/services/request-journal.ts";
import type { Database } from "../../mock/store/records.ts";
import type { JournalIo, SyncMode } from "./state/state-journal.ts";
import { checkUsageOption, type UsageOption } from "../../mock/usage/check-usage-option.ts";
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
export interface MockServerOptions {
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
  state: true,
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
  usage: true,
  answers: true,
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
    throw new TypeError(
      `createMockServer takes an object of options, got ${options === null ? "null" : typeof options}.`,
    );
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
    const read =
      typeof latency === "object" && latency !== null ? checkLatency(latency) : parseLatency(String(latency));
    if (typeof read === "string") throw new TypeError(`createMockServer: ${read.replace("--latency", '"latency"')}`);
    resolved.latency = read;
  }
  if (
    resolved.journalSize !== undefined &&
    !(Number.isInteger(resolved.journalSize) && resolved.journalSize >= 0 && resolved.journalSize <= MAX_JOURNAL_SIZE)
  ) {
    throw new TypeError(
      `createMockServer: "journalSize" must be a whole number from 0 to ${MAX_JOURNAL_SIZE}, got ${JSON.stringify(resolved.journalSize)}.`,
    );
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
    throw new TypeError(
      `createMockServer: "logFormat" must be ${LOG_FORMATS.map((format) => JSON.stringify(format)).join(" or ")}, got ${JSON.stringify(resolved.logFormat)}.`,
    );
  }
  for (const name of ["db", "host", "baseUrl", "adminToken"] as const) {
    if (resolved[name] !== undefined && (typeof resolved[name] !== "string" || resolved[name] === "")) {
      throw new TypeError(
        `createMockServer: "${name}" must be a non-empty string, got ${JSON.stringify(resolved[name])}.`,
      );
    }
  }
  if (
    resolved.fixtures !== undefined &&
    (resolved.fixtures === "" ||
      (typeof resolved.fixtures !== "string" && (typeof resolved.fixtures !== "object" || resolved.fixtures === null)))
  ) {
    throw new TypeError(
      `createMockServer: "fixtures" must be a file path or a state object, got ${JSON.stringify(resolved.fixtures)}.`,
    );
  }
  if (
    resolved.state !== undefined &&
    (resolved.state === "" ||
      resolved.state === null ||
      (typeof resolved.state !== "string" && typeof resolved.state !== "object"))
  ) {
    throw new TypeError(
      `createMockServer: "state" must be a shipped state's name or a state object, got ${JSON.stringify(resolved.state)}.`,
    );
  }
  if (
    resolved.profile !== undefined &&
    (resolved.profile === "" ||
      resolved.profile === null ||
      (typeof resolved.profile !== "string" && typeof resolved.profile !== "object"))
  ) {
    throw new TypeError(
      `createMockServer: "profile" must be a profile file's path or a profile object, got ${JSON.stringify(resolved.profile)}.`,
    );
  }
  if (resolved.usage !== undefined) checkUsageOption(resolved.usage, "createMockServer");
  if (
    resolved.answers !== undefined &&
    (resolved.answers === "" ||
      resolved.answers === null ||
      (typeof resolved.answers !== "string" && typeof resolved.answers !== "object"))
  ) {
    throw new TypeError(
      `createMockServer: "answers" must be an answers file's path or an answers document, got ${JSON.stringify(resolved.answers)}.`,
    );
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

/** A latency given as `{ min, max }`, checked as the flag's text would be. */
function checkLatency(latency: Latency): Latency | string {
  return typeof latency.min === "number" && typeof latency.max === "number"
    ? parseLatency(`${latency.min}-${latency.max}`)
    : `--latency must be { min, max } in milliseconds, got ${JSON.stringify(latency)}`;
}
