/**
 * Starts a command of this package as a user would, in its own process group (so a signal reaches npm and
 * the server it runs, like Ctrl-C in a terminal), and collects its output.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomInt } from "node:crypto";
import { once } from "node:events";
import { createServer } from "node:net";
import { fileURLToPath } from "node:url";
import { HANG_MS } from "./deadlines.ts";

export const PACKAGE_ROOT = fileURLToPath(new URL("../..", import.meta.url));

export interface StartedProcess {
  child: ChildProcess;
  output(): string;
  /**
   * Resolves with the exit code (or the signal name) once the process has ended and its output is all read:
   * on "close", not "exit", which can come before the last lines a grandchild (the server under npm) wrote.
   */
  exited: Promise<number | string>;
  /** Sends a signal to the whole process group. */
  signal(name: NodeJS.Signals): void;
  /** Waits until the output matches, or fails after the deadline with the output so far. */
  waitForOutput(pattern: RegExp, deadlineMs?: number): Promise<RegExpMatchArray>;
}

/** Variables the test runner sets (Vite exports BASE_URL=/, for one) that would reach the program as settings. */
const RUNNER_VARIABLES = ["BASE_URL", "PORT", "HOST", "MOCK_DB", "MODE", "DEV", "PROD", "SSR"];

/** Where a command runs (the package root by default), and whether `env` is its whole environment. */
export interface StartOptions {
  cwd?: string;
  /** `env` as the whole environment, instead of added to this process's (less the runner's settings). */
  envIsWhole?: boolean;
}

export function startProcess(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv = {},
  options: StartOptions = {},
): StartedProcess {
  const inherited = options.envIsWhole
    ? {}
    : Object.fromEntries(Object.entries(process.env).filter(([name]) => !RUNNER_VARIABLES.includes(name)));
  const child = spawn(command, args, {
    cwd: options.cwd ?? PACKAGE_ROOT,
    env: { ...inherited, ...env },
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk) => (output += chunk));
  child.stderr.on("data", (chunk) => (output += chunk));
  const exited = new Promise<number | string>((resolve) =>
    child.on("close", (code, signal) => resolve(code ?? signal ?? -1)),
  );
  return {
    child,
    output: () => output,
    exited,
    signal: (name) => {
      try {
        process.kill(-child.pid!, name);
      } catch {
        // already gone
      }
    },
    waitForOutput(pattern, deadlineMs = HANG_MS) {
      // Looked at on every chunk the process writes (these listeners run after the ones that add it to the
      // output), and once more when its output has ended.
      return new Promise<RegExpMatchArray>((resolve, reject) => {
        const stop = () => {
          clearTimeout(deadline);
          child.stdout.off("data", look);
          child.stderr.off("data", look);
        };
        const look = () => {
          const match = output.match(pattern);
          if (!match) return false;
          stop();
          resolve(match);
          return true;
        };
        const fail = () => {
          stop();
          reject(new Error(`No ${pattern} in the output:\n${output}`));
        };
        const deadline = setTimeout(fail, deadlineMs);
        if (look()) return;
        child.stdout.on("data", look);
        child.stderr.on("data", look);
        void exited.then(() => look() || fail());
      });
    },
  };
}

/** Kills every process of the list (a test file's `started`) and waits for each to exit, emptying the list. */
export async function killAll(started: StartedProcess[]): Promise<void> {
  for (const process of started.splice(0)) {
    process.signal("SIGKILL");
    await process.exited;
  }
}

/** Polls a URL until it answers 200, or fails after the deadline. */
export async function waitForHealthy(url: string, deadlineMs = HANG_MS): Promise<void> {
  const deadline = Date.now() + deadlineMs;
  for (;;) {
    try {
      if ((await fetch(url)).status === 200) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`${url} did not become healthy`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * The mock's program as its bin and `npm start` run it (the built file, `--quiet`, on a port of the system's), added
 * to `started` for the caller to stop; its address once it says where it listens, has written the banner line
 * `bannerLine` when one is given, and answers /healthz.
 */
export async function startMockBin(
  started: StartedProcess[],
  args: string[],
  env: NodeJS.ProcessEnv = {},
  bannerLine?: RegExp,
): Promise<{ process: StartedProcess; url: string }> {
  const mock = startProcess(process.execPath, ["dist/cli/mock.js", "--port", "0", "--quiet", ...args], env);
  started.push(mock);
  const [, url] = await mock.waitForOutput(/listening on (http:\/\/127\.0\.0\.1:\d+)/);
  if (bannerLine) await mock.waitForOutput(bannerLine);
  await waitForHealthy(`${url}/healthz`);
  return { process: mock, url: url! };
}

/**
 * Where {@link freePort} draws from: below the ephemeral ranges (Linux 32768-60999, macOS and Windows 49152 and
 * up) from which servers on port 0 and outgoing connections get theirs. A port the system chose for port 0 and
 * released could be taken by another test's server on port 0 before the caller binds it, with test files running
 * side by side; one from here cannot. Each vitest worker (VITEST_POOL_ID, 1 to maxWorkers) has a slice of its own.
 */
const PORTS = { from: 20_000, to: 32_000, slices: 8 };

/** A port nobody listens on right now, from this worker's slice (at random within it, then checked by a bind). */
export async function freePort(): Promise<number> {
  const size = Math.floor((PORTS.to - PORTS.from) / PORTS.slices);
  const slice = (Number(process.env.VITEST_POOL_ID ?? "1") - 1) % PORTS.slices;
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const port = PORTS.from + slice * size + randomInt(size);
    if (await isFree(port)) return port;
  }
  throw new Error(
    `No free port in ${PORTS.from + slice * size}-${PORTS.from + (slice + 1) * size - 1} after 100 tries`,
  );
}

async function isFree(port: number): Promise<boolean> {
  const server = createServer();
  const bound = await new Promise<boolean>((resolve) => {
    server.once("error", () => resolve(false));
    server.listen(port, "127.0.0.1", () => resolve(true));
  });
  if (bound) {
    server.close();
    await once(server, "close");
  }
  return bound;
}
