import { readOptions, type ParsedArgs } from "./read-options.ts";

/** The reporters of a contract run. */
export const REPORTERS = ["text", "junit", "json"] as const;
export type ReporterName = (typeof REPORTERS)[number];

/** How the report is given, whatever was checked. */
interface ReportOptions {
  strict: boolean;
  /** Write what the service did where the document is silent to this file (`--write-profile`). */
  writeProfile?: string;
  /** Hold the service to this service profile too (`--profile`). */
  profile?: string;
  reporter: ReporterName;
  output?: string;
  /** Also write the JSON report to this file, whatever the reporter (`--json-report`). */
  jsonReport?: string;
  quiet: boolean;
}

/** The scenario, run against a service. */
export interface ServiceCommand extends ReportOptions {
  kind: "service";
  baseUrl: string;
  /** Where clients reach the service, when the run goes through another address: the auto-login uri starts with it. */
  publicBaseUrl?: string;
  apiKey: string;
  token: string;
  timeoutMs: number;
  runId?: string;
  /** A second account, for the probes with another account's TOKEN. */
  other?: { apiKey: string; token: string };
  /** An account without agents, for the seat limit; `seats` when known. */
  fresh?: { apiKey: string; token: string; seats?: number };
  skipSeatChecks: boolean;
  showCredentials: boolean;
  /** `--fuzz <n>`: generated cases per operation that takes input. */
  fuzz?: number;
  /** `--seed <s>`: the seed of the generated cases. */
  seed?: number;
}

/** A recording of traffic, checked exchange by exchange. */
export interface RecordingCommand extends ReportOptions {
  kind: "recording";
  file: string;
  /** Only exchanges under this base address are checked. */
  baseUrl?: string;
}

/** A consumer's usage written as a Pact v4 file (`--usage <file> --write-pact <file>`); nothing is sent. */
export interface PactCommand {
  kind: "pact";
  usage: string;
  writePact: string;
  quiet: boolean;
}

/**
 * A consumer's usage (`--usage <file>`): replayed against a service (`service`, from `--base-url` and the
 * credentials as for the scenario), or judged against `--profile` alone, nothing sent (no `service`).
 */
export interface UsageCommand extends ReportOptions {
  kind: "usage";
  file: string;
  service?: ServiceCommand;
  /** Write what the service (or, offline, the mock playing the profile) answered to this file (`--write-answers`). */
  writeAnswers?: string;
  /** Run this test command (a shell line) against the service's answers: one verdict per consumer test (`--rerun`). */
  rerun?: string;
}

/** What the contract runner's command line asks for. */
export type ContractCommand = ServiceCommand | RecordingCommand | UsageCommand | PactCommand;

