/**
 * Runs Stoplight Prism against spec/openapi.yaml, in one of two modes:
 *
 * - `mock`: a stateless mock answering from the spec's examples (`--dynamic` for generated data). Per request,
 *   `Prefer: dynamic=true`, `Prefer: example=<name>` and `Prefer: code=<status>` choose the answer.
 * - `proxy`: a validating proxy in front of a real service. Requests and responses are checked against the
 *   spec; a violation is answered as an error (`--errors`) and listed in the `sl-violations` header.
 *
 * @example
 *   tsx scripts/prism.ts mock [--dynamic] [--seed S] [--port 4011] [--host 127.0.0.1]
 *   tsx scripts/prism.ts proxy --target http://localhost:8080 [--port 4012] [--host 127.0.0.1]
 *
 * `PORT` and `HOST` from the environment are used when the flags are not given. Exit code: Prism's own, or 2
 * for a usage error.
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { createServer as createNetServer } from "node:net";
import { constants } from "node:os";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { DEFAULT_SPEC_PATH } from "../src/spec/load-spec.ts";

/** The Prism executable of this package, found from this file rather than from the working directory. */
export const PRISM_BIN = fileURLToPath(new URL("../node_modules/.bin/prism", import.meta.url));

/** Default ports: 4010 is the project's stateful mock (`npm start`), so Prism keeps clear of it. */
export const DEFAULT_PORTS = { mock: 4011, proxy: 4012 } as const;

/** What to run: Prism's argv, and where it will listen. */
export interface PrismCommand {
  mode: "mock" | "proxy";
  host: string;
  port: number;
  /** The upstream service, for `proxy`. */
  target?: string;
  dynamic: boolean;
  /** Arguments after the `prism` executable. */
  args: string[];
}

/** The result of {@link parsePrismCommand}: a command, help, or a usage error (exit 2) as a value. */
export type ParsedPrismArgs =
  | { kind: "run"; command: PrismCommand }
  | { kind: "help" }
  | { kind: "error"; message: string };

export const USAGE = `Usage:
  npm run mock:prism [-- [--dynamic] [--seed S] [--port 4011] [--host 127.0.0.1]]
      a stateless mock from spec/openapi.yaml; per request: Prefer: dynamic=true | example=<name> | code=<status>
  npm run proxy -- --target URL [--port 4012] [--host 127.0.0.1]
      a validating proxy in front of URL; violations become error answers and an sl-violations header
PORT and HOST from the environment apply when --port and --host are not given.`;

/**
 * Reads the launcher's argv (without `node` and the script) and environment into a Prism command. Pure, so the
 * argument rules are tested without starting a process.
 */
export function parsePrismCommand(
  argv: readonly string[],
  env: Record<string, string | undefined> = {},
): ParsedPrismArgs {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      strict: true,
      options: {
        port: { type: "string", short: "p" },
        host: { type: "string", short: "h" },
        target: { type: "string" },
        dynamic: { type: "boolean", short: "d", default: false },
        seed: { type: "string" },
        help: { type: "boolean", default: false },
      },
    });
  } catch (error) {
    return { kind: "error", message: `${(error as Error).message}\n${USAGE}` };
  }
  const { values, positionals } = parsed;
  if (values.help) return { kind: "help" };
  const mode = positionals[0];
  if (mode !== "mock" && mode !== "proxy") {
    return {
      kind: "error",
      message: `Expected "mock" or "proxy", got ${mode === undefined ? "nothing" : `"${mode}"`}.\n${USAGE}`,
    };
  }
  if (positionals.length > 1) return { kind: "error", message: `Unexpected argument "${positionals[1]}".\n${USAGE}` };

  const rawPort = values.port ?? env.PORT ?? String(DEFAULT_PORTS[mode]);
  const port = Number(rawPort);
  if (!/^[0-9]+$/.test(rawPort) || port < 1 || port > 65535) {
    return { kind: "error", message: `--port must be a port number (1-65535), got "${rawPort}".` };
  }
  const host = values.host ?? env.HOST ?? "127.0.0.1";
  const common = ["--port", String(port), "--host", host];

  if (mode === "mock") {
    if (values.target !== undefined)
      return { kind: "error", message: `--target is an option of "proxy", not of "mock".\n${USAGE}` };
    const args = ["mock", DEFAULT_SPEC_PATH, ...common];
    if (values.dynamic) args.push("--dynamic");
    if (values.seed !== undefined) args.push("--seed", values.seed);
    return { kind: "run", command: { mode, host, port, dynamic: values.dynamic, args } };
  }

  if (values.dynamic || values.seed !== undefined) {
    return {
      kind: "error",
      message: `--dynamic and --seed are options of "mock"; a proxy answers with the real service's data.`,
    };
  }
  if (!values.target) {
    return {
      kind: "error",
      message: `proxy needs the service to check: --target URL (for example --target http://localhost:8080).\n${USAGE}`,
    };
  }
  if (!URL.canParse(values.target) || !/^https?:$/.test(new URL(values.target).protocol)) {
    return { kind: "error", message: `--target must be an http(s) URL, got "${values.target}".` };
  }
  // --errors answers an Error-severity violation (request or response) with a problem+json error instead of passing
  // it on with only an sl-violations header; Warnings, such as an undocumented status, still pass through.
  const args = ["proxy", DEFAULT_SPEC_PATH, values.target, ...common, "--errors"];
  return { kind: "run", command: { mode, host, port, target: values.target, dynamic: false, args } };
}

