/** The mock's command line: the options of the hardening issue, read once, with their environment variables. */
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { MOCK_USAGE, parseMockArgs } from "../../src/cli/parse-mock-args.ts";
import { createMockServer } from "../../src/hosts/node/create-mock-server.ts";
import { sharedContract } from "../support/mock-harness.ts";
import { scratchFolder } from "../support/scratch-folder.ts";

const run = (argv: string[], env: NodeJS.ProcessEnv = {}) => {
  const parsed = parseMockArgs(argv, env);
  if (parsed.kind !== "run") throw new Error(JSON.stringify(parsed));
  return parsed.command;
};

describe("--max-accounts", () => {
  it("defaults to 10,000, and is read from the flag before MAX_ACCOUNTS", () => {
    expect(run([]).options.maxAccounts).toBe(10_000);
    expect(run([], { MAX_ACCOUNTS: "50" }).options.maxAccounts).toBe(50);
    expect(run(["--max-accounts", "7"], { MAX_ACCOUNTS: "50" }).options.maxAccounts).toBe(7);
    expect(MOCK_USAGE).toContain("--max-accounts <n>");
  });

  it("refuses what is not a whole number", () => {
    expect(parseMockArgs(["--max-accounts", "many"], {})).toEqual({
      kind: "error",
      message: "--max-accounts must be a whole number up to 100000000, got many",
    });
    expect(parseMockArgs([], { MAX_ACCOUNTS: "-1" }).kind).toBe("error");
  });
});

describe("--allowed-hosts and --admin-token", () => {
  it("reads the allowed hosts from the flag or ALLOWED_HOSTS, lower case, and refuses a scheme or a port", () => {
    expect(run([]).options.allowedHosts).toBeUndefined();
    expect(run(["--allowed-hosts", "Mock.Test, .dev.example"]).options.allowedHosts).toEqual([
      "mock.test",
      ".dev.example",
    ]);
    expect(run([], { ALLOWED_HOSTS: "ci-mock" }).options.allowedHosts).toEqual(["ci-mock"]);
    expect(parseMockArgs(["--allowed-hosts", "http://mock.test"], {}).kind).toBe("error");
    expect(parseMockArgs(["--allowed-hosts", "mock.test:4010"], {}).kind).toBe("error");
  });

  it("reads the admin token from the flag or ADMIN_TOKEN, and refuses a short one", () => {
    expect(run([]).options.adminToken).toBeUndefined();
    expect(run(["--admin-token", "s3cret-token"]).options.adminToken).toBe("s3cret-token");
    expect(run([], { ADMIN_TOKEN: "from-the-env" }).options.adminToken).toBe("from-the-env");
    expect(parseMockArgs(["--admin-token", "short"], {})).toEqual({
      kind: "error",
      message: "--admin-token must be at least 8 characters, without spaces",
    });
    expect(MOCK_USAGE).toContain("--allowed-hosts <a,b>");
    expect(MOCK_USAGE).toContain("--admin-token <secret>");
  });
});

describe("--log-format", () => {
  it("is text unless json is asked for, and refuses anything else", () => {
    expect(run([]).options.logFormat).toBe("text");
    expect(run(["--log-format", "json"]).options.logFormat).toBe("json");
    expect(parseMockArgs(["--log-format", "pino"], {})).toEqual({
      kind: "error",
      message: "--log-format must be text or json, got pino",
    });
    expect(MOCK_USAGE).toContain("--log-format <format>");
  });
});

describe("--state", () => {
  it("takes a shipped state's name from the flag before MOCK_STATE, and reads a file's records at the edge", () => {
    expect(run([]).options.state).toBeUndefined();
    expect(run([], { MOCK_STATE: "seats-full" }).options.state).toBe("seats-full");
    expect(run(["--state", "empty-account"], { MOCK_STATE: "seats-full" }).options.state).toBe("empty-account");
    const file = join(scratchFolder("plk-state-arg-"), "state.json");
    writeFileSync(file, JSON.stringify({ accounts: [] }));
    expect(run(["--state", file])).toMatchObject({ options: { state: { accounts: [] } }, stateFile: file });
    expect(MOCK_USAGE).toContain("--state <name|file>");
  });

  it("refuses an empty value, a missing file, a file that is not a JSON object", () => {
    expect(parseMockArgs(["--state", ""], {}).kind).toBe("error");
    expect(parseMockArgs(["--state", "/nonexistent/state.json"], {})).toEqual({
      kind: "error",
      message: expect.stringContaining("is neither a shipped state"),
    });
    const file = join(scratchFolder("plk-state-arg-"), "list.json");
    writeFileSync(file, "[]");
    expect(parseMockArgs(["--state", file], {})).toEqual({
      kind: "error",
      message: expect.stringContaining("must hold a JSON object"),
    });
  });
});

