import { parseArgs } from "node:util";

/** The reporters of a contract run. */
export const REPORTERS = ["text", "junit", "json"] as const;
export type ReporterName = (typeof REPORTERS)[number];

/** How the report is given, whatever was checked. */
interface ReportOptions {
  strict: boolean;
  reporter: ReporterName;
  output?: string;
  quiet: boolean;
}

/** The scenario, run against a service. */
export interface ServiceCommand extends ReportOptions {
  kind: "service";
  baseUrl: string;
  apiKey: string;
  token: string;
  timeoutMs: number;
  runId?: string;
}

/** A recording of traffic, checked exchange by exchange. */
export interface RecordingCommand extends ReportOptions {
  kind: "recording";
  file: string;
  /** Only exchanges under this base address are checked. */
  baseUrl?: string;
}

/** What the contract runner's command line asks for. */
export type ContractCommand = ServiceCommand | RecordingCommand;

export const CONTRACT_USAGE = `Usage: property-listing-contract --base-url <url> --api-key <key> --token <token> [options]
       property-listing-contract --recording <file.har> [--base-url <url>] [options]
       (in a clone of this repository: npm run contract -- followed by the same options)

Runs the contract scenario against an implementation of the Property Listing Service (the mock or the real
service), or checks recorded traffic (a HAR file, or a JSON list of { request, response } exchanges), and
holds every answer (and every recorded request) against spec/openapi.yaml.

Options:
  --base-url <url>     the implementation's base address (env CONTRACT_BASE_URL); with --recording, only the
                       exchanges under it are checked (by default, every path under /api/v1/object/)
  --api-key <key>      the API-KEY header to send (env CONTRACT_API_KEY)
  --token <token>      the TOKEN header to send (env CONTRACT_TOKEN)
  --recording <file>   check this recording instead of running the scenario
  --strict             fail on checks that rest on the contract's assumptions too (error statuses, problem+json)
  --reporter <name>    text (default), junit or json
  --output <file>      write the report to this file instead of standard output
  --timeout <ms>       how long to wait for each answer (default 10000)
  --run-id <id>        a suffix for the emails and external ids the run creates (default: from the clock)
  --quiet              no progress lines on standard error
  --version            print the kit's version
  --help               show this help

Exit codes: 0 the contract holds, 1 it does not, 2 usage error, the implementation cannot be reached, or the
recording cannot be read or holds no exchange with the service.`;

export type ParsedContractArgs = { kind: "run"; command: ContractCommand } | { kind: "help" } | { kind: "version" } | { kind: "error"; message: string };

/** Reads the command line and the environment once. */
export function parseContractArgs(argv: string[], env: NodeJS.ProcessEnv): ParsedContractArgs {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        "base-url": { type: "string" },
        "api-key": { type: "string" },
        token: { type: "string" },
        recording: { type: "string" },
        strict: { type: "boolean" },
        reporter: { type: "string" },
        output: { type: "string" },
        timeout: { type: "string" },
        "run-id": { type: "string" },
        quiet: { type: "boolean" },
        version: { type: "boolean" },
        help: { type: "boolean" },
      },
    }));
  } catch (error) {
    return { kind: "error", message: (error as Error).message };
  }
  if (values.help) return { kind: "help" };
  if (values.version) return { kind: "version" };
  const reporter = values.reporter ?? "text";
  if (!(REPORTERS as readonly string[]).includes(reporter)) return { kind: "error", message: `--reporter must be one of ${REPORTERS.join(", ")}, got ${reporter}` };
  const report: ReportOptions = { strict: values.strict ?? false, reporter: reporter as ReporterName, quiet: values.quiet ?? false };
  if (values.output) report.output = values.output;

  if (values.recording !== undefined) {
    if (values.recording === "") return { kind: "error", message: "--recording needs a file name" };
    const sending = (["api-key", "token", "timeout", "run-id"] as const).filter((name) => values[name] !== undefined);
    if (sending.length > 0) return { kind: "error", message: `${sending.map((name) => `--${name}`).join(", ")} ${sending.length === 1 ? "is" : "are"} for a run against a service, not for --recording (a recording carries its own requests)` };
    const baseUrl = values["base-url"];
    if (baseUrl !== undefined && !isHttpUrl(baseUrl)) return { kind: "error", message: `--base-url must be an http(s) address, got ${baseUrl}` };
    const command: RecordingCommand = { kind: "recording", file: values.recording, ...report };
    if (baseUrl !== undefined) command.baseUrl = baseUrl;
    return { kind: "run", command };
  }

  const baseUrl = values["base-url"] ?? env.CONTRACT_BASE_URL;
  const apiKey = values["api-key"] ?? env.CONTRACT_API_KEY;
  const token = values.token ?? env.CONTRACT_TOKEN;
  if (!baseUrl) return { kind: "error", message: "--base-url is required (or CONTRACT_BASE_URL), unless --recording is given" };
  if (!isHttpUrl(baseUrl)) return { kind: "error", message: `--base-url must be an http(s) address, got ${baseUrl}` };
  if (!apiKey) return { kind: "error", message: "--api-key is required (or CONTRACT_API_KEY)" };
  if (!token) return { kind: "error", message: "--token is required (or CONTRACT_TOKEN)" };
  const timeoutText = values.timeout ?? "10000";
  if (!/^[0-9]+$/.test(timeoutText) || Number(timeoutText) < 1) return { kind: "error", message: `--timeout must be a positive number of milliseconds, got ${timeoutText}` };
  if (values["run-id"] !== undefined && !/^[A-Za-z0-9-]{1,40}$/.test(values["run-id"])) {
    return { kind: "error", message: "--run-id may hold letters, digits and dashes, at most 40" };
  }
  const command: ServiceCommand = { kind: "service", baseUrl, apiKey, token, timeoutMs: Number(timeoutText), ...report };
  if (values["run-id"]) command.runId = values["run-id"];
  return { kind: "run", command };
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
