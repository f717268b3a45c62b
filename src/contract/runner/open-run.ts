import { createContract, type Contract } from "../create-contract.ts";
import { preflight, type PreflightAnswer, type PreflightProblem } from "./preflight.ts";
import type { Exchanger } from "./http-exchange.ts";
import { runTransport, type RunAccounts, type RunTransportOptions } from "./sender.ts";

/** What a run of the scenario and a replay of a usage are given to begin with. */
export interface OpenRunOptions extends RunTransportOptions {
  contract?: Contract;
  closedContract?: Contract;
}

/** A run begun: its clock and start, its exchangers and accounts, its contracts, and what the preflight saw. */
export interface OpenedRun {
  kind: "opened";
  now: () => number;
  started: number;
  exchange: Exchanger;
  cleanupExchange: Exchanger;
  accounts: RunAccounts;
  contract: Contract;
  closedContract: Contract;
  /** The preflight's answers, to be checked like every other answer of the service. */
  preflightAnswers: PreflightAnswer[];
  /** The preflight's requests that got no answer in time. */
  preflightLate: Parameters<typeof preflight>[3]["late"];
}

/**
 * Begins a run or a replay the same way: one budget of waiting for the whole run, clean-up included
 * (retry-policy.ts), through the proxies; the contracts compiled before the first request, because compiling
 * blocks the event loop long enough for a server to close an idle keep-alive connection under fetch's feet
 * (ECONNRESET on the next request); then the preflight, whose problem ends the run before it starts.
 */
export async function openRun(options: OpenRunOptions, needFreshEmpty: boolean): Promise<OpenedRun | PreflightProblem> {
  const now = options.now ?? Date.now;
  const started = now();
  const timeoutMs = options.timeoutMs ?? 10_000;
  const { exchange, cleanupExchange, accounts } = await runTransport({ ...options, timeoutMs, now });
  const contract = options.contract ?? createContract();
  const closedContract = options.closedContract ?? createContract({ closed: true });
  const preflightAnswers: PreflightAnswer[] = [];
  const preflightLate: OpenedRun["preflightLate"] = [];
  const problem = await preflight(exchange, options.baseUrl, accounts, {
    needFreshEmpty,
    answers: preflightAnswers,
    late: preflightLate,
  });
  if (problem) return problem;
  return {
    kind: "opened",
    now,
    started,
    exchange,
    cleanupExchange,
    accounts,
    contract,
    closedContract,
    preflightAnswers,
    preflightLate,
  };
}
