/**
 * The contract runner's program as a new user and a CI pipeline meet it (issue 8, items 13 to 16): usage mistakes
 * are not verdicts, run ids never clash, every failure can be replayed with curl, and what a run creates it
 * deletes, also on Ctrl-C. It runs as a process, the built file that `npm run contract` and the bin both start
 * (test/e2e/contract-cli.test.ts runs it through the npm script).
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createContract } from "../../src/contract/create-contract.ts";
import { runContract } from "../../src/contract/runner/run-contract.ts";
import { createMockServer } from "../../src/hosts/node/create-mock-server.ts";
import { startBreakingProxy } from "../support/breaking-proxy.ts";
import { sharedContract } from "../support/mock-harness.ts";
import { startProcess } from "../support/start-process.ts";

const mock = createMockServer({ contract: sharedContract(), log: () => {} });
let url = "";
beforeAll(async () => {
  ({ url } = await mock.listen(0));
});
afterAll(() => mock.close());

const contract = async (args: string[], env: NodeJS.ProcessEnv = {}) => {
  const process = startProcess("node", ["dist/cli/contract.js", ...args], env);
  const code = await process.exited;
  return { code, output: process.output() };
};
/** The agents an account of the mock holds, through the API. */
const agentsOf = async (apiKey: string, token: string) =>
  Object.keys(
    (await (
      await fetch(`${url}/api/v1/object/agent_cards`, { headers: { "API-KEY": apiKey, TOKEN: token } })
    ).json()) as object,
  );

