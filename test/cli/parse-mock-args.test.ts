/** The mock's command line: the options of the hardening issue, read once, with their environment variables. */
import { describe, expect, it } from "vitest";
import { MOCK_USAGE, parseMockArgs } from "../../src/cli/parse-mock-args.ts";

const run = (argv: string[], env: NodeJS.ProcessEnv = {}) => {
  const parsed = parseMockArgs(argv, env);
  if (parsed.kind !== "run") throw new Error(JSON.stringify(parsed));
  return parsed.command;
};

describe("--max-accounts", () => {
  it("defaults to 10,000, and is read from the flag before MAX_ACCOUNTS", () => {
    expect(run([]).maxAccounts).toBe(10_000);
    expect(run([], { MAX_ACCOUNTS: "50" }).maxAccounts).toBe(50);
    expect(run(["--max-accounts", "7"], { MAX_ACCOUNTS: "50" }).maxAccounts).toBe(7);
    expect(MOCK_USAGE).toContain("--max-accounts <n>");
  });

  it("refuses what is not a whole number", () => {
    expect(parseMockArgs(["--max-accounts", "many"], {})).toEqual({ kind: "error", message: "--max-accounts must be a whole number up to 100000000, got many" });
    expect(parseMockArgs([], { MAX_ACCOUNTS: "-1" }).kind).toBe("error");
  });
});
