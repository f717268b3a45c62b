#!/usr/bin/env node
/**
 * `npm start`: serves the stateful mock. The edge of the program: it reads argv and the environment once,
 * builds the mock, prints where it listens, and stops cleanly on SIGINT/SIGTERM.
 */
import { createMockServer, StateRefused } from "../hosts/node/create-mock-server.ts";
import { boundHeapGrowth } from "./bound-heap-growth.ts";
import { LARGE_STORE_PROPERTIES } from "./collect-garbage.ts";
import { reclaimWhenIdle } from "./reclaim-when-idle.ts";
import { mockBanner } from "./mock-banner.ts";
import { StateFileError } from "../hosts/node/state/state-files.ts";
import { MOCK_USAGE, parseMockArgs } from "./parse-mock-args.ts";
import { commandOrExit } from "./command-or-exit.ts";
import { BufferedLog } from "./buffered-log.ts";
import { messageLine } from "../hosts/node/log-line.ts";
import { convertStateCommand } from "./convert-state-command.ts";

// A conversion of a state file is a program of its own: it writes the file and exits.
if (process.argv[2] === "--convert-state") process.exit(convertStateCommand(process.argv.slice(3)));

const command = commandOrExit(parseMockArgs(process.argv.slice(2), process.env), MOCK_USAGE);

// Everything the mock prints on stdout goes through one writer, in order: the request log's lines are gathered
// for up to 10 ms and written together, and what waits is written on every exit, a crash included (buffered-log.ts).
const out = new BufferedLog().flushOnExit();

let mock;
try {
  // The command holds the server's options as they are (parse-mock-args.ts); the program adds its log.
  mock = createMockServer({ ...command.options, log: (line: string) => out.line(line) });
} catch (error) {
  // A refused --state file is named as the user gave it (the mock was given its records).
  console.error(
    error instanceof StateRefused && command.stateFile
      ? new StateRefused(command.stateFile, error.problems).message
      : (error as Error).message.replace('createMockServer: "answers"', "--answers"),
  );
  // A state that cannot be read or written is not a usage error: exit 1, as for a port in use. A state refused for
  // what it holds (a record the mock cannot hold, RecordRefused; records of the wrong shape, StateRefused) is: exit 2.
  process.exit(error instanceof StateFileError ? 1 : 2);
}

// A large store gives memory back once idle (reclaim-when-idle.ts), not before its first answer: the start is
// not made to wait for a collection.
const largeStore = mock.store.counts().properties >= LARGE_STORE_PROPERTIES;

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

out.line(messageLine(command.options.logFormat, "info", mockBanner(mock, command, listening), Date.now()));
out.flush();

// A large store's memory that a start or a burst of requests grew is given back once the mock is idle again
// (reclaim-when-idle.ts).
const reclaim = largeStore ? reclaimWhenIdle() : undefined;
// And its heap collects garbage sooner (bound-heap-growth.ts).
const bound = largeStore ? boundHeapGrowth() : undefined;

/** A stop never takes longer than this, even when the disk does not answer. */
const STOP_DEADLINE_MS = 4_500;

let stopping = false;
const stop = (signal: string) => {
  if (stopping) return;
  stopping = true;
  reclaim?.stop();
  bound?.stop();
  out.line(messageLine(command.options.logFormat, "info", `${signal}: stopping`, Date.now()));
  setTimeout(() => {
    console.error(
      `Stopped after ${STOP_DEADLINE_MS} ms without finishing: ` +
        `changes not yet written to ${command.options.db ?? "the state"} are lost.`,
    );
    process.exit(1);
  }, STOP_DEADLINE_MS).unref();
  mock.close().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(`Stopped with changes not saved: ${(error as Error).message}`);
      process.exit(1);
    },
  );
};
process.on("SIGINT", () => stop("SIGINT"));
process.on("SIGTERM", () => stop("SIGTERM"));