describe("usage mistakes exit 2 with what to fix, never Contract BROKEN", () => {
  it("a base URL that already ends in /api/v1/object", async () => {
    const { code, output } = await contract([
      "--base-url",
      `${url}/api/v1/object`,
      "--api-key",
      "manners-1",
      "--token",
      "t",
      "--quiet",
    ]);
    expect(code).toBe(2);
    expect(output).toContain(`Every route tried answers 404 under ${url}/api/v1/object`);
    expect(output).toContain(
      `Yours already ends in /api/v1/object, which the runner adds itself: try --base-url ${url}`,
    );
    expect(output).not.toContain("BROKEN");
  }, 180_000);

  it("credentials the service refuses on every operation", async () => {
    const { code, output } = await contract([
      "--base-url",
      url,
      "--api-key",
      "demo-key",
      "--token",
      "not-the-demo-token",
      "--quiet",
    ]);
    expect(code).toBe(2);
    expect(output).toContain(
      "The service refuses the credentials: GET /api/v1/object/template_base answered 401 and GET " +
        "/api/v1/object/agent_cards 401. Check --api-key and --token",
    );
    expect(output).not.toContain("BROKEN");
  }, 180_000);

  it("a TLS error: https to a server that speaks plain HTTP", async () => {
    const { code, output } = await contract([
      "--base-url",
      url.replace("http:", "https:"),
      "--api-key",
      "manners-2",
      "--token",
      "t",
      "--quiet",
    ]);
    expect(code).toBe(2);
    expect(output).toMatch(/Cannot reach https:\/\/127\.0\.0\.1:\d+: TLS failed \(ERR_SSL_[A-Z_]+: /);
    expect(output).not.toContain("BROKEN");
  }, 180_000);

  it("a fresh account that already has an agent (another run on it, or one stopped before cleaning up)", async () => {
    await fetch(`${url}/api/v1/object/agent_card/`, {
      method: "POST",
      headers: { "API-KEY": "manners-fresh", TOKEN: "f", "content-type": "application/json" },
      body: JSON.stringify({ agent_first_name: "Left", agent_last_name: "Over", email: "left.over@example.com" }),
    });
    const { code, output } = await contract([
      "--base-url",
      url,
      "--api-key",
      "manners-3",
      "--token",
      "t",
      "--fresh-api-key",
      "manners-fresh",
      "--fresh-token",
      "f",
      "--quiet",
    ]);
    expect(code).toBe(2);
    expect(output).toContain(
      "The fresh account (--fresh-api-key and --fresh-token) already has 1 agent; the seat checks need an " +
        "account without agents.",
    );
  }, 180_000);

  it("a second account that is the first one", async () => {
    const { code, output } = await contract([
      "--base-url",
      url,
      "--api-key",
      "same",
      "--token",
      "t",
      "--other-api-key",
      "same",
      "--other-token",
      "u",
    ]);
    expect(code).toBe(2);
    expect(output).toContain("--other-api-key must be another account's key, not the same as --api-key");
  }, 180_000);
});

describe("run ids", () => {
  it("a reused --run-id holds again: the records of each run are its own", async () => {
    const args = [
      "--base-url",
      url,
      "--api-key",
      "manners-4",
      "--token",
      "t",
      "--fresh-api-key",
      "manners-4-fresh",
      "--fresh-token",
      "f",
      "--run-id",
      "nightly",
      "--quiet",
    ];
    const first = await contract(args);
    const second = await contract(args);
    expect(first.output).toMatch(/Contract HOLDS against .*: 0 failures/);
    expect(second.output).toMatch(/Contract HOLDS against .*: 0 failures/);
    expect([first.code, second.code]).toEqual([0, 0]);
  }, 180_000);

  it("two runs at once against one account both hold", async () => {
    const contractOnce = createContract();
    const closed = createContract({ closed: true });
    const options = {
      baseUrl: url,
      apiKey: "manners-5",
      token: "t",
      other: { apiKey: "manners-5-other", token: "o" },
      runId: "same",
      contract: contractOnce,
      closedContract: closed,
    };
    const outcomes = await Promise.all([runContract(options), runContract(options)]);
    for (const outcome of outcomes) {
      expect(outcome.kind).toBe("report");
      if (outcome.kind === "report")
        expect(outcome.report.results.filter((result) => result.status === "failed")).toEqual([]);
    }
  }, 180_000);
});

describe("a failure can be replayed", () => {
  const breakage = {
    response: (
      request: { method: string; path: string },
      response: { status: number; contentType: string; body: unknown },
    ) =>
      request.method === "POST" && request.path === "/api/v1/object/property" && response.status === 200
        ? { ...response, body: { ...(response.body as object), nid: 1 } }
        : undefined,
  };

  it("prints a curl line that replays the request, with the credentials as variables, and the section", async () => {
    const proxy = await startBreakingProxy(url, breakage);
    try {
      const { code, output } = await contract([
        "--base-url",
        proxy.url,
        "--api-key",
        "manners-secret-key",
        "--token",
        "manners-secret-token",
        "--quiet",
      ]);
      expect(code).toBe(1);
      // One entry for the one broken answer, naming every check it failed (the nid also breaks the uri's form).
      expect(output).toMatch(
        new RegExp(
          /1\. response_schema_conformance(, [a-z_]+)* \[fact, section 2\.1\]: /.source +
            /create a property with every documented field \(createProperty\)/.source,
        ),
      );
      expect(output).toContain("createProperty response.body/nid: must be string, got integer 1 [type]");
      expect(output).not.toContain("manners-secret");
      const line = output
        .split("\n")
        .map((text) => text.trim())
        .find((text) => text.startsWith(`curl -X POST '${proxy.url}/api/v1/object/property'`));
      expect(line).toContain(
        `-H "API-KEY: \${CONTRACT_API_KEY}" -H "TOKEN: \${CONTRACT_TOKEN}" --data-raw '{"street":"88 Contract Run Way"`,
      );
      // The line replays the request: run it as printed, with the variables set, and see the same broken answer.
      // (asynchronously: the proxy and the mock answer from this very process)
      const { stdout: replayed } = await promisify(execFile)("sh", ["-c", `${line} --silent`], {
        env: { ...process.env, CONTRACT_API_KEY: "manners-secret-key", CONTRACT_TOKEN: "manners-secret-token" },
      });
      expect(JSON.parse(replayed)).toMatchObject({ nid: 1 });
    } finally {
      await proxy.close();
    }
  }, 180_000);

  it("shows the credentials only when asked", async () => {
    const proxy = await startBreakingProxy(url, breakage);
    try {
      const { output } = await contract([
        "--base-url",
        proxy.url,
        "--api-key",
        "manners-shown-key",
        "--token",
        "manners-shown-token",
        "--quiet",
        "--show-credentials",
      ]);
      expect(output).toContain("-H 'API-KEY: manners-shown-key' -H 'TOKEN: manners-shown-token'");
    } finally {
      await proxy.close();
    }
  }, 180_000);
});

describe("clean-up", () => {
  it("lists what it could not delete when deletes fail midway", async () => {
    const proxy = await startBreakingProxy(url, {
      request: (request) =>
        request.method === "DELETE" && request.path.includes("/agent_card/")
          ? { status: 500, contentType: "text/plain", body: "delete is down" }
          : undefined,
    });
    try {
      const { code, output } = await contract([
        "--base-url",
        proxy.url,
        "--api-key",
        "manners-6",
        "--token",
        "t",
        "--quiet",
      ]);
      expect(code).toBe(1);
      expect(output).toMatch(
        new RegExp(
          /Left behind: \d+ records\n {2}\d+ properties: the service has no operation /.source +
            /to delete a property; their titles and external ids carry this run's tag, \S+/.source,
        ),
      );
      expect(output).toMatch(
        / {2}agent \d+ of the primary account \(DELETE \/api\/v1\/object\/agent_card\/\d+ answered 500\)/,
      );
      // The documents were deleted; the agents are what the report says is left.
      expect((await agentsOf("manners-6", "t")).length).toBe(
        (output.match(/ {2}agent \d+ of the primary account/g) ?? []).length,
      );
    } finally {
      await proxy.close();
    }
  }, 180_000);

  it("on Ctrl-C deletes what the run created, says so, and exits 130", async () => {
    // Once the agent of "create an agent with every field" is made, every later answer is held until Ctrl-C has
    // been sent: the run is surely under way when it comes, however fast the machine.
    const holding = await startHoldingProxy(
      url,
      (method, path, body) =>
        method === "POST" &&
        path === "/api/v1/object/agent_card/" &&
        /"email":"agent-[^"]*@contract-run\.example"/.test(body),
    );
    try {
      // The program itself, as the package's bin runs it (npm would end by the signal rather than with the code).
      const run = startProcess("node", [
        "dist/cli/contract.js",
        "--base-url",
        holding.url,
        "--api-key",
        "manners-7",
        "--token",
        "t",
      ]);
      await run.waitForOutput(/✓ create an agent with every field/);
      expect((await agentsOf("manners-7", "t")).length).toBeGreaterThan(0);
      await holding.holdingOne; // the next request has come and its answer waits
      run.signal("SIGINT");
      holding.release(); // the clean-up's deletes go through the proxy too
      const code = await run.exited;
      expect(run.output()).toContain("Interrupted: deleting what the run created");
      expect(run.output()).toContain("Run INTERRUPTED, no verdict");
      expect(run.output()).not.toContain("Contract BROKEN");
      expect(code).toBe(130);
      expect(await agentsOf("manners-7", "t")).toEqual([]);
    } finally {
      holding.release();
      await holding.close();
    }
  }, 180_000);
});

