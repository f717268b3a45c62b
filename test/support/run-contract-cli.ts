/**
 * The contract runner's bin as CI runs it (`node dist/cli/contract.js`, what `npx property-listing-contract`
 * starts), with standard output and standard error kept apart: a machine report must be all of standard output.
 * The proxy variables of the machine running the tests are cleared unless the test sets them.
 */
import { spawn } from "node:child_process";
import { join } from "node:path";
import { PACKAGE_ROOT } from "./start-process.ts";

export interface CliRun {
  code: number | string;
  stdout: string;
  stderr: string;
}

const PROXY_VARIABLES = [
  "http_proxy",
  "https_proxy",
  "all_proxy",
  "no_proxy",
  "HTTP_PROXY",
  "HTTPS_PROXY",
  "ALL_PROXY",
  "NO_PROXY",
];
const RUNNER_VARIABLES = ["BASE_URL", "PORT", "HOST", "MOCK_DB", "MODE", "DEV", "PROD", "SSR"];

/**
 * Runs a command line (`node dist/cli/contract.js …`, or a shell line with `sh -c`) in the repository, or in `cwd`
 * (a project that has the kit installed, where `npx` finds the bin as a user's project does).
 */
export function runCli(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv = {},
  cwd = PACKAGE_ROOT,
): Promise<CliRun> {
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(
      ([name]) => !RUNNER_VARIABLES.includes(name) && !PROXY_VARIABLES.includes(name) && !name.startsWith("CONTRACT_"),
    ),
  );
  const child = spawn(command, args, {
    cwd,
    env: { ...inherited, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk) => (stdout += chunk));
  child.stderr.on("data", (chunk) => (stderr += chunk));
  return new Promise((resolve) =>
    child.on("close", (code, signal) => resolve({ code: code ?? signal ?? -1, stdout, stderr })),
  );
}

/** The bin of the contract runner, built. */
export const CONTRACT_BIN = join(PACKAGE_ROOT, "dist", "cli", "contract.js");

/** The three accounts of a service as the runner reads them from CI's environment (`CONTRACT_*`). */
export function credentialsEnv(
  accounts: Record<"primary" | "other" | "fresh", { apiKey: string; token: string; agentSeats?: number }>,
): NodeJS.ProcessEnv {
  const { primary, other, fresh } = accounts;
  return {
    CONTRACT_API_KEY: primary.apiKey,
    CONTRACT_TOKEN: primary.token,
    CONTRACT_OTHER_API_KEY: other.apiKey,
    CONTRACT_OTHER_TOKEN: other.token,
    CONTRACT_FRESH_API_KEY: fresh.apiKey,
    CONTRACT_FRESH_TOKEN: fresh.token,
    ...(fresh.agentSeats !== undefined ? { CONTRACT_FRESH_SEATS: String(fresh.agentSeats) } : {}),
  };
}
