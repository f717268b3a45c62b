/**
 * 1b. A consumer's usage replayed (`property-listing-contract --usage <file> --base-url <url>`, issue 38): 100
 * interactions recorded from the mock (a create, an edit by the nid it answered and a retrieve, 33 times over, and
 * a list by the account's uid) replayed against the independent implementation on loopback, each answer held to
 * the contract and to what the client got, everything the replay makes labelled at its end, and what the service
 * answered gathered into the answers document as `--write-answers` and `--rerun` do. Three rounds, each on a fresh
 * instance; the median is the goal's figure.
 */
import { createContract } from "../../../src/contract/create-contract.ts";
import { replayUsage } from "../../../src/contract/usage/replay-usage.ts";
import { AnswersCollector } from "../../../src/contract/usage/collect-answers.ts";
import { startIndependentService } from "../../../test/support/independent-service/index.ts";
import { recordSampleUsage, SAMPLE_TESTS, type SampleTest } from "../../../test/support/usage-samples.ts";
import { count, ms, table } from "../format.ts";
import { roundsOf, type BenchSection } from "../section.ts";
import { median } from "../stats.ts";

/** The figures of this section. */
export interface UsageReplayFigures {
  interactions: number;
  tests: number;
  /** Requests the replay sent in all: preflight, start records, the account's uid, the interactions, labelling. */
  requests: number;
  roundsMs: number[];
  medianMs: number;
}

/** Rounds, each on a fresh instance (one in a `--quick` run: section.ts, roundsOf). */
const ROUNDS = 3;
const GOAL_MS = 2000;
/**
 * Tests of a create, an edit and a retrieve beside the one list: 33 make the goal's 100 interactions; a `--quick`
 * run, a look at the bench rather than its figures, replays 3 of them (10 interactions), every kind of step still.
 */
const CREATE_EDIT_TESTS = 33;
const QUICK_CREATE_EDIT_TESTS = 3;

export const section: BenchSection<UsageReplayFigures> = {
  key: "usage-replay",
  async run({ settings, progress }) {
    const rounds = roundsOf(settings, ROUNDS);
    const createEdits = settings.quick ? QUICK_CREATE_EDIT_TESTS : CREATE_EDIT_TESTS;
    progress(`usage replay: recording ${1 + 3 * createEdits} interactions from the mock…`);
    const tests: SampleTest[] = [
      SAMPLE_TESTS.list!,
      ...Array.from({ length: createEdits }, (_, index) => ({
        ...SAMPLE_TESTS.createEdit!,
        name: `properties > creates a property and edits its title #${index + 1}`,
      })),
    ];
    const usage = await recordSampleUsage(tests, "bench-web-app");
    const interactions = usage.tests.reduce((sum, test) => sum + test.interactions.length, 0);
    const contract = createContract();
    const closedContract = createContract({ closed: true });
    const roundsMs: number[] = [];
    const failures: string[] = [];
    let requests = 0;
    for (let round = 0; round < rounds; round += 1) {
      progress(`usage replay: round ${round + 1} of ${rounds}…`);
      const service = await startIndependentService();
      try {
        const { primary } = service.accounts;
        const started = performance.now();
        const answers = new AnswersCollector(usage);
        const outcome = await replayUsage({
          usage,
          file: "bench-usage.json",
          baseUrl: service.url,
          apiKey: primary.apiKey,
          token: primary.token,
          contract,
          closedContract,
          runId: `bench-${round}`,
          nonce: "bench0",
          answers,
        });
        JSON.stringify(answers.document({ kind: "service", baseUrl: service.url }), null, 2);
        roundsMs.push(performance.now() - started);
        if (outcome.kind !== "report") failures.push(`usage replay: ${outcome.message}`);
        else {
          requests = outcome.report.exchanges;
          // The sample client reads a created property whole, never-set fields included: the mock fills them
          // (never-set-defaults) and the independent service answers null, so its tests fail as consumer tests.
          // That is a verdict of the full replay, not a broken one; any other failure is.
          const broken = outcome.report.results.filter(
            (result) => result.status === "failed" && result.check !== "consumer_assumption",
          );
          if (broken.length > 0)
            failures.push(`usage replay: the replay failed (${broken[0]!.check}: ${broken[0]!.message ?? ""})`);
        }
      } finally {
        await service.close();
      }
    }
    const medianMs = median(roundsMs);
    const lines = [
      "1b. A consumer's usage replayed against a service on loopback (--usage --base-url)",
      "",
      ...table(
        ["interactions", "tests", "requests sent", "rounds", "median"],
        [
          [
            count(interactions),
            count(usage.tests.length),
            count(requests),
            roundsMs.map((value) => ms(value)).join(" "),
            ms(medianMs),
          ],
        ],
        "rrrrr",
      ),
    ];
    return {
      figures: { interactions, tests: usage.tests.length, requests, roundsMs, medianMs },
      lines,
      goals: [
        {
          id: "38c",
          name: `replay of ${interactions} interactions on loopback (median of ${rounds})`,
          measured: ms(medianMs),
          target: `≤ ${ms(GOAL_MS)}`,
          pass: medianMs <= GOAL_MS,
        },
      ],
      failures,
    };
  },
};