// The backslash ends the first source line without adding a newline: the text starts flush left, as it prints.
export const CONTRACT_USAGE = `\
Usage: property-listing-contract --base-url <url> --api-key <key> --token <token> [options]
       property-listing-contract --recording <file.har> [--base-url <url>] [options]
       property-listing-contract --usage <usage.json> --base-url <url> [options]
       property-listing-contract --usage <usage.json> --profile <profile.json> [options]
       property-listing-contract --usage <usage.json> --base-url <url> --rerun "<test command>" [options]
       (in a clone of this repository: npx --no -- property-listing-contract followed by the same options;
       in CI give the credentials as CONTRACT_API_KEY and CONTRACT_TOKEN, never on the command line:
       docs/runner-in-ci.md)

Runs the contract scenario against an implementation of the Property Listing Service (the mock or the real
service), or checks recorded traffic (a HAR file, or a JSON list of { request, response } exchanges), and
holds every answer (and every recorded request) against spec/openapi.yaml.

Options:
  --base-url <url>     the implementation's base address (env CONTRACT_BASE_URL); with --recording, only the
                       exchanges under it are checked (by default, every path under /api/v1/object/)
  --public-base-url <url>
                       the address clients reach the service at, when --base-url is another one (a proxy, a
                       private address; env CONTRACT_PUBLIC_BASE_URL): the auto-login uri of a property create
                       or edit must start with it (default: --base-url)
  --api-key <key>      the API-KEY header to send (env CONTRACT_API_KEY)
  --token <token>      the TOKEN header to send (env CONTRACT_TOKEN)
  --recording <file>   check this recording instead of running the scenario
  --usage <file>       a consumer's usage, as the mock recorded it (--record-usage): with --base-url, replay
                       each test's interactions in order on the service (ids rebound, start records made first)
                       and judge what the client would notice; with --profile and no --base-url, judge it
                       against the service profile alone, sending nothing. A difference on an assumption fails
                       the consumer (naming the assumption), on a documented fact the service
  --rerun "<command>"  with --usage: replay the usage (against --base-url, or offline against the mock playing
                       --profile, nothing sent), write the service's answers (--write-answers, else a temporary
                       file), then run the test command (a shell line, such as "npx vitest run") with
                       MOCK_ANSWERS naming them: each consumer test's verdict is its own result against the
                       service's answers, explained by what the replay found differed. The suite is set up as
                       for recording (property-listing-kit/vitest, usage: { consumer }) and is not changed
  --write-answers <file>
                       with --usage: write what the service answered each interaction of each test (status,
                       media type, headers, body; no credential), spec/answers.schema.json; property-listing-mock
                       --answers <file> (MOCK_ANSWERS) serves them
  --strict             fail on checks that rest on the contract's assumptions too (error statuses, problem+json)
  --reporter <name>    text (default), junit or json
  --output <file>      write the report to this file instead of standard output (with junit or json and no
                       --output, standard output holds the report alone: progress goes to standard error)
  --json-report <file> also write the JSON report to this file, whatever --reporter is: the full list of
                       records left behind, retried and unanswered requests (env CONTRACT_JSON_REPORT)
  --other-api-key <key>, --other-token <token>
                       a second account (env CONTRACT_OTHER_API_KEY, CONTRACT_OTHER_TOKEN): its TOKEN is sent
                       with your API-KEY, which must be refused; without it those probes are skipped
  --fresh-api-key <key>, --fresh-token <token>
                       an account without agents (env CONTRACT_FRESH_API_KEY, CONTRACT_FRESH_TOKEN): the run
                       fills its agent seats to check the limit, then deletes the agents; without it, skipped
  --fresh-seats <n>    the fresh account's seat limit, when you know it (env CONTRACT_FRESH_SEATS)
  --skip-seat-checks   do not fill agent seats (for a production account); reported as skipped
  --show-credentials   print credentials in the curl lines of failures (default: as $CONTRACT_… variables)
  --timeout <ms>       how long to wait for each answer (default 10000; env CONTRACT_TIMEOUT): a later answer
                       fails that request, and what rested on it is skipped
  --run-id <id>        part of the emails and external ids the run creates (default: from the clock); a random
                       suffix keeps runs with the same id apart
  --write-profile <file>
                       also write a service profile: what the service did wherever the document is silent
                       (error statuses, media types and body shapes, list orders, seats, never-set and extra
                       fields), for property-listing-mock --profile; with --recording, what the recording shows
  --profile <file>     also hold the service to a service profile: every difference fails profile_conformance,
                       naming the observation and when it was recorded (env CONTRACT_PROFILE)
  --fuzz <n>           after the scenario, n generated cases per operation that takes input (endpoints 1-5),
                       valid and invalid, from the documented constraints (1 to 10000); each kind of failure is
                       shrunk (at most 100 more requests) and reported once, with its curl line
  --seed <s>           the seed of the generated cases (an integer, --seed=-5 if negative; default random);
                       every report prints it, and the same seed sends the same cases again
  --write-pact <file>  with --usage <file>: write the consumer's usage as a Pact specification v4 file (each
                       test's interactions standalone, provider states for the records and ids they need,
                       matched by type and pattern, the mock's demo credentials) and exit; docs/pact.md
  --quiet              no progress lines on standard error
  --version            print the kit's version
  --help               show this help

With --rerun: 0 every consumer test held against the service's answers, 1 a test broke (or was not run), 2 as
below, or the test command reported no test (it does not load property-listing-kit/vitest).

Exit codes: 0 the contract holds, 1 it does not, 2 usage error (also: every route answers 404 under the base
URL, the credentials are refused everywhere, the fresh account has agents, another run changed the fresh account
meanwhile), the implementation cannot be reached (or TLS fails), the recording cannot be read or holds no
exchange with the service, the --usage file is refused (missing, not JSON, another version, an operation the
contract lacks: the file is named), or the --profile file is refused (not JSON, another version, unknown keys, or it
contradicts the interface document: every entry at fault is named); 130 interrupted (Ctrl-C), after deleting
what the run created.`;