/**
 * A proxy that passes requests through until it has answered one that `holdAfter` picks; from then on it holds
 * every answer until `release()`. `holdingOne` resolves once an answer is held.
 */
async function startHoldingProxy(target: string, holdAfter: (method: string, path: string, body: string) => boolean) {
  const { createServer } = await import("node:http");
  let holding = false;
  let release: () => void = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  let heldOne: () => void = () => {};
  const holdingOne = new Promise<void>((resolve) => (heldOne = resolve));
  // eslint-disable-next-line @typescript-eslint/no-misused-promises -- a test's server: a failure in it is the test's
  const server = createServer(async (incoming, outgoing) => {
    const chunks: Buffer[] = [];
    for await (const chunk of incoming) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const held = holding;
    const headers = Object.fromEntries(
      Object.entries(incoming.headers)
        .filter(([name]) => !["host", "connection", "content-length"].includes(name))
        .map(([name, value]) => [name, String(value)]),
    );
    const answer = await fetch(`${target}${incoming.url}`, {
      method: incoming.method!,
      headers,
      ...(chunks.length ? { body } : {}),
    });
    const text = await answer.text();
    if (held) {
      heldOne();
      await released;
    } else if (holdAfter(incoming.method!, incoming.url!, body.toString("utf8"))) holding = true;
    outgoing.statusCode = answer.status;
    outgoing.setHeader("content-type", answer.headers.get("content-type") ?? "application/json");
    outgoing.end(text);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    holdingOne,
    release: () => release(),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
