import { createContract, type Contract } from "../create-contract.ts";
import { CheckLedger, excerpt, type CheckContext } from "../runner/check-ledger.ts";
import { RECORDING_CHECKS } from "../runner/checks.ts";
import type { Exchange } from "../runner/http-exchange.ts";
import type { ExchangeSummary, RecordingScope, RunEvent, RunReport } from "../runner/run-report.ts";
import { compareWithProfile } from "../profile/compare-profile.ts";
import { ProfileObserver, type ObservedAnswer } from "../profile/profile-observer.ts";
import type { ServiceProfile } from "../profile/service-profile.ts";
import { recordedAnswer } from "./recorded-answer.ts";
import type { RecordedExchange } from "./recorded-exchange.ts";

/** Options of {@link checkRecording}. */
export interface RecordingOptions {
  /** The recording's name for the report: its file name. */
  source: string;
  /**
   * Where the service answers in the recording (`https://staging.example.com`, or with a path prefix the API
   * is served under). Only exchanges under it are checked, the rest are other traffic. By default, every
   * exchange whose path starts with the API's own prefix (`/api/v1/object/`) is checked, whatever its host.
   */
  baseUrl?: string;
  /** Fail on checks that rest only on our assumptions too. */
  strict?: boolean;
  /** Told of each exchange as it is checked. */
  onEvent?: (event: RunEvent) => void;
  /** Make a service profile of what the recording shows (`--write-profile`): the outcome carries it. */
  recordProfile?: boolean;
  /** Hold the recorded answers to a service profile too (`--profile`): each difference fails `profile_conformance`. */
  profile?: ServiceProfile;
  contract?: Contract;
  closedContract?: Contract;
  now?: () => number;
}

/** The report, or why the recording has nothing to check. */
export type RecordingOutcome =
  | { kind: "report"; report: RunReport; profile?: ServiceProfile }
  | { kind: "nothing-to-check"; message: string };

/**
 * Holds every exchange of a recording that addresses the service against the contract: the request the client
 * sent (`request_conformance`) and the answer it got (status, content type, schema, unlisted fields, no server
 * error). CORS preflights and traffic to other addresses are counted and left out.
 *
 * @example
 * const read = readRecording(readFileSync("traffic.har", "utf8"));
 * if (read.ok) {
 *   const outcome = checkRecording(read.exchanges, { source: "traffic.har" });
 *   if (outcome.kind === "report") console.log(renderTextReport(outcome.report));
 * }
 */
export function checkRecording(exchanges: readonly RecordedExchange[], options: RecordingOptions): RecordingOutcome {
  const now = options.now ?? Date.now;
  const started = now();
  const contract = options.contract ?? createContract();
  const emit = options.onEvent ?? (() => {});
  const ledger = new CheckLedger({
    contract,
    closedContract: options.closedContract ?? createContract({ closed: true }),
    strict: options.strict ?? false,
    emit,
  });
  const apiPrefix = commonPathPrefix(contract.operations.map((operation) => operation.pathTemplate));
  const base = options.baseUrl ? parseBase(options.baseUrl) : undefined;
  const scope: RecordingScope = {
    file: options.source,
    entries: exchanges.length,
    checked: 0,
    preflights: 0,
    otherTraffic: 0,
  };
  if (base) scope.baseUrl = options.baseUrl!;
  else scope.apiPrefix = apiPrefix;
  const otherAddresses = new Set<string>();
  const observer =
    options.profile || options.recordProfile
      ? new ProfileObserver({
          runId: `recording-${started.toString(36)}`,
          document: contract.document,
          now: () => started,
        })
      : undefined;
  const observe = observer && ((answer: ObservedAnswer) => observer.observe(answer));

  for (const recorded of exchanges) {
    const path = base ? pathUnder(recorded.url, base) : pathWithPrefix(recorded.url, apiPrefix);
    if (path === undefined) {
      scope.otherTraffic += 1;
      if (otherAddresses.size < 3) otherAddresses.add(addressOf(recorded.url));
      continue;
    }
    if (recorded.method === "OPTIONS" && recorded.requestHeaders["access-control-request-method"] !== undefined) {
      scope.preflights += 1;
      continue;
    }
    scope.checked += 1;
    checkExchange(ledger, contract, recorded, path, emit, observe);
  }

  if (scope.checked === 0) {
    const where = base ? `under ${options.baseUrl}` : `with a path under ${apiPrefix}`;
    const others =
      scope.otherTraffic > 0
        ? `; its ${scope.otherTraffic} other entries go elsewhere ` +
          `(${[...otherAddresses].join(", ")}${scope.otherTraffic > otherAddresses.size ? ", …" : ""})`
        : "";
    const hint = base ? "" : ". Give --base-url if the service is served under another path";
    return {
      kind: "nothing-to-check",
      message: `${options.source} holds no exchange with the service ${where}${others}${hint}.`,
    };
  }

  if (observer && options.profile) {
    for (const { point, status, step, message } of compareWithProfile(options.profile, observer)) {
      if (status === "skipped") ledger.skip("profile_conformance", step, message);
      else
        ledger.record("profile_conformance", "profile", status === "passed", `${step} (profile: ${point})`, {
          message,
        });
    }
  }
  const checks = options.profile ? [...RECORDING_CHECKS, "profile_conformance" as const] : RECORDING_CHECKS;
  const report = ledger.report({
    baseUrl: options.baseUrl ?? "",
    startedAt: started,
    finishedAt: now(),
    checks,
    recording: scope,
  });
  if (!observer || !options.recordProfile) return { kind: "report", report };
  return {
    kind: "report",
    report,
    profile: observer.profile({ recordedAt: new Date(started).toISOString(), recording: options.source }),
  };
}