/** The runner's options that take a value, and its flags (each one in the usage above). */
const VALUE_OPTIONS = [
  "base-url",
  "public-base-url",
  "api-key",
  "token",
  "recording",
  "usage",
  "reporter",
  "output",
  "json-report",
  "timeout",
  "run-id",
  "other-api-key",
  "other-token",
  "fresh-api-key",
  "fresh-token",
  "fresh-seats",
  "write-profile",
  "write-pact",
  "profile",
  "fuzz",
  "seed",
  "write-answers",
  "rerun",
] as const;
const FLAG_OPTIONS = ["strict", "skip-seat-checks", "show-credentials", "quiet"] as const;

export type ParsedContractArgs = ParsedArgs<ContractCommand>;

/** Reads the command line and the environment once. */
export function parseContractArgs(argv: string[], env: NodeJS.ProcessEnv): ParsedContractArgs {
  const read = readOptions(argv, VALUE_OPTIONS, FLAG_OPTIONS);
  if (read.kind !== "values") return read;
  const { values } = read;
  if (values["write-pact"] !== undefined) {
    if (values["write-pact"] === "") return { kind: "error", message: "--write-pact needs a file name" };
    if (!values.usage)
      return { kind: "error", message: "--write-pact needs --usage <file>: the usage the pact is written from" };
    const others = Object.keys(values).filter((name) => !["usage", "write-pact", "quiet"].includes(name));
    if (others.length > 0)
      return {
        kind: "error",
        message:
          "--write-pact writes the usage as a pact and sends nothing; it takes --usage (and --quiet) only, not " +
          others.map((name) => `--${name}`).join(", "),
      };
    return {
      kind: "run",
      command: { kind: "pact", usage: values.usage, writePact: values["write-pact"], quiet: values.quiet ?? false },
    };
  }
  if (values["write-profile"] === "") return { kind: "error", message: "--write-profile needs a file name" };
  const profile = values.profile ?? env.CONTRACT_PROFILE;
  if (profile === "") return { kind: "error", message: "--profile needs a file name" };
  const reporter = values.reporter ?? "text";
  if (!(REPORTERS as readonly string[]).includes(reporter))
    return { kind: "error", message: `--reporter must be one of ${REPORTERS.join(", ")}, got ${reporter}` };
  const report: ReportOptions = {
    strict: values.strict ?? false,
    reporter: reporter as ReporterName,
    quiet: values.quiet ?? false,
  };
  if (values.output) report.output = values.output;
  const jsonReport = values["json-report"] ?? (env.CONTRACT_JSON_REPORT || undefined);
  if (jsonReport === "") return { kind: "error", message: "--json-report needs a file name" };
  if (jsonReport) report.jsonReport = jsonReport;
  if (values["write-profile"]) report.writeProfile = values["write-profile"];
  if (profile) report.profile = profile;

  for (const name of ["write-answers", "rerun"] as const) {
    if (values[name] === undefined) continue;
    if (values[name] === "")
      return {
        kind: "error",
        message:
          name === "rerun"
            ? '--rerun needs a test command, such as --rerun "npx vitest run"'
            : "--write-answers needs a file name",
      };
    if (values.usage === undefined)
      return {
        kind: "error",
        message: `--${name} needs --usage <file>: the consumer's usage whose interactions the service answers`,
      };
  }
  const answersOptions = {
    ...(values["write-answers"] ? { writeAnswers: values["write-answers"] } : {}),
    ...(values.rerun ? { rerun: values.rerun } : {}),
  };
  if (values.usage !== undefined) {
    if (values.usage === "") return { kind: "error", message: "--usage needs a file name" };
    const refused = (["recording", "fuzz", "seed", "write-profile"] as const).filter(
      (name) => values[name] !== undefined,
    );
    if (refused.length > 0)
      return {
        kind: "error",
        message:
          `${refused.map((name) => `--${name}`).join(", ")} ` +
          `${refused.length === 1 ? "does" : "do"} not go with --usage`,
      };
    // Offline when --profile is given without --base-url, or when only CONTRACT_PROFILE names one and no base URL
    // is set at all; a nightly job with CONTRACT_BASE_URL and CONTRACT_PROFILE replays.
    const offline =
      values["base-url"] === undefined &&
      (values.profile !== undefined || (!env.CONTRACT_BASE_URL && profile !== undefined));
    if (offline) {
      const sending = (
        [
          "public-base-url",
          "api-key",
          "token",
          "timeout",
          "run-id",
          "other-api-key",
          "other-token",
          "fresh-api-key",
          "fresh-token",
          "fresh-seats",
          "skip-seat-checks",
          "show-credentials",
        ] as const
      ).filter((name) => values[name] !== undefined);
      if (sending.length > 0)
        return {
          kind: "error",
          message:
            `${sending.map((name) => `--${name}`).join(", ")} ${sending.length === 1 ? "is" : "are"} ` +
            "for a replay against a service (--base-url), not for judging a usage against --profile alone",
        };
      return { kind: "run", command: { kind: "usage", file: values.usage, ...report, ...answersOptions } };
    }
    if (values["base-url"] !== undefined && values.profile !== undefined)
      return {
        kind: "error",
        message:
          "--usage takes --base-url (replay against the service) " +
          "or --profile (judge against a recorded profile, sending nothing), not both",
      };
    if (values["base-url"] === undefined && !env.CONTRACT_BASE_URL)
      return {
        kind: "error",
        message:
          "--usage needs --base-url (or CONTRACT_BASE_URL) to replay against a service, " +
          "or --profile to judge against a recorded profile",
      };
  }

  if (values.recording !== undefined) {
    if (values.recording === "") return { kind: "error", message: "--recording needs a file name" };
    const sending = (
      [
        "public-base-url",
        "api-key",
        "token",
        "timeout",
        "run-id",
        "other-api-key",
        "other-token",
        "fresh-api-key",
        "fresh-token",
        "fresh-seats",
        "skip-seat-checks",
        "show-credentials",
        "fuzz",
        "seed",
      ] as const
    ).filter((name) => values[name] !== undefined);
    if (sending.length > 0)
      return {
        kind: "error",
        message:
          `${sending.map((name) => `--${name}`).join(", ")} ${sending.length === 1 ? "is" : "are"} ` +
          "for a run against a service, not for --recording (a recording carries its own requests)",
      };
    const baseUrl = values["base-url"];
    if (baseUrl !== undefined && !isHttpUrl(baseUrl))
      return { kind: "error", message: `--base-url must be an http(s) address, got ${baseUrl}` };
    const command: RecordingCommand = { kind: "recording", file: values.recording, ...report };
    if (baseUrl !== undefined) command.baseUrl = baseUrl;
    return { kind: "run", command };
  }

  const baseUrl = values["base-url"] ?? env.CONTRACT_BASE_URL;
  const apiKey = values["api-key"] ?? env.CONTRACT_API_KEY;
  const token = values.token ?? env.CONTRACT_TOKEN;
  if (!baseUrl)
    return { kind: "error", message: "--base-url is required (or CONTRACT_BASE_URL), unless --recording is given" };
  if (!isHttpUrl(baseUrl)) return { kind: "error", message: `--base-url must be an http(s) address, got ${baseUrl}` };
  // fetch refuses an address with credentials in it, and a log would show them: the service takes API-KEY and
  // TOKEN (section 5).
  if (new URL(baseUrl).username || new URL(baseUrl).password)
    return {
      kind: "error",
      message:
        "--base-url must not hold a user or password (user:password@): " +
        "the service authenticates by API-KEY and TOKEN (section 5)",
    };
  if (!apiKey) return { kind: "error", message: "--api-key is required (or CONTRACT_API_KEY)" };
  if (!token) return { kind: "error", message: "--token is required (or CONTRACT_TOKEN)" };
  const timeoutText = values.timeout ?? (env.CONTRACT_TIMEOUT || "10000");
  if (!/^[0-9]+$/.test(timeoutText) || Number(timeoutText) < 1)
    return { kind: "error", message: `--timeout must be a positive number of milliseconds, got ${timeoutText}` };
  if (values["run-id"] !== undefined && !/^[A-Za-z0-9-]{1,40}$/.test(values["run-id"])) {
    return { kind: "error", message: "--run-id may hold letters, digits and dashes, at most 40" };
  }
  const command: ServiceCommand = {
    kind: "service",
    baseUrl,
    apiKey,
    token,
    timeoutMs: Number(timeoutText),
    skipSeatChecks: values["skip-seat-checks"] ?? false,
    showCredentials: values["show-credentials"] ?? false,
    ...report,
  };
  if (values["run-id"]) command.runId = values["run-id"];
  if (values.fuzz !== undefined) {
    if (!/^[0-9]+$/.test(values.fuzz) || Number(values.fuzz) < 1 || Number(values.fuzz) > 10_000)
      return { kind: "error", message: `--fuzz must be a number of cases from 1 to 10000, got ${values.fuzz}` };
    command.fuzz = Number(values.fuzz);
  }
  if (values.seed !== undefined) {
    if (!/^-?[0-9]+$/.test(values.seed) || Math.abs(Number(values.seed)) > 2 ** 31 - 1)
      return { kind: "error", message: `--seed must be an integer from -2147483647 to 2147483647, got ${values.seed}` };
    command.seed = Number(values.seed);
  }
  const publicBaseUrl = values["public-base-url"] ?? env.CONTRACT_PUBLIC_BASE_URL;
  if (publicBaseUrl !== undefined) {
    if (!isHttpUrl(publicBaseUrl))
      return { kind: "error", message: `--public-base-url must be an http(s) address, got ${publicBaseUrl}` };
    command.publicBaseUrl = publicBaseUrl;
  }
  const other = pair(
    "other",
    values["other-api-key"] ?? env.CONTRACT_OTHER_API_KEY,
    values["other-token"] ?? env.CONTRACT_OTHER_TOKEN,
  );
  if (typeof other === "string") return { kind: "error", message: other };
  const fresh = pair(
    "fresh",
    values["fresh-api-key"] ?? env.CONTRACT_FRESH_API_KEY,
    values["fresh-token"] ?? env.CONTRACT_FRESH_TOKEN,
  );
  if (typeof fresh === "string") return { kind: "error", message: fresh };
  for (const [name, account] of [
    ["other", other],
    ["fresh", fresh],
  ] as const) {
    if (account && account.apiKey === apiKey)
      return { kind: "error", message: `--${name}-api-key must be another account's key, not the same as --api-key` };
  }
  if (other && fresh && other.apiKey === fresh.apiKey)
    return {
      kind: "error",
      message: "--other-api-key and --fresh-api-key must be two different accounts: the seat checks fill the fresh one",
    };
  const seatsText = values["fresh-seats"] ?? env.CONTRACT_FRESH_SEATS;
  if (seatsText !== undefined) {
    if (!fresh)
      return {
        kind: "error",
        message: "--fresh-seats is the fresh account's seat limit: give --fresh-api-key and --fresh-token too",
      };
    if (!/^[0-9]+$/.test(seatsText) || Number(seatsText) < 1 || Number(seatsText) > 100)
      return { kind: "error", message: `--fresh-seats must be a number of seats from 1 to 100, got ${seatsText}` };
  }
  if (other) command.other = other;
  if (fresh) command.fresh = seatsText === undefined ? fresh : { ...fresh, seats: Number(seatsText) };
  if (values.usage !== undefined) {
    // A replay holds the service to the usage, not to a profile (CONTRACT_PROFILE set for the nightly run).
    delete command.profile;
    const { profile: _unused, ...usageReport } = report;
    return {
      kind: "run",
      command: { kind: "usage", file: values.usage, service: command, ...usageReport, ...answersOptions },
    };
  }
  return { kind: "run", command };
}

/** Both credentials of an account, neither, or what is missing. */
function pair(
  name: string,
  apiKey: string | undefined,
  token: string | undefined,
): { apiKey: string; token: string } | undefined | string {
  if (!apiKey && !token) return undefined;
  if (!apiKey) return `--${name}-token needs --${name}-api-key (or CONTRACT_${name.toUpperCase()}_API_KEY)`;
  if (!token) return `--${name}-api-key needs --${name}-token (or CONTRACT_${name.toUpperCase()}_TOKEN)`;
  return { apiKey, token };
}

function isHttpUrl(text: string): boolean {
  if (!/^https?:\/\/[^\s/]+/.test(text)) return false;
  try {
    new URL(text);
    return true;
  } catch {
    return false;
  }
}
