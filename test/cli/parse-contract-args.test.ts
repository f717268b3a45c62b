/** The runner's command line and environment as CI gives them (issue 28): credentials and settings from CONTRACT_*. */
import { describe, expect, it } from "vitest";
import { parseContractArgs } from "../../src/cli/parse-contract-args.ts";

const ENV = {
  CONTRACT_BASE_URL: "https://staging.example.com",
  CONTRACT_API_KEY: "key-1234",
  CONTRACT_TOKEN: "token-1234",
};
const command = (argv: string[], env: NodeJS.ProcessEnv = ENV) => {
  const parsed = parseContractArgs(argv, env);
  if (parsed.kind !== "run") throw new Error(JSON.stringify(parsed));
  return parsed.command;
};

describe("parseContractArgs in CI", () => {
  it("takes everything from the environment, the command line naming no secret", () => {
    expect(
      command(["--reporter", "junit", "--output", "contract.xml"], {
        ...ENV,
        CONTRACT_TIMEOUT: "30000",
        CONTRACT_JSON_REPORT: "contract.json",
        CONTRACT_OTHER_API_KEY: "other-1234",
        CONTRACT_OTHER_TOKEN: "other-token",
      }),
    ).toMatchObject({
      kind: "service",
      baseUrl: "https://staging.example.com",
      apiKey: "key-1234",
      token: "token-1234",
      timeoutMs: 30000,
      reporter: "junit",
      output: "contract.xml",
      jsonReport: "contract.json",
      other: { apiKey: "other-1234", token: "other-token" },
    });
  });

  it("counts an empty variable as unset (a workflow naming a secret the repository does not define)", () => {
    const parsed = command([], {
      ...ENV,
      CONTRACT_TIMEOUT: "",
      CONTRACT_JSON_REPORT: "",
      CONTRACT_OTHER_API_KEY: "",
      CONTRACT_OTHER_TOKEN: "",
      CONTRACT_FRESH_API_KEY: "",
      CONTRACT_FRESH_TOKEN: "",
    });
    expect(parsed).toMatchObject({ timeoutMs: 10000 });
    expect(parsed).not.toHaveProperty("jsonReport");
    expect(parsed).not.toHaveProperty("other");
    expect(parsed).not.toHaveProperty("fresh");
  });

  it("gives the command line the last word, and --json-report with a recording too", () => {
    expect(
      command(["--timeout", "500", "--json-report", "a.json"], { ...ENV, CONTRACT_TIMEOUT: "30000" }),
    ).toMatchObject({ timeoutMs: 500, jsonReport: "a.json" });
    expect(command(["--recording", "t.har", "--json-report", "r.json"], {})).toMatchObject({
      kind: "recording",
      jsonReport: "r.json",
    });
  });

  it("refuses a base address holding a user or password, without repeating it", () => {
    const parsed = parseContractArgs([], {
      ...ENV,
      CONTRACT_BASE_URL: "https://ci:hunter2-secret@staging.example.com",
    });
    expect(parsed.kind).toBe("error");
    expect(JSON.stringify(parsed)).toContain("must not hold a user or password");
    expect(JSON.stringify(parsed)).not.toContain("hunter2-secret");
  });
});

