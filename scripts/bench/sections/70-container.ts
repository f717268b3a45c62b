/**
 * 7. The mock as a container (issue 31, issue 32 item 4): the image built from the Dockerfile, its size, and the
 * bench's GET load served under Docker memory limits, 256 MiB on the default fixtures and 512 MiB on
 * `--properties` properties, without the kernel's OOM killer ending the mock. Runs only where a Docker engine answers
 * (`docker info`); elsewhere it says so and sets no goal. The image is `PLK_DOCKER_IMAGE` when given (CI builds it
 * once per run), else the Dockerfile built here (on the official base image, or the stand-in
 * scripts/docker/stand-in-base.sh makes where no registry is reachable).
 */
import { execFileSync, spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { DEFAULT_FIXTURES_PATH } from "../../../src/hosts/node/state/load-fixtures.ts";
import type { Database } from "../../../src/mock/store/records.ts";
import { bytes, count, seconds, table } from "../format.ts";
import { ScenarioPlan, type Scenario } from "../scenarios.ts";
import type { BenchContext, BenchSection, Goal } from "../section.ts";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const MiB = 1024 * 1024;

/** One container under a memory limit, as the load left it. */
export interface LimitedRun {
  fixtures: string;
  /** NODE_OPTIONS given to the container, if any. */
  nodeOptions?: string;
  properties: number;
  limitBytes: number;
  /** Requests sent and those not answered with their expected status (a killed mock answers none). */
  requests: number;
  failures: number;
  oomKilled: boolean;
  running: boolean;
  /** When it is not running: its exit code, and whether it said V8's heap was full ("heap out of memory"). */
  exitCode: number | null;
  heapOutOfMemory: boolean;
  /** The mock's own peak resident memory (VmHWM of PID 1), and the cgroup's peak, page cache included. */
  peakRssBytes: number | null;
  cgroupPeakBytes: number | null;
}

export interface ContainerFigures {
  /** Why the section did not run, when it did not. */
  skipped?: string;
  image?: string;
  imageBytes?: number;
  baseImage?: string;
  baseImageBytes?: number;
  /** The base is a stand-in made by scripts/docker/stand-in-base.sh, not the official image. */
  baseIsStandIn?: boolean;
  buildMs?: number;
  limited?: LimitedRun[];
}

function docker(...args: string[]): string {
  return execFileSync("docker", args, {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
    maxBuffer: 64 * MiB,
  }).trim();
}

export const section: BenchSection<ContainerFigures> = {
  key: "container",
  async run(context) {
    if (spawnSync("docker", ["info"], { stdio: "ignore", timeout: 30_000 }).status !== 0) {
      const skipped = "no Docker engine answers `docker info`";
      return { figures: { skipped }, lines: ["7. The mock as a container", "", `  Not measured: ${skipped}.`] };
    }
    const { progress, settings } = context;
    const failures: string[] = [];
    const started = Date.now();
    let image = process.env.PLK_DOCKER_IMAGE ?? "";
    if (image === "") {
      progress("container: building the Dockerfile…");
      image = "property-listing-kit:bench";
      const built = spawnSync("docker", ["build", "-q", "-t", image, ROOT], {
        encoding: "utf8",
        env: { ...process.env, DOCKER_BUILDKIT: "0" },
        maxBuffer: 64 * MiB,
      });
      if (built.status !== 0) {
        failures.push(
          `container: docker build failed (where no registry is reachable, run ` +
            `scripts/docker/stand-in-base.sh first): ${built.stderr.trim().split("\n").at(-1)}`,
        );
        return {
          figures: { skipped: "docker build failed" },
          lines: ["7. The mock as a container", "", "  Not measured: docker build failed."],
          failures,
        };
      }
    }
    const buildMs = Date.now() - started;
    const imageBytes = Number(docker("image", "inspect", "--format", "{{.Size}}", image));
    const baseImage = /^FROM\s+(\S+)/im.exec(readFileSync(`${ROOT}/Dockerfile`, "utf8"))?.[1] ?? "";
    const baseImageBytes = Number(docker("image", "inspect", "--format", "{{.Size}}", baseImage));
    const baseIsStandIn =
      docker(
        "image",
        "inspect",
        "--format",
        '{{ index .Config.Labels "org.property-listing-kit.stand-in" }}',
        baseImage,
      ).replace("<no value>", "") !== "";

    const smallFixtures = JSON.parse(readFileSync(DEFAULT_FIXTURES_PATH, "utf8")) as Database;
    const large = `${count(settings.properties)} properties`;
    const limited = [
      await underLimit(context, image, 256, "the default fixtures", smallFixtures, undefined, failures),
      await underLimit(context, image, 512, large, context.largeFixtures(), context.largeFixturesFile(), failures),
    ];
    // Node sizes V8's heap to about half a container's memory limit; a heap of three quarters of the limit, given
    // by hand, shows whether the rest of the limit would do (not a goal: the goals are the image as it is run).
    const heapMiB = (512 * 3) / 4;
    const informative = await underLimit(
      context,
      image,
      512,
      large,
      context.largeFixtures(),
      context.largeFixturesFile(),
      [],
      `--max-old-space-size=${heapMiB}`,
    );
    const figures: ContainerFigures = {
      image,
      imageBytes,
      baseImage,
      baseImageBytes,
      baseIsStandIn,
      buildMs,
      limited: [...limited, informative],
    };
    const goals: Goal[] = limited.map((run, index) => ({
      id: `32.4${"ab"[index]}`,
      name:
        `the bench's GET load (${count(run.requests)} requests) in a container with --memory ` +
        `${run.limitBytes / MiB}m on ${run.fixtures}, answered, the mock not killed`,
      measured: outcome(run),
      target: `≤ ${run.limitBytes / MiB} MiB, 0 failed`,
      pass: served(run),
    }));
    const mibOf = (value: number | null) => (value === null ? "not readable" : bytes(value));
    const lines = [
      "7. The mock as a container (the Dockerfile, built by this machine's Docker engine)",
      "",
      ...table(
        ["figure", "value"],
        [
          [`image ${image}`, bytes(imageBytes)],
          [
            `  its base, ${baseImage}${baseIsStandIn ? " (a stand-in: scripts/docker/stand-in-base.sh)" : ""}`,
            bytes(baseImageBytes),
          ],
          ["  the kit's own layers", bytes(imageBytes - baseImageBytes)],
          [
            process.env.PLK_DOCKER_IMAGE
              ? "build (done before the bench: PLK_DOCKER_IMAGE)"
              : "docker build (the engine's layer cache helps a rebuild)",
            process.env.PLK_DOCKER_IMAGE ? "-" : seconds(buildMs),
          ],
        ],
        "lr",
      ),
      "",
      "The bench's GET scenarios (warm-up, retrieve by nid, by external id, the template catalogue) sent to " +
        "the container:",
      "",
      ...table(
        [
          "--memory",
          "fixtures",
          "NODE_OPTIONS",
          "requests",
          "failed",
          "the mock",
          "peak RSS (mock)",
          "peak (cgroup, with page cache)",
        ],
        figures.limited!.map((run) => [
          `${run.limitBytes / MiB}m`,
          run.fixtures,
          run.nodeOptions ?? "",
          count(run.requests),
          count(run.failures),
          outcome(run),
          mibOf(run.peakRssBytes),
          mibOf(run.cgroupPeakBytes),
        ]),
        "lllrrlrr",
      ),
      "",
      `The last row is not a goal: the image as it is run takes Node's default heap, about half the ` +
        `container's limit; a heap of ${heapMiB} MiB given through NODE_OPTIONS shows what the rest of the ` +
        `limit allows.`,
    ];
    return { figures, lines, goals, failures };
  },
};

/**
 * Starts the image with `--memory <limitMiB>m` (no swap) on `fixtures`, sends the GET scenarios, reads what is left.
 */
async function underLimit(
  context: BenchContext,
  image: string,
  limitMiB: number,
  label: string,
  fixtures: Database,
  fixturesFile: string | undefined,
  failures: string[],
  nodeOptions?: string,
): Promise<LimitedRun> {
  const { load, progress, settings } = context;
  progress(`container: --memory ${limitMiB}m on ${label}${nodeOptions ? ` with NODE_OPTIONS=${nodeOptions}` : ""}…`);
  const environment = nodeOptions === undefined ? [] : ["-e", `NODE_OPTIONS=${nodeOptions}`];
  const mount = fixturesFile === undefined ? [] : ["-v", `${fixturesFile}:/fixtures/db.json:ro`];
  const command = [
    "node",
    "dist/cli/mock.js",
    "--quiet",
    ...(fixturesFile === undefined ? [] : ["--fixtures", "/fixtures/db.json"]),
  ];
  const id = docker(
    "run",
    "-d",
    "-p",
    "127.0.0.1::4010",
    "--memory",
    `${limitMiB}m`,
    "--memory-swap",
    `${limitMiB}m`,
    ...environment,
    ...mount,
    image,
    ...command,
  );
  try {
    const url = `http://${docker("port", id, "4010/tcp")
      .split("\n")
      .find((line) => line.startsWith("127.0.0.1:"))}`;
    const plan = new ScenarioPlan(fixtures, settings);
    const scenarios: Scenario[] = [
      plan.warmUp(),
      plan.retrieveByNid(),
      plan.retrieveByExternalId(),
      plan.templateCatalogue(),
    ];
    let requests = 0;
    let failed = 0;
    // A mock that ends before it answers is the figure measured here (the goal says how it ended), not a fault
    // of the bench.
    const up = await healthy(id, url).then(
      () => true,
      () => false,
    );
    for (const scenario of up ? scenarios : []) {
      const run = await load
        .run(url, scenario)
        .catch((error: Error) => ({ failures: scenario.jobs.length, failureSamples: [error.message] }));
      requests += scenario.jobs.length;
      failed += run.failures;
      failures.push(...run.failureSamples.slice(0, 3).map((sample) => `container --memory ${limitMiB}m: ${sample}`));
    }
    const state = JSON.parse(docker("inspect", "--format", "{{json .State}}", id)) as {
      Running: boolean;
      OOMKilled: boolean;
      ExitCode: number;
    };
    // Only a mock that ended can have said its heap was full; a running one is not asked for its log.
    const logs = state.Running
      ? { stdout: "", stderr: "" }
      : spawnSync("docker", ["logs", "--tail", "200", id], { encoding: "utf8", maxBuffer: 64 * MiB });
    // The mock's peak and the cgroup's (v1, else v2: memory.peak, Linux 5.19 and later) in one `docker exec`, each
    // of which costs the engine a process in the container: the status, then the first peak file there is.
    const read = spawnSync(
      "docker",
      [
        "exec",
        id,
        "sh",
        "-c",
        "cat /proc/1/status; echo; cat /sys/fs/cgroup/memory/memory.max_usage_in_bytes 2>/dev/null || " +
          "cat /sys/fs/cgroup/memory.peak 2>/dev/null",
      ],
      { encoding: "utf8" },
    );
    const hwm = /^VmHWM:\s+(\d+) kB/m.exec(read.stdout ?? "")?.[1];
    const peak = /\n\n(\d+)\s*$/.exec(read.stdout ?? "")?.[1];
    return {
      fixtures: label,
      ...(nodeOptions === undefined ? {} : { nodeOptions }),
      properties: fixtures.properties.length,
      limitBytes: limitMiB * MiB,
      requests: up ? requests : scenarios.reduce((sum, scenario) => sum + scenario.jobs.length, 0),
      failures: up ? failed : scenarios.reduce((sum, scenario) => sum + scenario.jobs.length, 0),
      oomKilled: state.OOMKilled,
      running: state.Running,
      exitCode: state.Running ? null : state.ExitCode,
      heapOutOfMemory: /heap out of memory/.test(`${logs.stdout}${logs.stderr}`),
      peakRssBytes: hwm === undefined ? null : Number(hwm) * 1024,
      cgroupPeakBytes: peak === undefined || peak === "" ? null : Number(peak),
    };
  } finally {
    spawnSync("docker", ["rm", "-f", id], { stdio: "ignore" });
  }
}

/** Polls /healthz until it answers 200; fails if the container stops first or after two minutes. */
async function healthy(id: string, url: string): Promise<void> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    try {
      // With a timeout: until the mock listens, Docker's port proxy accepts the connection and closes it, and
      // fetch (Node 20's undici) then waits on it rather than failing.
      if ((await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(2_000) })).status === 200) return;
    } catch {
      // not listening yet
    }
    const state = JSON.parse(docker("inspect", "--format", "{{json .State}}", id)) as {
      Running: boolean;
      OOMKilled: boolean;
    };
    if (!state.Running || Date.now() > deadline)
      throw new Error(
        `container ${id.slice(0, 12)} did not answer /healthz (${JSON.stringify(state)}): ` +
          `${docker("logs", "--tail", "20", id)}`,
      );
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function served(run: LimitedRun): boolean {
  return !run.oomKilled && run.running && run.failures === 0;
}

/** What became of the mock: served, or how it ended. */
function outcome(run: LimitedRun): string {
  if (served(run)) return `served, peak ${run.peakRssBytes === null ? "not readable" : bytes(run.peakRssBytes)}`;
  if (run.oomKilled) return "OOM-killed";
  if (!run.running) return `exited ${run.exitCode}${run.heapOutOfMemory ? " (V8: heap out of memory)" : ""}`;
  return `${count(run.failures)} failed`;
}
