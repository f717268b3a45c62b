/**
 * What can be checked of the Dockerfile, .dockerignore and docker-compose.yml without a Docker engine: their
 * commands run on the host as written, the paths they copy exist and reach the build context, the compose file
 * agrees with the image, and the image's file set, replayed stage by stage as the Dockerfile builds it (the build
 * stage compiles, the last stage installs the runtime dependencies and copies the built JavaScript from it), serves
 * the mock. Building and running the image itself needs an engine: test/docker/container.test.ts does it where one
 * answers, and the replay here then gives way to it.
 */
import { spawn, spawnSync } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
} from "node:fs";
import { createServer as createHttpServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { basename, join, relative } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { HANG_MS } from "../support/deadlines.ts";
import { DOCKER_AVAILABLE } from "../support/docker.ts";
import { freePort, PACKAGE_ROOT, startProcess, waitForHealthy, type StartedProcess } from "../support/start-process.ts";
import { readDockerignore } from "./dockerignore.ts";
import {
  execForm,
  only,
  readCopy,
  readDockerfile,
  readEnv,
  readHealthcheck,
  readStages,
  stageNamed,
  type DockerCopy,
  type DockerStage,
} from "./read-dockerfile.ts";

const stages = readStages(readDockerfile(readFileSync(join(PACKAGE_ROOT, "Dockerfile"), "utf8")));
/** The stage the image is made of; the earlier ones only build what it copies from them. */
const final = stages.at(-1)!;
const instructions = final.instructions;
const cmd = execForm(only(instructions, "CMD").args);
const healthcheck = readHealthcheck(only(instructions, "HEALTHCHECK").args);
const copiesOf = (stage: DockerStage): DockerCopy[] =>
  stage.instructions
    .filter((instruction) => instruction.keyword === "COPY")
    .map((instruction) => readCopy(instruction.args));
const copies = stages.flatMap(copiesOf);
/** What the build context must hold: the sources of every COPY without --from, in any stage. */
const contextCopies = copies.filter((copy) => copy.from === undefined);
const env = Object.assign(
  {},
  ...instructions
    .filter((instruction) => instruction.keyword === "ENV")
    .map((instruction) => readEnv(instruction.args)),
) as Record<string, string>;
const isExcluded = readDockerignore(readFileSync(join(PACKAGE_ROOT, ".dockerignore"), "utf8"));
const compose = parse(readFileSync(join(PACKAGE_ROOT, "docker-compose.yml"), "utf8")) as Compose;

interface ComposeService {
  build?: unknown;
  image?: string;
  environment?: Record<string, string>;
  ports?: string[];
  healthcheck?: { test: string[] };
  depends_on?: Record<string, { condition: string }>;
  command?: string[];
}
interface Compose {
  services: Record<string, ComposeService>;
}

const MOCK_SERVICE = "property-listing-mock";
/** RUN steps of the Dockerfile that change the image outside /app: skipped by the replay of its stages. */
const OUTSIDE_THE_APP = [/^npm cache clean\b/, /^mkdir -p \/data$/, /^chown [a-z]+:[a-z]+ \/data$/];
/**
 * Compose as a plugin (`docker compose`) or standalone (`docker-compose`, Debian's package), whichever answers
 * `version` here: its `config` needs no engine, it only reads and checks the file.
 */
const compose_ = [["docker", "compose"], ["docker-compose"]].find(
  ([command, ...args]) => spawnSync(command!, [...args, "version"], { stdio: "ignore", timeout: 10_000 }).status === 0,
);

const started: StartedProcess[] = [];
const servers: Server[] = [];
const temporary: string[] = [];
afterEach(async () => {
  for (const process of started.splice(0)) {
    process.signal("SIGKILL");
    await process.exited;
  }
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    server.close();
  }
});
afterAll(() => {
  for (const dir of temporary.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("Dockerfile", () => {
  it("runs node as PID 1 with no npm or shell in between, as the unprivileged node user, on port 4010", () => {
    expect(cmd[0]).toBe("node");
    expect(cmd).not.toContain("npm");
    expect(only(instructions, "USER").args).toBe("node");
    expect(env).toMatchObject({ HOST: "0.0.0.0", PORT: "4010" });
    expect(only(instructions, "EXPOSE").args).toBe(env.PORT);
    // Every stage on the same Node, so that what the build stage compiled runs on the Node it was built with.
    for (const stage of stages) expect(stage.image, `stage ${stage.name ?? stage.index}`).toBe(final.image);
    expect(final.image).toMatch(/^node:20\.\d+\.\d+-[a-z]+-slim(@sha256:[0-9a-f]{64})?$/);
  });

  it("runs the built JavaScript, copied from a build stage, with no TypeScript loader", () => {
    expect(stages.length).toBeGreaterThanOrEqual(2);
    expect(cmd.slice(1).find((arg) => !arg.startsWith("-"))).toMatch(/^dist\/.+\.js$/);
    expect(cmd.join(" ")).not.toMatch(/tsx|--import|--loader|\.ts\b/);
    const fromBuild = copiesOf(final).filter((copy) => copy.from !== undefined);
    expect(fromBuild.map(({ sources, destination }) => ({ sources, destination }))).toEqual([
      { sources: ["/app/dist"], destination: "./dist" },
    ]);
    const fromContext = copiesOf(final)
      .filter((copy) => copy.from === undefined)
      .flatMap((copy) => copy.sources);
    expect(
      fromContext.filter((source) => source === "src" || source.startsWith("src/") || source.startsWith("tsconfig")),
      "no sources in the image",
    ).toEqual([]);
  });

  it("its CMD, run on the host as written, serves /healthz and exits 0 soon after SIGTERM", async () => {
    const port = await freePort();
    const mock = startCmd(PACKAGE_ROOT, port);
    await waitForHealthy(`http://127.0.0.1:${port}/healthz`);
    expect(mock.output()).toContain(`listening on http://127.0.0.1:${port}`);

    mock.child.kill("SIGTERM"); // what `docker stop` does: SIGTERM to PID 1 only, SIGKILL after 10 s
    // Exit code 0 is a clean stop: past its own 5 s deadline the mock exits 1 instead. The deadline here only
    // keeps a hung process from hanging the suite; how long the stop took depends on the machine's load.
    expect(await withDeadline(mock.exited, 60_000)).toBe(0);
    expect(mock.output()).toContain("SIGTERM: stopping");
  });

  it("installs in its last stage package.json's runtime dependencies alone, from the lock file, once", () => {
    const fromContext = copiesOf(final)
      .filter((copy) => copy.from === undefined)
      .flatMap((copy) => copy.sources);
    expect(fromContext).toEqual(expect.arrayContaining(["package.json", "package-lock.json"]));
    const steps = final.instructions
      .filter((instruction) => instruction.keyword === "RUN")
      .flatMap((instruction) => instruction.args.split("&&").map((part) => part.trim()));
    const installs = steps.filter((step) => /^npm (ci|install|i|add)\b/.test(step));
    expect(installs).toHaveLength(1);
    expect(installs[0]).toMatch(/^npm ci\b/); // the lock file's versions, nothing resolved anew
    expect(installs[0]).toMatch(/ --omit=dev\b/);
  });

  it("is what the example of options after the command repeats (docs/docker.md, In an integration suite)", () => {
    const readme = readFileSync(join(PACKAGE_ROOT, "docs", "docker.md"), "utf8");
    const examples = [...readme.matchAll(/`command: (\[[^\]`]*\])`/g)].map(
      (match) => JSON.parse(match[1]!) as string[],
    );
    expect(examples.length).toBeGreaterThan(0);
    for (const example of examples) expect(example.slice(0, cmd.length)).toEqual(cmd);
  });

  it("its HEALTHCHECK exits 0 while the mock answers, else non-zero: nothing listens, or no 200", async () => {
    const port = await freePort();
    startCmd(PACKAGE_ROOT, port);
    await waitForHealthy(`http://127.0.0.1:${port}/healthz`);
    expect((await runHealthcheck(port)).status).toBe(0);

    expect((await runHealthcheck(await freePort())).status).not.toBe(0);
    const failing = await listen((_request, response) => response.writeHead(503).end());
    expect((await runHealthcheck(failing)).status).not.toBe(0);
  });

  it("its HEALTHCHECK gives up by itself before Docker's --timeout when the mock does not answer", async () => {
    const silent = await listen(() => undefined); // accepts and never answers
    // Its own timeout is shorter than the one Docker gives it...
    const timeoutMs = seconds(healthcheck.flags.timeout ?? "30s");
    const own = /AbortSignal\.timeout\((\d+)\)/.exec(healthcheck.command.join(" "));
    expect(own, "the command sets a timeout of its own").not.toBeNull();
    expect(Number(own![1])).toBeLessThan(timeoutMs);
    // ...and it ends by itself, failing, when nothing answers (the deadline here is only a guard against a hang;
    // how long node takes to start depends on the machine's load)
    const result = await runHealthcheck(silent, timeoutMs + 60_000);
    expect(result.status).not.toBe(0);
    expect(result.signal, "ended by itself, not by the deadline").toBeNull();
  });
});

describe(".dockerignore", () => {
  it("lets in every path the Dockerfile copies, and each of those exists", () => {
    const sources = contextCopies.flatMap((copy) => copy.sources);
    expect(sources).toEqual(expect.arrayContaining(["package.json", "package-lock.json", "src", "spec", "fixtures"]));
    for (const source of sources) {
      expect(existsSync(join(PACKAGE_ROOT, source)), `${source} exists`).toBe(true);
      expect(isExcluded(source), `${source} is let in`).toBe(false);
      expect(contextFiles(source).length, `files of ${source} in the build context`).toBeGreaterThan(0);
    }
    expect(contextFiles("fixtures")).toContain("fixtures/db.json");
    expect(contextFiles("spec")).toContain("spec/openapi.yaml");
    expect(contextFiles("src")).toContain("src/cli/mock.ts");
  });

  it("keeps out node_modules, .git, scratch, test outputs and local files", () => {
    for (const path of [
      "node_modules",
      "node_modules/tsx/package.json",
      ".git",
      ".git/HEAD",
      "scratch/smoke.ts",
      "coverage/index.html",
      "test/e2e/npm-start.test.ts",
      "src/mock/create-app.test.ts",
      "src/node_modules/x.js",
      ".env",
      "db.json",
    ]) {
      expect(isExcluded(path), path).toBe(true);
    }
  });
});

describe("docker-compose.yml", () => {
  const mock = compose.services[MOCK_SERVICE]!;
  const tests = compose.services.tests!;

  it("builds the mock, publishes its port on the host's loopback only, and gives it the address others use", () => {
    expect(mock.build).toBe(".");
    expect(mock.ports).toEqual([`127.0.0.1:${env.PORT}:${env.PORT}`]);
    expect(mock.environment?.BASE_URL).toBe(`http://${MOCK_SERVICE}:${env.PORT}`);
  });

  it("checks the mock's health with the Dockerfile's own command", () => {
    expect(mock.healthcheck?.test).toEqual(["CMD", ...healthcheck.command]);
  });

  it("starts the tests only once the mock is healthy, pointed at the mock's service name", () => {
    expect(tests.depends_on?.[MOCK_SERVICE]?.condition).toBe("service_healthy");
    expect(JSON.stringify(tests.environment)).toContain(`http://${MOCK_SERVICE}:${env.PORT}`);
  });

  it("has no $ that compose would take for a variable", () => {
    expect(readFileSync(join(PACKAGE_ROOT, "docker-compose.yml"), "utf8").replace(/^\s*#.*$/gm, "")).not.toContain("$");
  });

  it("its example tests command passes against the mock, run on the host", async () => {
    const port = await freePort();
    startCmd(PACKAGE_ROOT, port);
    await waitForHealthy(`http://127.0.0.1:${port}/healthz`);
    const [command, ...args] = tests.command!;
    const result = await run(command!, args, { PROPERTY_LISTING_URL: `http://127.0.0.1:${port}` }, HANG_MS);
    expect(result.status, result.output).toBe(0);
    expect(result.output).toMatch(/properties\/1: 200 \d+ properties/);
  });

  it("is accepted by `docker compose config` (needs `docker compose` or `docker-compose`; no engine)", ({ skip }) => {
    skip(!compose_, "neither `docker compose version` nor `docker-compose version` works on this machine");
    const [command, ...args] = compose_!;
    const result = spawnSync(command!, [...args, "-f", "docker-compose.yml", "config", "--quiet"], {
      cwd: PACKAGE_ROOT,
      encoding: "utf8",
      timeout: HANG_MS,
    });
    expect(result.status, result.stderr).toBe(0);
  });
});

describe("the image's file set", () => {
  it("replayed stage by stage, each in a folder of its own, serves the mock from the built JavaScript", async ({
    skip,
  }) => {
    skip(
      DOCKER_AVAILABLE,
      "a Docker engine answers: test/docker/container.test.ts builds the image itself and checks its files",
    );
    const root = mkdtempSync(join(tmpdir(), "plk-image-"));
    temporary.push(root);
    // Each stage's file system is a folder of its own, so a COPY --from reads only what that stage made.
    const fileSystems = new Map<DockerStage, string>();
    const appOf = (stage: DockerStage) =>
      join(fileSystems.get(stage)!, only(stage.instructions, "WORKDIR").args.replace(/^\//, ""));
    for (const stage of stages) {
      fileSystems.set(stage, join(root, `stage-${stage.index}`));
      const app = appOf(stage);
      mkdirSync(app, { recursive: true });
      // Each COPY and RUN in order, as far as they concern the application folder.
      for (const instruction of stage.instructions) {
        if (instruction.keyword === "COPY") {
          const copy = readCopy(instruction.args);
          const from = copy.from === undefined ? undefined : stageNamed(stages, copy.from);
          copyInto(fileSystems.get(stage)!, app, copy, from && fileSystems.get(from));
        }
        if (instruction.keyword !== "RUN") continue;
        for (const step of instruction.args.split("&&").map((part) => part.trim())) {
          // Steps that only touch the image outside the application folder; running them here would clean this
          // machine's npm cache or need root. Any other step is replayed, and a step this list does not know
          // must be one that runs in the application folder, so a new install or build step cannot be skipped.
          if (OUTSIDE_THE_APP.some((pattern) => pattern.test(step))) continue;
          if (!/^(npm|node|npx) /.test(step))
            throw new Error(
              `The replay does not know how to run "${step}" (RUN at line ${instruction.line}); teach it here.`,
            );
          if (isClonesOwnInstall(stage, step, app)) {
            symlinkSync(join(PACKAGE_ROOT, "node_modules"), join(app, "node_modules"), "dir");
            continue;
          }
          const ran = spawnSync("sh", ["-c", step], {
            cwd: app,
            env: withoutNpmVariables(),
            encoding: "utf8",
            timeout: 170_000,
          });
          expect(ran.status, `${step} (stage ${stage.name ?? stage.index}):\n${ran.stdout}${ran.stderr}`).toBe(0);
        }
      }
    }

    // The image: the runtime dependencies alone, the built JavaScript, no sources.
    const app = appOf(final);
    expect(existsSync(join(app, "node_modules", "ajv")), "runtime dependencies installed").toBe(true);
    expect(existsSync(join(app, "node_modules", "json-server")), "json-server, which serves /__db, installed").toBe(
      true,
    );
    for (const absent of ["vitest", "tsx", "esbuild", "typescript", "swagger-ui-dist", "@scarf"]) {
      expect(existsSync(join(app, "node_modules", absent)), `${absent} is not in the image`).toBe(false);
    }
    expect(existsSync(join(app, "src")), "no sources in the image").toBe(false);
    expect(existsSync(join(app, "dist", "docs-assets", "swagger-ui-bundle.js")), "the docs page's files, built").toBe(
      true,
    );
    expect(
      existsSync(join(app, "dist", "console-assets", "console.js")),
      "the console's files, copied by the build",
    ).toBe(true);

    const port = await freePort();
    const mock = startCmd(app, port);
    await waitForHealthy(`http://127.0.0.1:${port}/healthz`).catch((error: Error) => {
      throw new Error(`${error.message}; the mock said:\n${mock.output()}`);
    });
    const properties = await fetch(`http://127.0.0.1:${port}/api/v1/object/properties/1`, {
      headers: { "API-KEY": "demo-key", TOKEN: "demo-token", "content-type": "application/json" },
    });
    expect(properties.status).toBe(200);
    expect((await fetch(`http://127.0.0.1:${port}/docs/swagger-ui-bundle.js`)).status).toBe(200);
    expect((await fetch(`http://127.0.0.1:${port}/__db/properties?_limit=1`)).status).toBe(200);
    mock.child.kill("SIGTERM");
    expect(await withDeadline(mock.exited, 60_000)).toBe(0);
  }, 240_000);
});

/**
 * Whether a RUN step of an earlier stage is the full `npm ci` (dev dependencies included) of a lock file equal to
 * this clone's: what made the clone's own node_modules. The replay links that folder instead of spending a minute
 * reinstalling some 400 packages on a shared machine. Only the build stages: the last stage's install, which is
 * what the image ships, always runs as written.
 */
function isClonesOwnInstall(stage: DockerStage, step: string, app: string): boolean {
  if (stage === final || !/^npm ci( --ignore-scripts)?$/.test(step)) return false;
  const lock = join(app, "package-lock.json");
  return existsSync(lock) && readFileSync(lock).equals(readFileSync(join(PACKAGE_ROOT, "package-lock.json")));
}

/** The Dockerfile's CMD in `dir`, with the address a test chooses; `exec` keeps node the process we signal. */
function startCmd(dir: string, port: number): StartedProcess {
  const process = startProcess("sh", ["-c", 'cd "$1" && shift && exec "$@"', "sh", dir, ...cmd], {
    HOST: "127.0.0.1",
    PORT: String(port),
  });
  started.push(process);
  return process;
}

/** The HEALTHCHECK command as Docker runs it inside the container, where PORT is the image's. */
function runHealthcheck(port: number, deadlineMs = 15_000) {
  const [command, ...args] = healthcheck.command;
  return run(command!, args, { PORT: String(port) }, deadlineMs);
}

/**
 * Runs a command to its end without blocking this process, which may be serving its other end; SIGKILL at the deadline.
 */
function run(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  deadlineMs: number,
): Promise<{ status: number | null; signal: string | null; output: string }> {
  const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout.on("data", (chunk) => (output += chunk));
  child.stderr.on("data", (chunk) => (output += chunk));
  const timer = setTimeout(() => child.kill("SIGKILL"), deadlineMs);
  return new Promise((resolve) =>
    child.on("close", (status, signal) => {
      clearTimeout(timer);
      resolve({ status, signal, output });
    }),
  );
}

/** The files under a COPY source that the build context holds, as paths from the repository root. */
function contextFiles(source: string): string[] {
  const path = join(PACKAGE_ROOT, source);
  if (isExcluded(source)) return [];
  if (!statSync(path).isDirectory()) return [source];
  return readdirSync(path, { recursive: true, encoding: "utf8" })
    .map((entry) => join(source, entry))
    .filter((entry) => statSync(join(PACKAGE_ROOT, entry)).isFile() && !isExcluded(entry));
}

/**
 * One COPY into a stage whose file system is `fileSystem` and whose WORKDIR is `app`: from the build context (the
 * repository less .dockerignore), or, given `fromFileSystem`, from an earlier stage's files at the absolute paths
 * named. As Docker does: a folder's contents go into the destination, a file into the destination folder when it
 * ends with `/` or several sources are given, else to the destination's name.
 */
function copyInto(fileSystem: string, app: string, copy: DockerCopy, fromFileSystem?: string): void {
  const intoFolder = copy.destination.endsWith("/") || copy.sources.length > 1;
  const destination = copy.destination.startsWith("/")
    ? join(fileSystem, copy.destination)
    : join(app, copy.destination);
  for (const source of copy.sources) {
    if (fromFileSystem !== undefined) {
      const path = join(fromFileSystem, source);
      expect(existsSync(path), `COPY --from=${copy.from} ${source}: the stage made it`).toBe(true);
      const target = statSync(path).isDirectory() || !intoFolder ? destination : join(destination, basename(source));
      cpSync(path, target, { recursive: true });
      continue;
    }
    const isFolder = statSync(join(PACKAGE_ROOT, source)).isDirectory();
    const target = isFolder || !intoFolder ? destination : join(destination, basename(source));
    for (const file of contextFiles(source)) {
      const to = file === source ? target : join(target, relative(source, file));
      mkdirSync(join(to, ".."), { recursive: true });
      cpSync(join(PACKAGE_ROOT, file), to);
    }
  }
}

/** npm, when it runs this suite, exports its settings (the package's own folder among them) to children. */
function withoutNpmVariables(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.toLowerCase().startsWith("npm_")));
}

async function withDeadline<T>(promise: Promise<T>, ms: number): Promise<T | "deadline passed"> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<"deadline passed">(
    (resolve) => (timer = setTimeout(() => resolve("deadline passed"), ms)),
  );
  try {
    return await Promise.race([promise, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

function seconds(duration: string): number {
  const match = /^(\d+)(ms|s|m)$/.exec(duration);
  if (!match) throw new Error(`Cannot read the duration ${duration}`);
  return Number(match[1]) * { ms: 1, s: 1_000, m: 60_000 }[match[2] as "ms" | "s" | "m"];
}

async function listen(handler: Parameters<typeof createHttpServer>[1] & {}): Promise<number> {
  const server = createHttpServer(handler).listen(0, "127.0.0.1");
  servers.push(server);
  await new Promise((resolve) => server.once("listening", resolve));
  return (server.address() as { port: number }).port;
}
