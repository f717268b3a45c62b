/**
 * The host's network, shared by the test files that need it steady and those that change it, which never run at
 * the same time.
 *
 * Chromium watches the host's network addresses and, when one changes, fails every request it has in flight or
 * connecting, loopback included, with net::ERR_NETWORK_CHANGED. A Docker engine changes them with each container it
 * starts or removes and each step of a build it runs: the veth it adds to its bridge gets an IPv6 link-local address,
 * and loses it again. Beside the container tests, a page lost a module of its set-up, the stories' page never
 * connected, or a story waited a minute for text that never came.
 *
 * So a file that drives Chromium holds the network `steady`, and one that drives a Docker engine holds it
 * `changing`, each for the whole file (test/support/host-network-setup.ts): any number of holders of one use at once,
 * never both uses. The holds are files in a folder of the run's own (test/support/host-network-room.ts). The suite
 * starts the steady files first (test/support/slow-first-sequencer.ts), so that a changing file seldom waits long.
 */
import { readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as delay } from "node:timers/promises";

export type HostNetworkUse = "steady" | "changing";

/** The files that drive Chromium: a file, or every file of a folder ending in `/`. */
export const STEADY_FILES = ["test/browser/", "test/e2e/storybook-example.test.ts", "test/e2e/vite-builds.test.ts"];

/** The files that drive a Docker engine: they start containers or builds, or may (the bench's container section). */
export const CHANGING_FILES = [
  "test/docker/container.test.ts",
  "test/docker/docker-files.test.ts",
  "test/docker/testcontainers.test.ts",
  "test/bench/bench.test.ts",
];

/** What a test file imports when it drives Chromium, and when it may drive a Docker engine. */
export const DRIVES_CHROMIUM = /from "(?:\.\.\/)+support\/(?:chromium|msw-page)\.ts"|from "playwright(?:-core)?"/;
export const DRIVES_DOCKER = /from "(?:\.\.\/)+support\/docker\.ts"|from "testcontainers"/;

/** How the test file at `path` (from the package's root) uses the host's network, if it matters. */
export function hostNetworkUse(path: string): HostNetworkUse | undefined {
  const listed = (paths: string[]) =>
    paths.some((entry) => (entry.endsWith("/") ? path.startsWith(entry) : path === entry));
  if (listed(STEADY_FILES)) return "steady";
  if (listed(CHANGING_FILES)) return "changing";
  return undefined;
}

/** Whether the process of a hold's pid is still there: a worker that died leaves its hold behind. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

let holds = 0;

/** Long enough for the other use's files to end: the Storybook file's first install takes minutes. */
const WAIT_MS = 20 * 60_000;

/**
 * Holds the host's network for `use` in `room`, once no process holds it for the other use; resolves to what lets
 * it go, and rejects after `waitMs`. A hold is claimed first and checked after, so that of two processes claiming
 * both uses at once at least one sees the other: that one withdraws and tries again a moment later.
 */
export async function holdHostNetwork(room: string, use: HostNetworkUse, waitMs = WAIT_MS): Promise<() => void> {
  const other: HostNetworkUse = use === "steady" ? "changing" : "steady";
  holds += 1;
  const mine = join(room, `${use}-${process.pid}-${holds}`);
  const deadline = Date.now() + waitMs;
  for (;;) {
    writeFileSync(mine, "");
    const blocking = readdirSync(room).filter((name) => {
      const [kind, pid] = name.split("-");
      return kind === other && alive(Number(pid));
    });
    if (blocking.length === 0) return () => rmSync(mine, { force: true });
    rmSync(mine, { force: true });
    if (Date.now() >= deadline)
      throw new Error(
        `the host's network was still held ${other} after ${waitMs / 60_000} min: ${blocking.join(", ")}`,
      );
    // Waits for the other use's holders to let go; the jitter keeps two claimants from meeting again in step.
    await delay(50 + Math.floor(Math.random() * 100));
  }
}
