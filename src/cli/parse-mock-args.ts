import { readOptions, type ParsedArgs } from "./read-options.ts";
import {
  DEFAULT_AGENT_SEATS,
  DEFAULT_HOST,
  DEFAULT_MAX_ACCOUNTS,
  DEFAULT_PORT,
  type AccountConfig,
  type MockServerOptions,
} from "../hosts/node/create-mock-server.ts";
import { readAccountsFile } from "../hosts/node/read-accounts-file.ts";
import { STATE_NAMES } from "../mock/store/named-states.ts";
import { readStateOption } from "./read-state-option.ts";
import { DEFAULT_COMPACT_AFTER_BYTES } from "../hosts/node/state/state-journal.ts";
import { parseLatency, type Latency } from "../mock/services/latency.ts";
import { LOG_FORMATS, type LogFormat } from "../hosts/node/log-line.ts";
import { DEFAULT_JOURNAL_SIZE, MAX_JOURNAL_SIZE } from "../mock/services/request-journal.ts";
import type { UsageOption } from "../mock/usage/check-usage-option.ts";

/** Options only a program calling the library gives (`log` the mock's program adds itself), and former names. */
type NotFromTheCommandLine =
  | "log"
  | "contract"
  | "journalIo"
  | "now"
  | "random"
  | "bodyLimit"
  | "autologinSecret"
  | "dbFile"
  | "fixturesFile";

/** The options the command line gives in a narrower type than the server takes: what the parser has read. */
interface ReadAtTheEdge {
  /** The list `--accounts` names, read here so that a file the mock cannot use is a usage error. */
  accounts?: AccountConfig[];
  fixtures?: string;
  latency?: Latency;
  /** `--record-usage` names the file, `--consumer` the consumer: both or neither. */
  usage?: UsageOption & { file: string };
  profile?: string;
  answers?: string;
  logFormat: LogFormat;
}

/**
 * `createMockServer`'s options as the command line gives them, under the server's own names; `port` and `host`
 * are the program's (it listens, and names them when it cannot).
 */
export type MockCommandOptions = Omit<
  MockServerOptions,
  NotFromTheCommandLine | "port" | "host" | keyof ReadAtTheEdge
> &
  ReadAtTheEdge;

/** What the mock's command line asks for: the server's options, and what only the program needs beside them. */
export interface MockCommand {
  /** What `createMockServer` is given, as it is (the program adds `log`). */
  options: MockCommandOptions;
  /**
   * Where the program listens (`--port`, `PORT`): passed to `listen`, and named in its messages when it cannot.
   */
  port: number;
  /** The address it listens on (`--host`, `HOST`), taken as given (an empty `HOST` too). */
  host: string;
  /** The file `--state` named, when it named one: a refused state's message names it, not its records. */
  stateFile?: string;
  /** The file `--accounts` named, for the banner: the options hold the accounts it lists. */
  accountsFile?: string;
}

