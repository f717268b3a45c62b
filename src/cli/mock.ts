#!/usr/bin/env node
/**
 * `npm start`: serves the stateful mock. The edge of the program: it reads argv and the environment once,
 * builds the mock, prints where it listens, and stops cleanly on SIGINT/SIGTERM.
 */
import { createMockServer } from "../mock/create-mock-server.ts";
import { DEFAULT_FIXTURES_PATH } from "../mock/load-fixtures.ts";
import { MOCK_USAGE, parseMockArgs } from "./parse-mock-args.ts";

const parsed = parseMockArgs(process.argv.slice(2), process.env);
if (parsed.kind === "help") {
  console.log(MOCK_USAGE);
  process.exit(0);
}
if (parsed.kind === "error") {
  console.error(`${parsed.message}\n\n${MOCK_USAGE}`);
  process.exit(2);
}
const { command } = parsed;

let mock;
try {
  mock = createMockServer({
    fixturesFile: command.fixturesFile ?? DEFAULT_FIXTURES_PATH,
    ...(command.dbFile ? { dbFile: command.dbFile } : {}),
    ...(command.baseUrl ? { baseUrl: command.baseUrl } : {}),
    ...(command.accounts ? { accounts: command.accounts } : {}),
    agentSeats: command.agentSeats,
    validateResponses: command.validateResponses,
    ...(command.quiet ? {} : { log: (line: string) => console.log(line) }),
  });
} catch (error) {
  console.error((error as Error).message);
  process.exit(2);
}

let listening;
try {
  listening = await mock.listen(command.port, command.host);
} catch (error) {
  const code = (error as NodeJS.ErrnoException).code;
  console.error(
    code === "EADDRINUSE"
      ? `Port ${command.port} on ${command.host} is already in use; choose another with --port.`
      : `Cannot listen on ${command.host}:${command.port}: ${(error as Error).message}`,
  );
  process.exit(1);
}

const counts = mock.store.counts();
const demo = mock.store.state.accounts[0];
const url = listening.url;
console.log(
  [
    `Property Listing Service mock listening on ${url} (${command.host}:${listening.port})`,
    `  API          ${url}/api/v1/object/`,
    demo
      ? `  Credentials  API-KEY: ${demo.apiKey}   TOKEN: ${demo.token}   (uid ${demo.id}; any other new key opens its own empty account${command.accounts ? ", disabled by --accounts" : ""})`
      : "  Credentials  none configured",
    `  Seeded       ${counts.properties} properties, ${counts.agents} agents, ${counts.documents} documents, ${counts.accounts} accounts (${command.fixturesFile ?? "fixtures/db.json"})`,
    `  State        ${command.dbFile ? `kept in ${command.dbFile}` : "in memory"}`,
    `  Raw records  ${url}/__db/properties   reset: POST ${url}/__admin/reset   health: ${url}/healthz`,
    `  Spec         ${url}/openapi.yaml${command.validateResponses ? "   answers checked against it" : ""}`,
  ].join("\n"),
);

let stopping = false;
const stop = (signal: string) => {
  if (stopping) return;
  stopping = true;
  console.log(`${signal}: stopping`);
  mock.close().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(`Error while stopping: ${(error as Error).message}`);
      process.exit(1);
    },
  );
};
process.on("SIGINT", () => stop("SIGINT"));
process.on("SIGTERM", () => stop("SIGTERM"));
