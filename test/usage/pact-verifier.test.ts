/**
 * The pact a usage is written as holds for the official verifier (`@pact-foundation/pact`'s `Verifier`, its native
 * library from the npm package) against the mock process, the mock setting the provider states up through
 * `POST /__admin/provider-states`; and it fails against a mock that answers otherwise where the consumer rests on
 * an assumption (a service profile whose seat-limit refusal is 403 with `{"error", "message"}`). The pact of the
 * example consumer (examples/consumer), from the usage its own suite really recorded, holds as well. Each
 * interaction holds alone too (Pact verifies them in any order), through the verifier's own filter.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { PROVIDER_STATES } from "../../src/contract/usage/provider-state-names.ts";
import { exampleConsumerProject, runExampleSuite } from "../support/example-consumer.ts";
import { readmeExample } from "../support/readme-examples.ts";
import { CONTRACT_BIN, runCli } from "../support/run-contract-cli.ts";
import { error, provenance } from "../support/sample-profile.ts";
import { startMockBin, type StartedProcess } from "../support/start-process.ts";
import { buildSampleUsage } from "../support/usage-pact-samples.ts";

// The verifier sends no usage statistics from a test.
process.env.PACT_DO_NOT_TRACK = "true";
const require = createRequire(import.meta.url);

/** The verifier, or why it cannot run here: its native library did not load. */
function loadVerifier(): { Verifier?: typeof import("@pact-foundation/pact").Verifier; missing?: string } {
  try {
    (require("@pact-foundation/pact-core/dist/ffi") as { getFfiLib: (level: string) => unknown }).getFfiLib("error");
    return { Verifier: (require("@pact-foundation/pact") as typeof import("@pact-foundation/pact")).Verifier };
  } catch (cause) {
    return {
      missing:
        `the Pact verifier's native library does not load on this machine ` +
        `(${(cause as Error).message.split("\n")[0]}); REQUIRE_PACT=1 makes this an error`,
    };
  }
}
const { Verifier, missing } = loadVerifier();
if (missing && (process.env.REQUIRE_PACT ?? "0") !== "0") throw new Error(missing);

let folder: string;
afterAll(() => {
  if (folder) rmSync(folder, { recursive: true, force: true });
});
let pactFile: string;
let injectedFile: string;
const started: StartedProcess[] = [];

beforeAll(async () => {
  if (!Verifier) return;
  folder = mkdtempSync(join(tmpdir(), "plk-pact-verify-"));
  const usageFile = join(folder, "usage.json");
  pactFile = join(folder, "listing-web-property-listing-service.json");
  writeFileSync(usageFile, JSON.stringify(await buildSampleUsage()));
  const written = await runCli(process.execPath, [
    CONTRACT_BIN,
    "--usage",
    usageFile,
    "--write-pact",
    pactFile,
    "--quiet",
  ]);
  expect(written.code, written.stderr).toBe(0);
  // The same pact with every id the states inject replaced by one no record has: it holds only if the verifier
  // really sends the ids the mock's set-up answered (the recorded ones exist on a fresh mock too).
  const pact = JSON.parse(readFileSync(pactFile, "utf8")) as {
    interactions: Array<{
      description: string;
      request: {
        path: string;
        body?: { content: Record<string, unknown> };
        generators?: { path?: unknown; body?: Record<string, unknown> };
      };
    }>;
  };
  let replaced = 0;
  for (const interaction of pact.interactions) {
    interaction.description += " (ids injected)";
    if (interaction.request.generators?.path) {
      interaction.request.path = interaction.request.path.replace(/\/[0-9]+$/, "/999999");
      replaced += 1;
    }
    if (interaction.request.generators?.body?.["$.property_reference"])
      interaction.request.body!.content.property_reference = 999_999;
  }
  expect(replaced).toBeGreaterThan(3);
  injectedFile = join(folder, "injected.json");
  writeFileSync(injectedFile, JSON.stringify(pact));
});

afterEach(async () => {
  for (const mock of started.splice(0)) {
    mock.signal("SIGTERM");
    await mock.exited;
  }
});

/** The mock as a user starts it; its address once it listens. */
async function startMock(...args: string[]): Promise<string> {
  return (await startMockBin(started, args)).url;
}

function verify(url: string, files = [pactFile]): Promise<unknown> {
  return new Verifier!({
    provider: "Property Listing Service",
    providerBaseUrl: url,
    pactUrls: files,
    // The mock answers Pact's state change call itself, behind its admin guard.
    providerStatesSetupUrl: `${url}/__admin/provider-states`,
    logLevel: "error",
  }).verifyProvider();
}