describe("parseContractArgs with --usage", () => {
  it("replays against --base-url with the environment's credentials, holding the service to the usage alone", () => {
    const parsed = command(
      ["--usage", "usage.json", "--base-url", "https://staging.example.com", "--reporter", "junit"],
      {
        ...ENV,
        CONTRACT_PROFILE: "nightly-profile.json",
        CONTRACT_FRESH_API_KEY: "fresh-1234",
        CONTRACT_FRESH_TOKEN: "fresh-token",
      },
    );
    expect(parsed).toMatchObject({
      kind: "usage",
      file: "usage.json",
      reporter: "junit",
      service: {
        kind: "service",
        baseUrl: "https://staging.example.com",
        apiKey: "key-1234",
        fresh: { apiKey: "fresh-1234" },
      },
    });
    expect(parsed).not.toHaveProperty("profile");
    expect((parsed as { service: object }).service).not.toHaveProperty("profile");
  });

  it("judges against --profile alone without --base-url, even with CONTRACT_BASE_URL set; needs no credential", () => {
    expect(
      command(["--usage", "usage.json", "--profile", "profile.json"], {
        CONTRACT_BASE_URL: "https://staging.example.com",
      }),
    ).toEqual({
      kind: "usage",
      file: "usage.json",
      profile: "profile.json",
      strict: false,
      reporter: "text",
      quiet: false,
    });
  });

  it("refuses what does not go with it, saying why", () => {
    const error = (argv: string[], env: NodeJS.ProcessEnv = ENV) => {
      const parsed = parseContractArgs(argv, env);
      return parsed.kind === "error" ? parsed.message : JSON.stringify(parsed);
    };
    expect(error(["--usage", "u.json"], {})).toContain(
      "--usage needs --base-url (or CONTRACT_BASE_URL) to replay against a service, or --profile",
    );
    expect(error(["--usage", "u.json", "--base-url", "https://a.example", "--profile", "p.json"])).toContain(
      "not both",
    );
    expect(error(["--usage", "u.json", "--profile", "p.json", "--api-key", "k"])).toContain(
      "--api-key is for a replay against a service",
    );
    expect(error(["--usage", "u.json", "--fuzz", "10"])).toContain("--fuzz does not go with --usage");
    expect(error(["--usage", ""])).toContain("--usage needs a file name");
  });
});

describe("parseContractArgs with --usage in a nightly job", () => {
  it("replays when CONTRACT_BASE_URL and CONTRACT_PROFILE are both set and no flag chooses", () => {
    expect(command(["--usage", "usage.json"], { ...ENV, CONTRACT_PROFILE: "profile.json" })).toMatchObject({
      kind: "usage",
      service: { baseUrl: "https://staging.example.com" },
    });
    expect(command(["--usage", "usage.json"], { CONTRACT_PROFILE: "profile.json" })).toEqual({
      kind: "usage",
      file: "usage.json",
      profile: "profile.json",
      strict: false,
      reporter: "text",
      quiet: false,
    });
  });
});

describe("parseContractArgs for the service's answers (--write-answers, --rerun)", () => {
  const error = (argv: string[], env: NodeJS.ProcessEnv = ENV) => {
    const parsed = parseContractArgs(argv, env);
    if (parsed.kind !== "error") throw new Error(`accepted: ${JSON.stringify(parsed)}`);
    return parsed.message;
  };

  it("takes --rerun and --write-answers with a usage replayed on the service, or offline with a profile", () => {
    expect(command(["--usage", "u.json", "--rerun", "npx vitest run", "--write-answers", "a.json"])).toMatchObject({
      kind: "usage",
      file: "u.json",
      rerun: "npx vitest run",
      writeAnswers: "a.json",
      service: { baseUrl: "https://staging.example.com" },
    });
    const offline = command(["--usage", "u.json", "--profile", "p.json", "--rerun", "npm test"], {});
    expect(offline).toMatchObject({ kind: "usage", profile: "p.json", rerun: "npm test" });
    expect(offline).not.toHaveProperty("service");
  });

  it("refuses them without --usage, empty, or beside --write-pact, naming the flag", () => {
    expect(error(["--rerun", "npx vitest run"])).toBe(
      "--rerun needs --usage <file>: the consumer's usage whose interactions the service answers",
    );
    expect(error(["--write-answers", "a.json"])).toBe(
      "--write-answers needs --usage <file>: the consumer's usage whose interactions the service answers",
    );
    expect(error(["--usage", "u.json", "--rerun="])).toContain("--rerun needs a test command");
    expect(error(["--usage", "u.json", "--write-answers="])).toBe("--write-answers needs a file name");
    expect(error(["--usage", "u.json", "--write-pact", "p.json", "--rerun", "npm test"])).toContain("--rerun");
  });
});