function checkExchange(
  ledger: CheckLedger,
  contract: Contract,
  recorded: RecordedExchange,
  path: string,
  emit: (event: RunEvent) => void,
  observe?: (answer: ObservedAnswer) => void,
): void {
  const step = recorded.label;
  const request: ExchangeSummary = { method: recorded.method, path };
  if (recorded.requestBody !== undefined) request.body = recorded.requestBody;
  if (recorded.response) request.status = recorded.response.status;
  const before = ledger.results.length;
  ledger.exchanges += 1;

  const checked = contract.validateRequest({
    method: recorded.method,
    path,
    headers: recorded.requestHeaders,
    body: recorded.requestBody,
  });
  const context: CheckContext = {
    operation: checked.operationId ?? `${recorded.method} ${path.split("?")[0]}`,
    request,
  };
  if (recorded.requestBodyError !== undefined) {
    ledger.record("request_conformance", "fact", false, step, {
      ...context,
      message: `the body is announced as JSON but does not parse: ${recorded.requestBodyError}`,
    });
  } else {
    ledger.checkViolations("request_conformance", step, context, checked.errors);
  }

  const response = recorded.response;
  if (!response) {
    ledger.skipped(
      "not_a_server_error",
      step,
      "the recording holds no answer to this request (it failed or was cancelled in the client)",
      context.operation,
      request,
    );
  } else if (checked.operationId !== undefined) {
    ledger.checkAnswer(step, context, toExchange(recorded, path), { bodyRecorded: response.bodyRecorded });
  } else {
    // No operation to hold the answer against; a server error is one all the same.
    ledger.record("not_a_server_error", "fact", response.status < 500, step, {
      ...context,
      message: `answered ${response.status}: ${excerpt(response.text)}`,
    });
  }
  if (response?.bodyRecorded && observe)
    observe(recordedAnswer(contract, recorded, path, checked, toExchange(recorded, path)));
  emit({
    kind: "step",
    step,
    operation: context.operation,
    request,
    durationMs: recorded.durationMs ?? 0,
    results: ledger.results.slice(before),
  });
}

function toExchange(recorded: RecordedExchange, path: string): Exchange {
  const response = recorded.response!;
  const headers = new Headers();
  for (const [name, value] of Object.entries(response.headers)) {
    try {
      headers.append(name, value);
    } catch {
      // a name or value fetch cannot carry; the contract only reads content-type
    }
  }
  const exchange: Exchange = {
    method: recorded.method,
    path,
    requestHeaders: recorded.requestHeaders,
    status: response.status,
    headers,
    body: response.body,
    text: response.text,
    durationMs: recorded.durationMs ?? 0,
  };
  if (recorded.requestBody !== undefined) exchange.requestBody = recorded.requestBody;
  if (response.jsonError !== undefined) exchange.jsonError = response.jsonError;
  return exchange;
}

/** The longest path prefix, ending in `/`, that all of the contract's paths share: `/api/v1/object/`. */
function commonPathPrefix(paths: readonly string[]): string {
  let prefix = paths[0] ?? "/";
  for (const path of paths) while (!path.startsWith(prefix)) prefix = prefix.slice(0, -1);
  return prefix.slice(0, prefix.lastIndexOf("/") + 1) || "/";
}

const PLACEHOLDER_ORIGIN = "http://recording.invalid";

/** The path and query of a recorded URL (absolute, or only a path). */
function pathAndQuery(url: string): { origin: string; path: string } | undefined {
  try {
    const parsed = new URL(url, PLACEHOLDER_ORIGIN);
    return { origin: parsed.origin, path: `${parsed.pathname}${parsed.search}` };
  } catch {
    return undefined;
  }
}

function pathWithPrefix(url: string, prefix: string): string | undefined {
  const found = pathAndQuery(url);
  return found?.path.startsWith(prefix) ? found.path : undefined;
}

interface Base {
  origin: string;
  path: string;
}

function parseBase(baseUrl: string): Base {
  const parsed = new URL(baseUrl);
  return { origin: parsed.origin, path: parsed.pathname.replace(/\/+$/, "") };
}

/** The path below the base, when the URL is under it; a recording of paths only matches any origin. */
function pathUnder(url: string, base: Base): string | undefined {
  const found = pathAndQuery(url);
  if (!found) return undefined;
  if (found.origin !== base.origin && found.origin !== PLACEHOLDER_ORIGIN) return undefined;
  if (base.path === "") return found.path;
  if (found.path !== base.path && !found.path.startsWith(`${base.path}/`) && !found.path.startsWith(`${base.path}?`))
    return undefined;
  const rest = found.path.slice(base.path.length);
  return rest.startsWith("/") ? rest : `/${rest}`;
}

function addressOf(url: string): string {
  const found = pathAndQuery(url);
  if (!found) return url.slice(0, 60);
  return found.origin === PLACEHOLDER_ORIGIN
    ? found.path.split("?")[0]!
    : `${found.origin}${found.path.split("?")[0]!}`.slice(0, 80);
}
