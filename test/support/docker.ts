/**
 * A Docker engine for the container tests: they run where `docker info` answers. In CI (`REQUIRE_DOCKER=1`, set by
 * .ci/run, which installs docker.io and starts dockerd) its absence is an error, not a skip.
 *
 * The image under test is the repository's Dockerfile, built unchanged: the one .ci/run built once for the whole run
 * (its tag in `PLK_DOCKER_IMAGE`), else built here once per worker (the engine's layer cache makes a rebuild of an
 * unchanged context a matter of seconds). Where no registry is reachable the Dockerfile's base image must be there
 * already: scripts/docker/stand-in-base.sh makes a stand-in for it.
 */
import { spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { HANG_MS } from "./deadlines.ts";
import { PACKAGE_ROOT } from "./start-process.ts";

export const DOCKER_AVAILABLE = spawnSync("docker", ["info"], { stdio: "ignore", timeout: 30_000 }).status === 0;
if (!DOCKER_AVAILABLE && (process.env.REQUIRE_DOCKER ?? "0") !== "0")
  throw new Error("No Docker engine answers `docker info`; .ci/run installs docker.io and starts dockerd");
export const NO_DOCKER =
  "no Docker engine answers `docker info` (.ci/run installs docker.io and starts dockerd; REQUIRE_DOCKER=1 " +
  "makes its absence an error)";

/** The demo account's request headers, as the README gives them. */
export const DEMO_HEADERS = { "API-KEY": "demo-key", TOKEN: "demo-token", "content-type": "application/json" };

export interface Ran {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** A docker (or other) command to its end without blocking the event loop; SIGKILL at the deadline. */
export function run(
  command: string,
  args: string[],
  options: { env?: NodeJS.ProcessEnv; cwd?: string; deadlineMs?: number } = {},
): Promise<Ran> {
  const child = spawn(command, args, {
    cwd: options.cwd ?? PACKAGE_ROOT,
    env: { ...process.env, ...options.env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk) => (stdout += chunk));
  child.stderr.on("data", (chunk) => (stderr += chunk));
  const timer = setTimeout(() => child.kill("SIGKILL"), options.deadlineMs ?? HANG_MS);
  return new Promise((resolve) =>
    child.on("close", (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    }),
  );
}

/** `docker ...`, failing with its output unless it exits 0; answers its standard output, trimmed. */
export async function docker(...args: string[]): Promise<string> {
  const ran = await run("docker", args);
  if (ran.status !== 0) throw new Error(`docker ${args.join(" ")} exited ${ran.status}:\n${ran.stderr}${ran.stdout}`);
  return ran.stdout.trim();
}

let built: Promise<string> | undefined;

/** The tag of the kit's image: the one .ci/run built (`PLK_DOCKER_IMAGE`), else the Dockerfile built here once. */
export function kitImage(): Promise<string> {
  built ??= (async () => {
    const given = process.env.PLK_DOCKER_IMAGE;
    if (given) {
      await docker("image", "inspect", "--format", "{{.Id}}", given);
      return given;
    }
    const tag = "property-listing-kit:test";
    const ran = await run("docker", ["build", "-q", "-t", tag, "."], {
      env: { DOCKER_BUILDKIT: "0" },
      deadlineMs: 15 * 60_000,
    });
    if (ran.status !== 0) {
      throw new Error(
        `docker build of the Dockerfile failed (where no registry is reachable, make its base image with ` +
          `scripts/docker/stand-in-base.sh first):\n${ran.stderr}${ran.stdout}`,
      );
    }
    return tag;
  })();
  return built;
}

/** A name no other run uses, for containers, volumes and compose projects (all removed by the tests). */
export function uniqueName(prefix: string): string {
  return `${prefix}-${randomBytes(4).toString("hex")}`;
}

/** A container's state as `docker inspect` gives it. */
export interface ContainerState {
  Status: string;
  Running: boolean;
  OOMKilled: boolean;
  ExitCode: number;
  Health?: { Status: string; Log?: Array<{ ExitCode: number; Output: string }> };
}

export async function containerState(id: string): Promise<ContainerState> {
  return JSON.parse(await docker("inspect", "--format", "{{json .State}}", id)) as ContainerState;
}

/**
 * Polls the image's HEALTHCHECK, as Docker runs it, until it reports healthy; fails if the container stops or at the
 * deadline.
 */
export async function waitForDockerHealthy(id: string, deadlineMs = HANG_MS): Promise<void> {
  const deadline = Date.now() + deadlineMs;
  for (;;) {
    const state = await containerState(id);
    if (state.Health?.Status === "healthy") return;
    if (!state.Running || Date.now() > deadline) {
      const logs = await run("docker", ["logs", id]);
      throw new Error(
        `container ${id.slice(0, 12)} did not turn healthy (${JSON.stringify(state)}); it ` +
          `said:\n${logs.stdout}${logs.stderr}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/**
 * Waits until the mock in a container answers /healthz with 200 over its published port, as the image's HEALTHCHECK
 * asks it (2 s a try), without Docker's probe: for a container started with `--no-healthcheck`, or one whose probe
 * keeps the image's own interval. Fails if the container stops first (`docker wait`, one process, rather than an
 * inspect a try) or at the deadline, with what it said.
 */
export async function waitForHealthz(id: string, url: string, deadlineMs = HANG_MS): Promise<void> {
  const waiter = spawn("docker", ["wait", id], { stdio: "ignore" });
  let stopped = false;
  waiter.on("close", () => (stopped = true));
  const deadline = Date.now() + deadlineMs;
  try {
    for (;;) {
      const status = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(2000) }).then(
        async (response) => {
          await response.arrayBuffer();
          return response.status;
        },
        () => 0,
      );
      if (status === 200) return;
      if (stopped || Date.now() > deadline) {
        const logs = await run("docker", ["logs", id]);
        throw new Error(
          `container ${id.slice(0, 12)} did not answer /healthz with 200 (${stopped ? "it stopped" : "deadline"}, ` +
            `last ${status || "no answer"}); it said:\n${logs.stdout}${logs.stderr}`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } finally {
    if (!stopped) waiter.kill();
  }
}

/** The host address Docker published the container's port 4010 on (`-p 127.0.0.1::4010`). */
export async function publishedUrl(id: string, port = 4010): Promise<string> {
  const mapping = (await docker("port", id, `${port}/tcp`)).split("\n").find((line) => line.startsWith("127.0.0.1:"));
  if (!mapping) throw new Error(`container ${id.slice(0, 12)} publishes no port ${port} on 127.0.0.1`);
  return `http://${mapping}`;
}