describe("the official Pact verifier", () => {
  it("verifies a written pact against the mock process", async ({ skip }) => {
    skip(!Verifier, missing);
    await expect(verify(await startMock(), [pactFile, injectedFile])).resolves.toBeDefined();
  });

  it("verifies it through stateHandlers forwarding to a mock with --admin-token, the token never in the pact", async ({
    skip,
  }) => {
    skip(!Verifier, missing);
    const adminToken = "adm_5e0b7c2a9f14d3e8b6a1c0f2d4e7b9a3";
    const url = await startMock("--admin-token", adminToken);
    // The handlers of docs/pact.md, as a reader copies them, on this mock's address and with its token.
    const example = readmeExample("pact-state-handlers").replaceAll("http://127.0.0.1:4010", url);
    for (const name of Object.values(PROVIDER_STATES))
      expect(example, "docs/pact.md names every state").toContain(JSON.stringify(name));
    const stateHandlers = new Function("process", "fetch", `${example}\nreturn stateHandlers;`)(
      { env: { ADMIN_TOKEN: adminToken } },
      fetch,
    ) as import("@pact-foundation/pact").VerifierOptions["stateHandlers"];
    await expect(
      new Verifier!({
        provider: "Property Listing Service",
        providerBaseUrl: url,
        pactUrls: [injectedFile],
        stateHandlers,
        logLevel: "error",
      }).verifyProvider(),
    ).resolves.toBeDefined();
    expect(readFileSync(pactFile, "utf8")).not.toContain(adminToken);
  });

  it("verifies the pact written from the usage the example consumer's suite really recorded", async ({ skip }) => {
    skip(!Verifier, missing);
    const project = exampleConsumerProject();
    try {
      const usageFile = join(project, "usage.json");
      const run = await runExampleSuite(project, usageFile);
      expect(run.code, run.output).toBe(0);
      const examplePact = join(project, "pact.json");
      const written = await runCli(process.execPath, [
        CONTRACT_BIN,
        "--usage",
        usageFile,
        "--write-pact",
        examplePact,
        "--quiet",
      ]);
      expect(written.code, written.stderr).toBe(0);
      const pact = JSON.parse(readFileSync(examplePact, "utf8")) as {
        interactions: Array<{ description: string; providerStates?: Array<{ name: string }> }>;
      };
      // Every test of the suite, with the states its ids and its seats-full start need.
      expect(new Set(pact.interactions.map((interaction) => interaction.description.split(" › ")[0]))).toEqual(
        new Set([
          "my listings > lists the account's properties",
          "my listings > creates a listing and finds it under its new title",
          "my listings > creates a listing, renames it and shows its header",
          "agents > adds an agent",
          "a full account > shows the seats-full screen when the account has no seat left",
        ]),
      );
      const states = new Set(
        pact.interactions.flatMap((interaction) => (interaction.providerStates ?? []).map((state) => state.name)),
      );
      for (const name of [PROVIDER_STATES.accountUid, PROVIDER_STATES.property, PROVIDER_STATES.seatsFull])
        expect(states).toContain(name);
      await expect(verify(await startMock(), [examplePact])).resolves.toBeDefined();
    } finally {
      rmSync(project, { recursive: true, force: true });
    }
  }, 120_000);

  it("verifies each interaction alone, through the verifier's filter, on a mock reset to its seed before each", async ({
    skip,
  }) => {
    skip(!Verifier, missing);
    const usageFile = join(folder, "usage-alone.json");
    const aloneFile = join(folder, "alone.json");
    writeFileSync(usageFile, JSON.stringify(await buildSampleUsage({ duplicateEmail: true })));
    const written = await runCli(process.execPath, [
      CONTRACT_BIN,
      "--usage",
      usageFile,
      "--write-pact",
      aloneFile,
      "--quiet",
    ]);
    expect(written.code, written.stderr).toBe(0);
    const descriptions = (
      JSON.parse(readFileSync(aloneFile, "utf8")) as { interactions: Array<{ description: string }> }
    ).interactions.map((interaction) => interaction.description);
    expect(descriptions).toContain("agents › refuses a second agent with the same email › 2 createAgentCard");
    const url = await startMock();
    const verified: string[] = [];
    try {
      for (const description of descriptions) {
        const reset = await fetch(`${url}/__admin/reset`, { method: "POST" });
        expect(reset.status, description).toBe(200);
        // The verifier's filter is a regular expression over descriptions: this one, and no other.
        process.env.PACT_DESCRIPTION = `^${description.replace(/[\\^$.*+?()[\]{}|]/g, "\\$&")}$`;
        await expect(verify(url, [aloneFile]), description).resolves.toBeDefined();
        verified.push(description);
      }
    } finally {
      delete process.env.PACT_DESCRIPTION;
    }
    expect(verified).toEqual(descriptions);
  }, 120_000);

  it("fails it against a mock whose service answers the seat limit otherwise, naming the interaction", async ({
    skip,
  }) => {
    skip(!Verifier, missing);
    const profileFile = join(folder, "profile.json");
    writeFileSync(
      profileFile,
      JSON.stringify({
        profileVersion: 1,
        runId: "r1",
        recordedAt: provenance.observedAt,
        observations: {
          "error.seats": error(403, { error: "Not Enough Agent Seats", message: "Purchase more seats first." }),
        },
      }),
    );
    const failed = await verify(await startMock("--profile", profileFile)).then(
      () => undefined,
      (cause: Error) => cause,
    );
    expect(failed, "the verifier accepted a 403 where the consumer rests on a 402").toBeInstanceOf(Error);
    // pact-core rejects with the verifier's JSON report: only the interaction that rests on the seat limit fails.
    const report = JSON.parse((failed as Error).message) as {
      errors: Array<{
        interaction: string;
        mismatch: { mismatches?: Array<{ type: string; expected?: unknown; actual?: unknown }> };
      }>;
    };
    expect(report.errors.map((failure) => failure.interaction)).toEqual([
      expect.stringContaining("agents › shows the seats-full screen › 1 createAgentCard"),
    ]);
    expect(report.errors[0]!.mismatch.mismatches).toContainEqual(
      expect.objectContaining({ type: "StatusMismatch", expected: 402, actual: 403 }),
    );
  });
});
