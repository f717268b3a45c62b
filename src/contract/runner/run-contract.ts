import { createContract, type Contract } from "../create-contract.ts";
import { SCENARIO_CHECKS } from "./checks.ts";
import { createExchanger } from "./http-exchange.ts";
import { RunContext } from "./run-context.ts";
import type { RunEvent, RunReport } from "./run-report.ts";
import { runScenario } from "./scenario.ts";

/** Options of {@link runContract}. */
export interface RunOptions {
  /** Where the implementation under test answers: `http://127.0.0.1:4010` or the real service's base URL. */
  baseUrl: string;
  apiKey: string;
  token: string;
  /** Fail on checks that rest only on our assumptions too (exact error statuses, the problem+json shape). */
  strict?: boolean;
  /** Milliseconds to wait for each answer. */
  timeoutMs?: number;
  /** Makes the run's emails and external ids unique; derived from the clock unless given. */
  runId?: string;
  /** Told of each step and check while the run goes on. */
  onEvent?: (event: RunEvent) => void;
  /** Injectable collaborators. */
  fetch?: typeof globalThis.fetch;
  contract?: Contract;
  closedContract?: Contract;
  now?: () => number;
}

/** A finished run, or the reason it could not start. */
export type RunOutcome = { kind: "report"; report: RunReport } | { kind: "unreachable"; message: string };

/**
 * Runs the contract scenario against an implementation and reports every check. The run fails when a check of
 * a documented fact fails (or, with `strict`, any check).
 *
 * @example
 * const outcome = await runContract({ baseUrl: "http://127.0.0.1:4010", apiKey: "demo-key", token: "demo-token" });
 * if (outcome.kind === "report" && outcome.report.result === "failed") process.exitCode = 1;
 */
export async function runContract(options: RunOptions): Promise<RunOutcome> {
  const now = options.now ?? Date.now;
  const started = now();
  const timeoutMs = options.timeoutMs ?? 10_000;
  const exchange = createExchanger({ baseUrl: options.baseUrl, timeoutMs, ...(options.fetch ? { fetch: options.fetch } : {}) });

  const probe = await exchange({ method: "GET", path: "/api/v1/object/template_base", headers: { "content-type": "application/json" } });
  if (!probe.ok) return { kind: "unreachable", message: `Cannot reach ${options.baseUrl}: ${probe.failure.reason}.` };

  const contract = options.contract ?? createContract();
  const ctx = new RunContext({
    exchange,
    contract,
    closedContract: options.closedContract ?? createContract({ closed: true }),
    apiKey: options.apiKey,
    token: options.token,
    strict: options.strict ?? false,
    emit: options.onEvent ?? (() => {}),
  });
  const { leftBehind } = await runScenario(ctx, options.runId ?? started.toString(36));

  return { kind: "report", report: ctx.report({ baseUrl: options.baseUrl, startedAt: started, finishedAt: now(), checks: SCENARIO_CHECKS, leftBehind }) };
}
