/** The programs the bench starts as processes: the mock (its bin and `npm start`) and its peers. */
import { IDLE_RECLAIM_AFTER_MS } from "../../src/cli/reclaim-when-idle.ts";
import { LARGE_STORE_PROPERTIES } from "../../src/cli/collect-garbage.ts";
import { readFileSync, realpathSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { FIXTURE_ACCOUNTS } from "../../src/fixtures/generate-fixtures.ts";
import type { ServerCommand } from "./processes.ts";

const at = (path: string) => fileURLToPath(new URL(`../../${path}`, import.meta.url));

/** The first line of the mock's banner, printed once it listens (with `--quiet` too). */
export const MOCK_LISTENING = /^Property Listing Service mock listening on /m;

/**
 * The installed bin, as a user's script or docker-compose runs it: with `--quiet` unless `log` is set (the request
 * log then goes to a pipe the bench reads, as a terminal or `docker logs` would).
 */
export function mockBin(
  options: { fixtures?: string; validateResponses?: boolean; bin?: string; name?: string; log?: boolean } = {},
): ServerCommand {
  return {
    name: options.name ?? (options.validateResponses ? "mock --validate-responses" : "mock (bin)"),
    command: process.execPath,
    args: (port) => [
      options.bin ?? at("dist/cli/mock.js"),
      "--port",
      String(port),
      "--host",
      "127.0.0.1",
      ...(options.log ? [] : ["--quiet"]),
      ...(options.fixtures ? ["--fixtures", options.fixtures] : []),
      ...(options.validateResponses ? ["--validate-responses"] : []),
    ],
    readyPath: "/healthz",
    readyLine: MOCK_LISTENING,
    spawnsServerItself: true,
  };
}

/**
 * How long a bench leaves the mock's bin idle, once quiet, before it reads its settled memory: a bin holding
 * `properties` of {@link LARGE_STORE_PROPERTIES} or more gives memory back after that long without work
 * (src/cli/reclaim-when-idle.ts); a smaller one does nothing then, and is not waited for. A `--quick` run, a look
 * at the bench rather than its figures, does not wait.
 */
export function mockIdleWorkAfterMs(settings: { quick: boolean }, properties: number): number {
  return settings.quick || properties < LARGE_STORE_PROPERTIES ? 0 : IDLE_RECLAIM_AFTER_MS;
}

/** `npm start`, as the README tells a user to run it (npm's own start-up included). */
export function npmStart(): ServerCommand {
  return {
    name: "npm start",
    command: "npm",
    args: (port) => ["start", "--silent", "--", "--port", String(port), "--host", "127.0.0.1", "--quiet"],
    readyPath: "/healthz",
    readyLine: MOCK_LISTENING,
    env: { npm_config_update_notifier: "false" },
    spawnsServerItself: false,
  };
}

/** json-server 0.17's own CLI over the same fixtures file. */
export function jsonServer(fixtures: string): ServerCommand {
  return {
    name: "json-server",
    command: process.execPath,
    args: (port) => [
      at("node_modules/json-server/lib/cli/bin.js"),
      fixtures,
      "--port",
      String(port),
      "--host",
      "127.0.0.1",
      "--quiet",
    ],
    readyPath: "/accounts",
    spawnsServerItself: true,
  };
}

/** Prism's static mock of the spec, errors only in its log (`-v error`). */
export function prism(): ServerCommand {
  return {
    name: "Prism",
    command: process.execPath,
    args: (port) => [
      realpathSync(at("node_modules/.bin/prism")),
      "mock",
      at("spec/openapi.yaml"),
      "--port",
      String(port),
      "--host",
      "127.0.0.1",
      "-v",
      "error",
    ],
    readyPath: "/api/v1/object/template_base",
    // Its start-up is not a figure here; a poll every 2 ms through its seconds of start cost seconds of CPU.
    pollMs: 25,
    spawnsServerItself: true,
  };
}

/** bare-server.ts's text, run by node as it is (it is JavaScript too). */
const BARE_SERVER = readFileSync(at("scripts/bench/bare-server.ts"), "utf8");

/** What bare-server.ts prints once it listens. */
const BARE_LISTENING = /^listening$/m;

/** A bare node:http server answering `answer` to everything (`bare-server.ts`). */
export function bareServer(answer: { status: number; headers: Record<string, string>; body: string }): ServerCommand {
  return {
    name: "bare node:http",
    command: process.execPath,
    args: (port) => ["--input-type=module", "-e", BARE_SERVER, String(port)],
    readyPath: "/",
    readyLine: BARE_LISTENING,
    env: { PLK_BARE_ANSWER: JSON.stringify(answer) },
    spawnsServerItself: true,
  };
}

/**
 * What a server answers to one GET with the demo account's credentials, as bare node:http is to answer it: its
 * status, its headers less the per-connection ones, and its body. Throws unless it is a 200.
 */
export async function sampleAnswer(
  url: string,
  path: string,
): Promise<{ status: number; headers: Record<string, string>; body: string }> {
  const sample = await fetch(url + path, { headers: DEMO_CREDENTIALS });
  const body = await sample.text();
  if (sample.status !== 200)
    throw new Error(`The mock answered ${sample.status} to GET ${path}: ${body.slice(0, 200)}`);
  const headers: Record<string, string> = {};
  sample.headers.forEach((value, name) => {
    if (!["date", "connection", "keep-alive", "transfer-encoding"].includes(name)) headers[name] = value;
  });
  return { status: 200, headers, body };
}

/** The demo account's credentials, as the scenarios send them. */
export const DEMO_CREDENTIALS: Readonly<Record<string, string>> = {
  "API-KEY": FIXTURE_ACCOUNTS[0]!.apiKey,
  TOKEN: FIXTURE_ACCOUNTS[0]!.token,
  "content-type": "application/json",
};
