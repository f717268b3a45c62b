import type { Listening, MockServer } from "../hosts/node/create-mock-server.ts";
import type { MockCommand, MockCommandOptions } from "./parse-mock-args.ts";

/**
 * What `npm start` prints once the mock listens: where, with which credentials, and what state it serves. Read
 * from the running mock, not from the options, so that it tells the truth after a restart with `--db` (the
 * state read from the file, not the fixtures') and with `--accounts` (the configured accounts, not the demo one).
 */
export function mockBanner(
  mock: Pick<MockServer, "store" | "restoredFrom"> &
    Partial<Pick<MockServer, "restoredNotes">> &
    Partial<Pick<MockServer, "profile">>,
  command: MockCommand,
  listening: Listening,
): string {
  const { url } = listening;
  const { options } = command;
  const counts = mock.store.counts();
  const accounts = mock.store.state.accounts;
  const records =
    `${plural(counts.properties, "property", "properties")}, ${plural(counts.agents, "agent")}, ` +
    `${plural(counts.documents, "document")}, ${plural(counts.accounts, "account")}`;
  const lines = [
    `Property Listing Service mock listening on ${url} (${command.host}:${listening.port})`,
    `  API          ${url}/api/v1/object/`,
  ];
  if (options.accounts) {
    // Only the keys: the tokens are secrets of the file's owner, and logs travel.
    const listed = accounts.map((account) => `${account.apiKey} (uid ${account.id})`).join(", ");
    lines.push(
      `  Accounts     ${listed}, from ${command.accountsFile ?? "the configured accounts"}; no other key is admitted`,
    );
  } else {
    const demo = accounts[0];
    lines.push(
      demo
        ? `  Credentials  API-KEY: ${demo.apiKey}   TOKEN: ${demo.token}   ` +
            `(uid ${demo.id}; any other new key opens its own empty account)`
        : "  Credentials  any API-KEY and TOKEN: a new key opens its own empty account",
      `  Your uid     a new key's uid is the uid of any property it creates, or: GET ${url}/__db/accounts?apiKey=<key>`,
    );
  }
  lines.push(
    mock.restoredFrom
      ? `  Restored     ${records}, read from ${mock.restoredFrom}` +
          (mock.restoredNotes ?? []).map((note) => `; ${note}`).join("")
      : options.state !== undefined
        ? `  Seeded       ${records} (state ${command.stateFile ?? String(options.state)}; ` +
          `POST ${url}/__admin/state changes it)`
        : `  Seeded       ${records} (${options.fixtures ?? "fixtures/db.json"})`,
    `  State        ${stateLine(options)}`,
    ...(mock.profile
      ? [
          `  Profile      ${mock.profile.source}: answers as run ${mock.profile.runId} ` +
            `(recorded ${mock.profile.recordedAt}) saw the service answer where the document is silent`,
        ]
      : []),
    `  Raw records  ${url}/__db/properties   reset: POST ${url}/__admin/reset   health: ${url}/healthz`,
    `  Spec         ${url}/openapi.yaml${options.validateResponses ? "   answers checked against it" : ""}`,
    `  Docs         ${url}/docs   (the API, to try out in a browser; setting up a test: docs/setting-up-a-test.md)`,
    `  Console      ${url}/__admin/console   (live requests and answers, coverage, states, faults, latency)`,
    ...(options.usage
      ? [
          `  Usage        recording ${options.usage.consumer}'s usage in ${options.usage.file}; ` +
            `a test begins with POST ${url}/__admin/usage/tests {"name": "suite > test"}`,
        ]
      : []),
    `  Steering     requests: ${url}/__admin/requests   faults: POST ${url}/__admin/faults   ` +
      `states: ${url}/__admin/state   Prefer: code=503, delay=250${latencyNote(options)}`,
  );
  return lines.join("\n");
}

/** Where the state is kept, and what a 2xx to a write guarantees. */
function stateLine(options: MockCommandOptions): string {
  if (!options.db) return "in memory: lost when the mock stops";
  const files = `kept in ${options.db} and ${options.db}.journal`;
  return options.dbSync === "fsync"
    ? `${files}; a 2xx to a write means it is on disk (survives kill -9 and power loss)`
    : `${files}; --db-sync none: writes are not synced, the last moments before a crash can be lost`;
}

function latencyNote(options: MockCommandOptions): string {
  if (!options.latency) return "";
  const { min, max } = options.latency;
  return `   latency ${min === max ? min : `${min}-${max}`} ms`;
}

function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}
