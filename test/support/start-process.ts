/**
 * Starts a command of this package as a user would, in its own process group (so a signal reaches npm and
 * the server it runs, like Ctrl-C in a terminal), and collects its output.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { createServer } from "node:net";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";

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

export function startProcess(command: string, args: string[], env: NodeJS.ProcessEnv = {}): StartedProcess {
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !RUNNER_VARIABLES.includes(name)));
  const child = spawn(command, args, { cwd: PACKAGE_ROOT, env: { ...inherited, ...env }, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout!.on("data", (chunk) => (output += chunk));
  child.stderr!.on("data", (chunk) => (output += chunk));
  const exited = new Promise<number | string>((resolve) => child.on("close", (code, signal) => resolve(code ?? signal ?? -1)));
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
    async waitForOutput(pattern, deadlineMs = 30_000) {
      const deadline = Date.now() + deadlineMs;
      for (;;) {
        const match = output.match(pattern);
        if (match) return match;
        if (child.exitCode !== null || Date.now() > deadline) throw new Error(`No ${pattern} in the output:\n${output}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
  };
}

/** Polls a URL until it answers 200, or fails after the deadline. */
export async function waitForHealthy(url: string, deadlineMs = 30_000): Promise<void> {
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

/** A port nobody listens on right now: bind port 0, read the port the system chose, release it. */
export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  server.close();
  await once(server, "close");
  return port;
}