export const MOCK_USAGE = `Usage: property-listing-mock [options]
       (in a clone of this repository: npm start -- [options])

Serves a stateful mock of the Property Listing Service. Once started, /docs
(http://127.0.0.1:${DEFAULT_PORT}/docs) lists every operation to try out in a browser, and /__admin/console
shows the requests it receives and steers it; the manual is docs/mock.md in the package, and
docs/setting-up-a-test.md for tests.

Options:
  --port <n>             port to listen on (env PORT; default ${DEFAULT_PORT})
  --host <address>       address to listen on (env HOST; default ${DEFAULT_HOST}; 0.0.0.0 in containers)
  --base-url <url>       public base address used in the auto-login uri (env BASE_URL;
                         default: the address the client used, when the mock answers to its host,
                         else the address the mock listens on)
  --db <file.json>       keep the state in this file across restarts (env MOCK_DB; default: in memory);
                         every change goes to <file.json>.journal first and is answered once synced.
                         A .json file stays one JSON document in json-server's db.json shape; a name
                         ending in .jsonl or .ndjson is JSON Lines, a record a line, for large states
  --db-sync <mode>       fsync (default): a 2xx to a write means it is on disk, even after kill -9 or a
                         power cut; none: answers do not wait, the last moments before a crash can be lost
                         (env MOCK_DB_SYNC)
  --db-compact-after <bytes>
                         fold the journal into <file.json> once it is this long (default ${DEFAULT_COMPACT_AFTER_BYTES})
  --fixtures <file.json> seed from this file instead of fixtures/db.json
  --state <name|file>    start from (and reset to) a shipped state or a file of your own records, as
                         GET /__db/db answers (env MOCK_STATE). POST /__admin/state {"state": ...} changes
                         it during a run. The shipped states: ${STATE_NAMES.join(", ")}
  --accounts <file.json> admit only these accounts: [{"apiKey","token","uid"?,"agentSeats"?}]
  --agent-seats <n>      agent seats of accounts opened on first use (default ${DEFAULT_AGENT_SEATS}, or the
                         profile's fresh account's seats)
  --profile <file>       answer as a service profile says the real service does where the document is silent
                         (error statuses, media types and bodies, list orders, seats, extra fields); written
                         by property-listing-contract --write-profile (env MOCK_PROFILE). A profile that is
                         not valid or contradicts the document stops the start (exit 2), naming each entry
  --max-accounts <n>     open no more accounts on first use once there are this many; a new key
                         then answers 401 (env MAX_ACCOUNTS; default ${DEFAULT_MAX_ACCOUNTS})
  --allowed-hosts <a,b>  host names the admin routes (/__db, /__admin) answer to besides localhost,
                         the loopback addresses, the host of --base-url and of --host; .example.test
                         admits its subdomains too (env ALLOWED_HOSTS). Others get 403 (DNS rebinding)
  --admin-token <secret> require Authorization: Bearer <secret> on the admin routes (env ADMIN_TOKEN);
                         the API, /healthz and the spec stay open
  --validate-responses   check every answer against the contract; a mismatch answers 500 and is logged
  --journal-size <n>     API requests kept for GET /__admin/requests (default ${DEFAULT_JOURNAL_SIZE}; 0 keeps none)
  --latency <ms|min-max> delay every API answer: 200, or 100-400 for a random delay in that range
  --record-usage <file>  record what a consumer's tests do (requests, answers, what each answer rests on)
                         in this usage file, written as each test ends and on SIGTERM (env MOCK_RECORD_USAGE);
                         tests begin with POST /__admin/usage/tests {"name": "suite > test"}
  --consumer <name>      the consumer the usage is of, with --record-usage (env MOCK_CONSUMER)
  --answers <file>       serve what a service answered a consumer's usage (property-listing-contract
                         --write-answers; env MOCK_ANSWERS): while a test runs, its requests get the service's
                         answers to that test's recorded interactions, in order; a request they do not cover is
                         answered as the mock would and marked in the journal; nothing is recorded meanwhile
  --quiet                do not log requests
  --log-format <format>  text (default): a line per request for people; json: one JSON object per
                         line in pino's shape (level, time, msg, req, res, responseTime) for log tooling
  --version              print the kit's version
  --help                 show this help

property-listing-mock --convert-state <from> <to>
                         write the state in <from> to <to> in the form <to>'s name says (.jsonl or
                         .ndjson: JSON Lines; else one JSON document); <from> is left as it is and <to>
                         must not exist (exit 0 once written, 2 when it cannot be); --convert-state --help

Setting up a test (docs/setting-up-a-test.md):
  GET /__admin/requests[?method=POST&path=/api/v1/object/property]   the request journal; DELETE empties it
  Prefer: code=<status>, delay=<ms>   on an API request: answer that status (changing nothing), wait first
  POST /__admin/faults {"method"?, "path", "status"?, "delay"?, "drop"?, "times"?}   GET lists, DELETE clears;
                                      path as the spec writes it (/api/v1/object/property/{nid}) or ending in *;
                                      DELETE /__admin/faults/<id> removes one rule
  POST /__admin/state {"state": "seats-full"}   reset to a shipped state, or {"state": {<records>}}; GET lists
  POST /__admin/reset                 start state back, no fault rules, empty journal

  curl -s 'http://127.0.0.1:${DEFAULT_PORT}/__admin/requests?method=POST'
  curl -i -H 'API-KEY: demo-key' -H 'TOKEN: demo-token' -H 'Prefer: code=503, delay=500' \\
    http://127.0.0.1:${DEFAULT_PORT}/api/v1/object/agent_cards
  curl -s -X POST -H 'content-type: application/json' http://127.0.0.1:${DEFAULT_PORT}/__admin/faults \\
    -d '{"method": "POST", "path": "/api/v1/object/property", "status": 503, "times": 2}'

  In vitest (import "property-listing-kit/vitest"):
  expect(mock).toHaveReceived({ method: "POST", path: "/api/v1/object/property",
    body: expect.objectContaining({ street: "1 Main St" }) });`;

