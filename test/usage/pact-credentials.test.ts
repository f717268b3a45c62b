/**
 * No pact carries a credential's value: a suite recorded with a team's own secret-looking keys gives a usage of
 * roles and a pact of the mock's demo credentials, and the provider-state route never answers one back.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import request from "supertest";
import { describe, expect, it } from "vitest";
import { PROVIDER_STATES } from "../../src/contract/usage/provider-state-names.ts";
import { createMockServer } from "../../src/hosts/node/create-mock-server.ts";
import { CONTRACT_BIN, runCli } from "../support/run-contract-cli.ts";
import { buildSampleUsage } from "../support/usage-pact-samples.ts";
import { scratchFolder } from "../support/scratch-folder.ts";

const SECRET_KEY = "sk_live_51HxQ9fGv7pKx2Lr8TnWq3Zb";
const SECRET_TOKEN = "tok_7f3a9c1e5b2d8064aa91c3e7f0b5d2c8";
const ADMIN_TOKEN = "adm_0c6f1b9e4d7a2358c1e0f9b6a3d7e215";

describe("a pact written from a usage recorded with secret-looking keys", () => {
  it("holds the roles' demo credentials and never the keys the suite sent", async () => {
    const usage = await buildSampleUsage({ primaryCredentials: { "API-KEY": SECRET_KEY, TOKEN: SECRET_TOKEN } });
    const usageText = JSON.stringify(usage);
    expect(usageText).not.toContain(SECRET_KEY);
    expect(usageText).not.toContain(SECRET_TOKEN);
    // The recording really went through the team's account (its answers are the mock's to that account).
    expect(usage.tests[1]!.interactions[0]!.response.status).toBe(200);

    const folder = scratchFolder("plk-pact-secrets-");
    const usageFile = join(folder, "usage.json");
    const pactFile = join(folder, "pact.json");
    writeFileSync(usageFile, usageText);
    const written = await runCli(process.execPath, [CONTRACT_BIN, "--usage", usageFile, "--write-pact", pactFile], {
      CONTRACT_API_KEY: SECRET_KEY,
      CONTRACT_TOKEN: SECRET_TOKEN,
    });
    expect(written.code, written.stderr).toBe(0);
    const pact = readFileSync(pactFile, "utf8");
    for (const secret of [SECRET_KEY, SECRET_TOKEN, SECRET_KEY.slice(8), SECRET_TOKEN.slice(4)]) {
      expect(pact).not.toContain(secret);
      expect(written.stdout + written.stderr).not.toContain(secret);
    }
    const headers = (
      JSON.parse(pact) as { interactions: Array<{ request: { headers?: Record<string, string[]> } }> }
    ).interactions.map((interaction) => interaction.request.headers);
    expect(new Set(headers.map((sent) => `${sent?.["API-KEY"]} ${sent?.TOKEN}`))).toEqual(
      new Set(["demo-key demo-token"]),
    );
  });
});

describe("POST /__admin/provider-states refusals", () => {
  const mock = createMockServer({
    log: () => {},
    adminToken: ADMIN_TOKEN,
    accounts: [{ apiKey: SECRET_KEY, token: SECRET_TOKEN, uid: 1 }],
  });
  const post = (body: object, authorization?: string) =>
    request(mock.app)
      .post("/__admin/provider-states")
      .set({ "content-type": "application/json", ...(authorization ? { authorization } : {}) })
      .send(body);

  it("answer no credential back: not the admin token, an account's keys, nor a value the params carried", async () => {
    const answers = [
      await post({ state: PROVIDER_STATES.seatsFull, params: {} }),
      await post({ state: PROVIDER_STATES.seatsFull, params: {} }, `Bearer ${ADMIN_TOKEN.slice(0, -1)}x`),
      await post(
        { state: "no such state", params: { apiKey: SECRET_KEY, token: SECRET_TOKEN } },
        `Bearer ${ADMIN_TOKEN}`,
      ),
      await post(
        {
          state: PROVIDER_STATES.property,
          params: { key: SECRET_KEY.replace(/_/g, "-"), fields: { token: SECRET_TOKEN } },
        },
        `Bearer ${ADMIN_TOKEN}`,
      ),
      // The demo credentials of the role do not open an account on a mock with only configured accounts.
      await post({ state: PROVIDER_STATES.seatsFull, params: { account: "primary" } }, `Bearer ${ADMIN_TOKEN}`),
    ];
    expect(answers.map((answer) => answer.status)).toEqual([401, 401, 400, 400, 400]);
    for (const answer of answers) {
      for (const secret of [ADMIN_TOKEN, SECRET_KEY, SECRET_TOKEN])
        expect(JSON.stringify(answer.headers) + answer.text).not.toContain(secret);
    }
  });
});