describe("--record-usage and --consumer", () => {
  it("reads them from the flags before MOCK_RECORD_USAGE and MOCK_CONSUMER", () => {
    expect(run([]).options.usage).toBeUndefined();
    expect(run(["--record-usage", "usage.json", "--consumer", "web-app"]).options.usage).toEqual({
      file: "usage.json",
      consumer: "web-app",
    });
    expect(run([], { MOCK_RECORD_USAGE: "u.json", MOCK_CONSUMER: "mobile" }).options.usage).toEqual({
      file: "u.json",
      consumer: "mobile",
    });
    expect(run(["--consumer", "spa"], { MOCK_RECORD_USAGE: "u.json", MOCK_CONSUMER: "mobile" }).options.usage).toEqual({
      file: "u.json",
      consumer: "spa",
    });
    expect(MOCK_USAGE).toContain("--record-usage <file>");
  });

  it("refuses one without the other, and a consumer's name that cannot be written", () => {
    expect(parseMockArgs(["--record-usage", "u.json"], {})).toMatchObject({
      kind: "error",
      message: expect.stringContaining("--consumer"),
    });
    expect(parseMockArgs(["--consumer", "web"], {})).toMatchObject({
      kind: "error",
      message: expect.stringContaining("--record-usage"),
    });
    expect(parseMockArgs(["--record-usage", "u.json", "--consumer", ""], {}).kind).toBe("error");
    expect(parseMockArgs(["--record-usage", "u.json", "--consumer", "a\u0001b"], {}).kind).toBe("error");
  });
});

describe("the journal's options, and an empty MOCK_DB", () => {
  it("gives db, dbSync and dbCompactAfter together, and only with a file to keep", () => {
    expect(run(["--db", "state.json"]).options).toMatchObject({
      db: "state.json",
      dbSync: "fsync",
      dbCompactAfter: 64 * 1024 * 1024,
    });
    expect(run(["--db-sync", "none", "--db-compact-after", "1000"], { MOCK_DB: "state.jsonl" }).options).toMatchObject({
      db: "state.jsonl",
      dbSync: "none",
      dbCompactAfter: 1000,
    });
    const withoutFile = run(["--db-sync", "none", "--db-compact-after", "1000"]).options;
    expect([withoutFile.db, withoutFile.dbSync, withoutFile.dbCompactAfter]).toEqual([undefined, undefined, undefined]);
  });

  it("takes MOCK_DB set to nothing as no file, and still refuses a journal option's wrong value without one", () => {
    const empty = run([], { MOCK_DB: "", MOCK_DB_SYNC: "none" }).options;
    expect([empty.db, empty.dbSync, empty.dbCompactAfter]).toEqual([undefined, undefined, undefined]);
    expect(parseMockArgs(["--db-sync", "later"], {})).toEqual({
      kind: "error",
      message: "--db-sync must be fsync or none, got later",
    });
    expect(parseMockArgs(["--db-compact-after", "0"], {})).toEqual({
      kind: "error",
      message: "--db-compact-after must be a positive whole number of bytes, got 0",
    });
  });
});

describe("--agent-seats and --profile", () => {
  it("gives the default seats without a profile, and leaves a profile's seats standing unless the flag says", () => {
    expect(run([]).options.agentSeats).toBe(10);
    expect(run(["--agent-seats", "3"]).options.agentSeats).toBe(3);
    expect(run(["--profile", "profile.json"]).options).toMatchObject({ profile: "profile.json" });
    expect(run(["--profile", "profile.json"]).options.agentSeats).toBeUndefined();
    expect(run([], { MOCK_PROFILE: "profile.json" }).options.agentSeats).toBeUndefined();
    expect(run(["--profile", "profile.json", "--agent-seats", "10"]).options.agentSeats).toBe(10);
  });
});

describe("the options it reads", () => {
  it("are createMockServer's own, by their names: a mock is built from them as they are", async () => {
    const dir = scratchFolder("plk-cli-options-");
    const accounts = join(dir, "accounts.json");
    writeFileSync(accounts, JSON.stringify([{ apiKey: "ci-key", token: "ci-token", uid: 1 }]));
    const { options, accountsFile } = run([
      ...["--db", join(dir, "state.json"), "--db-sync", "none", "--db-compact-after", "4096"],
      ...["--state", "empty-account", "--accounts", accounts, "--agent-seats", "2", "--max-accounts", "5"],
      ...["--allowed-hosts", "mock.test", "--admin-token", "s3cret-token", "--validate-responses", "--quiet"],
      ...["--journal-size", "5", "--latency", "0", "--base-url", "http://mock.test:4010", "--log-format", "json"],
      ...["--record-usage", join(dir, "usage.json"), "--consumer", "web-app"],
    ]);
    expect(accountsFile).toBe(accounts);
    const mock = createMockServer({ ...options, contract: sharedContract() });
    try {
      expect(mock.store.state.accounts.map((account) => account.apiKey)).toEqual(["ci-key"]);
      expect(mock.usage).toBeDefined();
    } finally {
      await mock.close();
    }
    expect(existsSync(join(dir, "state.json"))).toBe(true);
  });
});
