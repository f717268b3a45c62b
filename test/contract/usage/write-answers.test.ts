/**
 * What a service answered a consumer's usage, as the replay writes it (`--write-answers`): valid against the
 * published schema, one entry per test and per interaction in order, no credential's value in it, and the same
 * bytes for the same replay on the same service, apart from ids and times.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { createContract } from "../../../src/contract/create-contract.ts";
import { profileAjv } from "../../../src/contract/profile/read-service-profile.ts";
import type { AnswersDocument } from "../../../src/contract/usage/answers-document.ts";
import { AnswersCollector } from "../../../src/contract/usage/collect-answers.ts";
import { USAGE_SCHEMA_PATH } from "../../../src/contract/usage/read-usage-document.ts";
import { replayUsage } from "../../../src/contract/usage/replay-usage.ts";
import type { UsageDocument } from "../../../src/contract/usage/usage-document.ts";
import { PACKAGE_ROOT } from "../../../src/package-root.ts";
import { startIndependentService } from "../../support/independent-service/index.ts";
import { recordSampleUsage, SAMPLE_TESTS } from "../../support/usage-samples.ts";

const contract = createContract();
const closedContract = createContract({ closed: true });
let usage: UsageDocument;

beforeAll(async () => {
  usage = await recordSampleUsage(Object.values(SAMPLE_TESTS));
});

/** One replay on a new instance of the independent service (the same service, started alike), its answers written. */
async function answersOf(runId: string, nonce: string): Promise<{ text: string; secrets: string[]; url: string }> {
  const service = await startIndependentService();
  try {
    const { primary, other, fresh } = service.accounts;
    const collector = new AnswersCollector(usage);
    const outcome = await replayUsage({
      usage,
      file: "usage.json",
      baseUrl: service.url,
      apiKey: primary.apiKey,
      token: primary.token,
      other,
      fresh: { ...fresh, seats: fresh.agentSeats },
      contract,
      closedContract,
      timeoutMs: 10_000,
      runId,
      nonce,
      answers: collector,
      // Even when the report may show them, the answers never hold a credential.
      revealCredentials: true,
    });
    if (outcome.kind !== "report") throw new Error(outcome.message);
    const document = collector.document({ kind: "service", baseUrl: "https://service.example" });
    return {
      url: service.url,
      text: `${JSON.stringify(document, null, 2)}\n`,
      secrets: [primary, other, fresh].flatMap((account) => [account.apiKey, account.token]),
    };
  } finally {
    await service.close();
  }
}

/**
 * Ids and times taken out: what the run made (its tag in emails and external ids), the clock's stamps, auto-login
 * tokens, and the address each instance listened at.
 */
function normalised(answers: { text: string; url: string }, tag: string): string {
  return answers.text
    .split(tag)
    .join("<run>")
    .split(answers.url)
    .join("<service>")
    .replace(/"(created|changed|timestamp)": ?"?[0-9T:.Z-]+"?/g, '"$1": <time>')
    .replace(/\/autologin\/[^"\s]+/g, "/autologin/<token>");
}

describe("the answers a replay writes", () => {
  let first: Awaited<ReturnType<typeof answersOf>>;
  beforeAll(async () => {
    first = await answersOf("answers-a", "aaaaaa");
  }, 60_000);

  it("are valid against spec/answers.schema.json, one entry per test and interaction, in the usage's order", () => {
    const ajv = profileAjv();
    ajv.addSchema(JSON.parse(readFileSync(USAGE_SCHEMA_PATH, "utf8")) as object);
    const validate = ajv.compile(
      JSON.parse(readFileSync(join(PACKAGE_ROOT, "spec", "answers.schema.json"), "utf8")) as object,
    );
    const document = JSON.parse(first.text) as AnswersDocument;
    expect(validate(document), JSON.stringify(validate.errors)).toBe(true);
    expect(document.tests.map((test) => test.name)).toEqual(usage.tests.map((test) => test.name));
    document.tests.forEach((test, t) =>
      expect(test.interactions.map((answer) => answer.operation)).toEqual(
        usage.tests[t]!.interactions.map((interaction) => interaction.operation),
      ),
    );
    const retrieve = document.tests.find((test) => test.name === SAMPLE_TESTS.retrieve!.name)!.interactions[0]!;
    expect(retrieve).toMatchObject({ operation: "retrieveProperty", status: 200, mediaType: "application/json" });
    expect("headers" in retrieve && retrieve.headers.date).toBeUndefined();
  });

  it("hold no credential's value", () => {
    for (const secret of first.secrets) expect(first.text).not.toContain(secret);
  });

  it("are the same bytes for the same replay on the same service, apart from ids and times", async () => {
    const second = await answersOf("answers-b", "bbbbbb");
    expect(normalised(second, "answers-b-bbbbbb")).toBe(normalised(first, "answers-a-aaaaaa"));
  }, 60_000);
});
