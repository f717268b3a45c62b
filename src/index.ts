/**
 * The Property Listing Service kit: the compiled contract, the stateful mock, the contract runner, and the
 * check of recorded traffic.
 * The vitest matcher lives in `property-listing-kit/vitest`, and the fixtures generator, which needs faker (an
 * optional peer dependency), in `property-listing-kit/fixtures`: the fixtures themselves ship, generated.
 */
export {
  createContract,
  type Contract,
  type ContractOptions,
  type RequestExchange,
  type ResponseExchange,
  type RequestResult,
  type HeaderBag,
} from "./contract/create-contract.ts";
export {
  formatViolation,
  type ContractResult,
  type ContractViolation,
  type Tier,
  type ExchangePart,
} from "./contract/contract-violation.ts";
export { checkAgainstContract, useContract, type ContractMatcherOptions } from "./contract/to-satisfy-contract.ts";
export { runContract, type RunOptions, type RunOutcome } from "./contract/runner/run-contract.ts";
export { CHECKS, SCENARIO_CHECKS, RECORDING_CHECKS, type CheckName } from "./contract/runner/checks.ts";
export { USAGE_CHECKS } from "./contract/runner/checks.ts";
export { replayUsage, type ReplayOptions } from "./contract/usage/replay-usage.ts";
export { judgeUsageOffline, type OfflineOptions } from "./contract/usage/judge-usage-offline.ts";
export type { RunReport, CheckResult, CheckStatus, RunEvent, RecordingScope } from "./contract/runner/run-report.ts";
export type { UsageVerdicts } from "./contract/runner/run-report.ts";
export { readRecording, type RecordingRead } from "./contract/recording/read-recording.ts";
export { checkRecording, type RecordingOptions, type RecordingOutcome } from "./contract/recording/check-recording.ts";
export type { RecordedExchange, RecordedResponse } from "./contract/recording/recorded-exchange.ts";
export { renderTextReport } from "./contract/runner/reporters/text-reporter.ts";
export { renderJunitReport } from "./contract/runner/reporters/junit-reporter.ts";
export { renderJsonReport } from "./contract/runner/reporters/json-reporter.ts";
export {
  createMockServer,
  ProfileRefused,
  StateRefused,
  NAMED_STATES,
  STATE_NAMES,
  type MockServer,
  type MockServerOptions,
  type AccountConfig,
  type Listening,
} from "./hosts/node/create-mock-server.ts";
export {
  readServiceProfile,
  readServiceProfileFile,
  PROFILE_SCHEMA_PATH,
  type ProfileReading,
} from "./contract/profile/read-service-profile.ts";
export {
  PROFILE_VERSION,
  ERROR_POINTS,
  VALUE_POINTS,
  type ServiceProfile,
  type Observations,
  type ErrorObservation,
} from "./contract/profile/service-profile.ts";
export { sortedJson } from "./contract/profile/infer-json-schema.ts";
export { loadFixtures, DEFAULT_FIXTURES_PATH } from "./hosts/node/state/load-fixtures.ts";
export {
  RequestJournal,
  DEFAULT_JOURNAL_SIZE,
  type JournalEntry,
  type JournalFilter,
  type AppliedFaults,
} from "./mock/services/request-journal.ts";
export { FaultRules, MAX_FAULT_RULES, type FaultRule, type FaultRoute } from "./mock/services/fault-rules.ts";
export { MockRefused } from "./mock/mock-refused.ts";
export type { MockFaults } from "./mock/mock-faults.ts";
export { parseLatency, type Latency } from "./mock/services/latency.ts";
export { parsePrefer, type Preferences } from "./mock/services/parse-prefer.ts";
export type { Database } from "./mock/store/records.ts";
export type { UsageControl } from "./mock/usage/usage-recorder.ts";
export type { UsageOption } from "./mock/usage/check-usage-option.ts";
export type { AnswersDocument, ServiceAnswer } from "./contract/usage/answers-document.ts";
export type { AnswersServer, NotCovered } from "./mock/answers/answers-server.ts";
export { AnswersCollector } from "./contract/usage/collect-answers.ts";
export { loadSpec, DEFAULT_SPEC_PATH } from "./spec/load-spec.ts";
export type { components, operations, paths } from "./generated/openapi.ts";