/** One line telling the user where Prism listens and what it does there. */
export function describeCommand(command: PrismCommand): string {
  const url = `http://${command.host.includes(":") ? `[${command.host}]` : command.host}:${command.port}`;
  if (command.mode === "mock") {
    const data = command.dynamic
      ? "generated data (--dynamic)"
      : "the spec's examples (per request: Prefer: dynamic=true)";
    return `Prism mock of ${DEFAULT_SPEC_PATH} on ${url}, answering with ${data}.`;
  }
  return (
    `Prism validating proxy on ${url} -> ${command.target}; contract violations are answered as errors and ` +
    `listed in the sl-violations header.`
  );
}

/**
 * Whether the address is free, found by listening on it for a moment. Prism itself answers a taken port with
 * its whole usage text, which hides the one line that matters; asking first lets the launcher say just that.
 */
export function portInUse(port: number, host: string): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createNetServer();
    probe.once("error", (error: NodeJS.ErrnoException) => resolve(error.code === "EADDRINUSE"));
    probe.listen(port, host, () => probe.close(() => resolve(false)));
  });
}

/**
 * The line to print when Prism is not installed: it is an optional peer dependency (about 55 MiB with its own
 * dependencies), which `npm ci` in a clone installs and a consumer's `--omit=dev` install does not.
 */
export const PRISM_MISSING =
  "Prism is not installed (an optional peer dependency of this kit): npm install --no-save @stoplight/prism-cli@5.14.2";

/** Starts Prism, forwards SIGINT and SIGTERM to it, and exits with its exit code. */
async function run(command: PrismCommand): Promise<void> {
  if (!existsSync(PRISM_BIN)) {
    console.error(PRISM_MISSING);
    process.exit(1);
  }
  if (await portInUse(command.port, command.host)) {
    console.error(`Port ${command.port} on ${command.host} is already in use; choose another with --port.`);
    process.exit(1);
  }
  console.log(describeCommand(command));
  const child = spawn(process.execPath, [PRISM_BIN, ...command.args], { stdio: "inherit" });
  const forward = (signal: NodeJS.Signals) => {
    child.kill(signal);
  };
  process.on("SIGINT", forward);
  process.on("SIGTERM", forward);
  child.on("error", (error) => {
    console.error(`Could not start Prism (${PRISM_BIN}): ${error.message}`);
    process.exit(1);
  });
  child.on("exit", (code, signal) => {
    process.exit(code ?? 128 + (signal ? constants.signals[signal] : 0));
  });
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const parsed = parsePrismCommand(process.argv.slice(2), process.env);
  if (parsed.kind === "run") await run(parsed.command);
  else if (parsed.kind === "help") console.log(USAGE);
  else {
    console.error(parsed.message);
    process.exit(2);
  }
}