/** The mock's options that take a value, and its flags (each one in the usage above). */
const VALUE_OPTIONS = [
  "port",
  "host",
  "base-url",
  "db",
  "db-sync",
  "db-compact-after",
  "fixtures",
  "state",
  "accounts",
  "agent-seats",
  "max-accounts",
  "allowed-hosts",
  "admin-token",
  "journal-size",
  "latency",
  "profile",
  "record-usage",
  "consumer",
  "answers",
  "log-format",
] as const;
const FLAG_OPTIONS = ["validate-responses", "quiet"] as const;

/** A command, help, the version, or a usage error as a value. */
export type ParsedMockArgs = ParsedArgs<MockCommand>;

/** Reads the command line and the environment once; nothing below the CLI reads either. */
export function parseMockArgs(argv: string[], env: NodeJS.ProcessEnv): ParsedMockArgs {
  const read = readOptions(argv, VALUE_OPTIONS, FLAG_OPTIONS);
  if (read.kind !== "values") return read;
  const { values } = read;

  const port = integer(values.port ?? env.PORT ?? String(DEFAULT_PORT), 0, 65535);
  if (port === undefined)
    return { kind: "error", message: `--port must be a whole number from 0 to 65535, got ${values.port ?? env.PORT}` };
  const agentSeats = integer(values["agent-seats"] ?? String(DEFAULT_AGENT_SEATS), 0, 1_000_000);
  if (agentSeats === undefined)
    return { kind: "error", message: `--agent-seats must be a whole number, got ${values["agent-seats"]}` };
  const maxAccountsText = values["max-accounts"] ?? env.MAX_ACCOUNTS ?? String(DEFAULT_MAX_ACCOUNTS);
  const maxAccounts = integer(maxAccountsText, 0, 100_000_000);
  if (maxAccounts === undefined)
    return { kind: "error", message: `--max-accounts must be a whole number up to 100000000, got ${maxAccountsText}` };
  const journalSize = integer(values["journal-size"] ?? String(DEFAULT_JOURNAL_SIZE), 0, MAX_JOURNAL_SIZE);
  if (journalSize === undefined)
    return {
      kind: "error",
      message: `--journal-size must be a whole number from 0 to ${MAX_JOURNAL_SIZE}, got ${values["journal-size"]}`,
    };
  const latency = values.latency === undefined ? undefined : parseLatency(values.latency);
  if (typeof latency === "string") return { kind: "error", message: latency };
  const baseUrl = values["base-url"] ?? env.BASE_URL;
  if (baseUrl !== undefined && !/^https?:\/\/[^\s/]+/.test(baseUrl)) {
    return { kind: "error", message: `--base-url must be an http(s) address such as http://mock:4010, got ${baseUrl}` };
  }

  const logFormat = values["log-format"] ?? "text";
  if (!(LOG_FORMATS as readonly string[]).includes(logFormat))
    return { kind: "error", message: `--log-format must be ${LOG_FORMATS.join(" or ")}, got ${logFormat}` };

  const dbSync = values["db-sync"] ?? env.MOCK_DB_SYNC ?? "fsync";
  if (dbSync !== "fsync" && dbSync !== "none")
    return { kind: "error", message: `--db-sync must be fsync or none, got ${dbSync}` };
  const dbCompactAfter = integer(
    values["db-compact-after"] ?? String(DEFAULT_COMPACT_AFTER_BYTES),
    1,
    Number.MAX_SAFE_INTEGER,
  );
  if (dbCompactAfter === undefined)
    return {
      kind: "error",
      message: `--db-compact-after must be a positive whole number of bytes, got ${values["db-compact-after"]}`,
    };

  const options: MockCommandOptions = {
    maxAccounts,
    validateResponses: values["validate-responses"] ?? false,
    quiet: values.quiet ?? false,
    logFormat: logFormat as LogFormat,
    journalSize,
  };
  const command: MockCommand = { options, port, host: values.host ?? env.HOST ?? DEFAULT_HOST };
  if (latency) options.latency = latency;
  if (baseUrl !== undefined) options.baseUrl = baseUrl;
  const allowedHosts = values["allowed-hosts"] ?? env.ALLOWED_HOSTS;
  if (allowedHosts !== undefined) {
    const hosts = allowedHosts
      .split(",")
      .map((host) => host.trim().toLowerCase())
      .filter((host) => host !== "");
    const bad = hosts.find((host) => !/^\.?[a-z0-9.-]+$|^[0-9a-f:]+$/.test(host));
    if (bad !== undefined)
      return {
        kind: "error",
        message:
          "--allowed-hosts takes host names without scheme or port, separated by commas " +
          `(such as mock.test,.dev.example); got ${bad}`,
      };
    options.allowedHosts = hosts;
  }
  const adminToken = values["admin-token"] ?? env.ADMIN_TOKEN;
  if (adminToken !== undefined) {
    if (adminToken.length < 8 || /\s/.test(adminToken))
      return { kind: "error", message: "--admin-token must be at least 8 characters, without spaces" };
    options.adminToken = adminToken;
  }
  const profile = values.profile ?? env.MOCK_PROFILE;
  if (profile === "") return { kind: "error", message: "--profile needs a file name" };
  if (profile !== undefined) options.profile = profile;
  // A profile's seats stand unless --agent-seats is given.
  if (profile === undefined || values["agent-seats"] !== undefined) options.agentSeats = agentSeats;
  const usageFile = values["record-usage"] ?? env.MOCK_RECORD_USAGE;
  const consumer = values.consumer ?? env.MOCK_CONSUMER;
  if (usageFile !== undefined || consumer !== undefined) {
    if (!usageFile)
      return {
        kind: "error",
        message: "--consumer names the consumer of a usage file: give --record-usage <file> too",
      };
    if (consumer === undefined)
      return {
        kind: "error",
        message: "--record-usage needs --consumer <name>: the consumer whose usage it records (a Pact file's consumer)",
      };
    if (consumer === "" || consumer.length > 200 || /[\u0000-\u001f]/.test(consumer))
      return { kind: "error", message: "--consumer must be a name of 1 to 200 characters without control characters" };
    options.usage = { consumer, file: usageFile };
  }
  const answers = values.answers ?? env.MOCK_ANSWERS;
  if (answers === "") return { kind: "error", message: "--answers needs a file name" };
  if (answers !== undefined) options.answers = answers;
  // An empty value (an environment variable set to nothing) is no value.
  const db = values.db ?? env.MOCK_DB;
  if (db) {
    options.db = db;
    // The journal's options mean something only with a file to keep (their values are checked all the same).
    options.dbSync = dbSync;
    options.dbCompactAfter = dbCompactAfter;
  }
  // Without --fixtures the mock seeds from its own fixtures/db.json.
  if (values.fixtures) options.fixtures = values.fixtures;
  const stateText = values.state ?? env.MOCK_STATE;
  if (stateText !== undefined) {
    const read = readStateOption(stateText);
    if (typeof read === "string") return { kind: "error", message: read };
    options.state = read.state;
    if (read.file) command.stateFile = read.file;
  }
  if (values.accounts) {
    const accounts = readAccountsFile(values.accounts);
    if (typeof accounts === "string") return { kind: "error", message: accounts };
    options.accounts = accounts;
    command.accountsFile = values.accounts;
  }
  return { kind: "run", command };
}

function integer(text: string, min: number, max: number): number | undefined {
  if (!/^[0-9]+$/.test(text)) return undefined;
  const value = Number(text);
  return value >= min && value <= max ? value : undefined;
}
