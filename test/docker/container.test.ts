/**
 * The image itself, built from the Dockerfile unchanged and run by a Docker engine, as an integration suite runs
 * it: healthy, serving the API with the demo account as an unprivileged user; stopped cleanly by `docker stop`;
 * every acknowledged create on a `--db` volume kept across `docker kill -s KILL` and a new container; serving from
 * a read-only root with every capability dropped; the compose example passing; serving the load of many GETs under
 * a memory limit, and at 100,000 properties under 512m from a `--db` state in either form. Runs where an engine answers
 * (test/support/docker.ts); in CI it must.
 */
import { createHash } from "node:crypto";
import { chmodSync, readFileSync, writeFileSync } from "node:fs";
import { Agent, get as httpGet } from "node:http";
import { join } from "node:path";
import { DEFAULT_SEED, generateFixtures } from "../../src/fixtures/generate-fixtures.ts";
import type { Database } from "../../src/mock/store/records.ts";
import { stateChunks } from "../../src/hosts/node/state/state-snapshot.ts";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { HANG_MS } from "../support/deadlines.ts";
import {
  containerState,
  DEMO_HEADERS,
  docker,
  DOCKER_AVAILABLE,
  kitImage,
  NO_DOCKER,
  publishedUrl,
  run,
  uniqueName,
  waitForDockerHealthy,
  waitForHealthz,
} from "../support/docker.ts";
import { PACKAGE_ROOT } from "../support/start-process.ts";
import { scratchFolder } from "../support/scratch-folder.ts";

const containers: string[] = [];
const volumes: string[] = [];
let image = "";

beforeAll(async () => {
  if (DOCKER_AVAILABLE) image = await kitImage();
}, 20 * 60_000);

// Each test's containers go when it ends: one left running would keep serving and probing its health until the end
// of the file.
afterEach(async () => {
  for (const id of containers.splice(0)) await run("docker", ["rm", "-f", "-v", id]);
  for (const volume of volumes.splice(0)) await run("docker", ["volume", "rm", "-f", volume]);
});

/**
 * How a started container's health is told:
 * - `shipped`: the image's HEALTHCHECK as it ships, and the start waits for Docker to report it healthy (the test of
 *   that check itself);
 * - `every-second`: the same check probed every second instead of every 5 s, the start waiting for Docker's report
 *   (the check must pass there too, and a start waits for the first probe after an interval);
 * - `beside`: the check as it ships, left to run beside the mock as it does for users (its Node counts within a memory
 *   limit), while the start waits on /healthz itself;
 * - `none`: no check (`--no-healthcheck`); the start waits on /healthz over the published port. Each probe is a new
 *   Node in the container and an exec through the engine, which for a test not about the check is only cost.
 */
type Health = "shipped" | "every-second" | "beside" | "none";

/**
 * `docker run -d` of the kit's image, its port published on the host's loopback; `args` go before the image,
 * `command` replaces its CMD. Resolves once the mock is healthy, as `health` tells it.
 */
async function start(
  args: string[] = [],
  command: string[] = [],
  health: Health = "none",
): Promise<{ id: string; url: string }> {
  const probe = { shipped: [], "every-second": ["--health-interval", "1s"], beside: [], none: ["--no-healthcheck"] };
  const id = await docker("run", "-d", "-p", "127.0.0.1::4010", ...probe[health], ...args, image, ...command);
  containers.push(id);
  if (health === "shipped" || health === "every-second") {
    await waitForDockerHealthy(id);
    return { id, url: await publishedUrl(id) };
  }
  const url = await publishedUrl(id);
  await waitForHealthz(id, url);
  return { id, url };
}

async function volume(): Promise<string> {
  const name = uniqueName("plk-test-data");
  await docker("volume", "create", name);
  volumes.push(name);
  return name;
}

describe("the image, run by a Docker engine", () => {
  it("turns healthy by its own HEALTHCHECK and serves the API with the demo account, as an unprivileged user", async ({
    skip,
  }) => {
    skip(!DOCKER_AVAILABLE, NO_DOCKER);
    const { id, url } = await start([], [], "shipped");
    const answer = await fetch(`${url}/api/v1/object/properties/1`, { headers: DEMO_HEADERS });
    expect(answer.status).toBe(200);
    expect(((await answer.json()) as unknown[]).length).toBeGreaterThan(0);
    const created = await fetch(`${url}/api/v1/object/property`, {
      method: "POST",
      headers: DEMO_HEADERS,
      body: JSON.stringify({ street: "1 Container St", city: "Austin", state: "TX", zip: "78701" }),
    });
    expect(created.status).toBe(200);
    const { nid } = (await created.json()) as { nid: string };
    expect((await fetch(`${url}/api/v1/object/property/${nid}`, { headers: DEMO_HEADERS })).status).toBe(200);

    // The process that serves (PID 1, node itself) runs as uid and gid 1000, the node user, not as root.
    const status = await docker("exec", id, "cat", "/proc/1/status");
    expect(/^Uid:\s+(\d+)\s+(\d+)/m.exec(status)?.slice(1, 3)).toEqual(["1000", "1000"]);
    expect(/^Gid:\s+(\d+)/m.exec(status)?.[1]).toBe("1000");
    expect(await docker("exec", id, "cat", "/proc/1/comm")).toBe("node");
  });

  it("holds package.json's runtime dependencies and the built JavaScript; no dev dependency, peer or source", async ({
    skip,
  }) => {
    skip(!DOCKER_AVAILABLE, NO_DOCKER);
    const { dependencies } = JSON.parse(readFileSync(join(PACKAGE_ROOT, "package.json"), "utf8")) as {
      dependencies: Record<string, string>;
    };
    const absent = [
      "vitest",
      "tsx",
      "esbuild",
      "typescript",
      "swagger-ui-dist",
      "@scarf/scarf",
      "testcontainers",
      "@stoplight/prism-cli",
      "@faker-js/faker",
    ];
    // The packages installed, each named by its package.json (npm leaves empty scope folders of omitted ones).
    const script =
      `ls -A /app; echo --; for p in ${[...Object.keys(dependencies), ...absent].join(" ")}; do [ -f ` +
      `node_modules/$p/package.json ] && echo $p; done; echo --; ls dist/docs-assets`;
    const [app, installed, assets] = (await docker("run", "--rm", "--entrypoint", "sh", image, "-c", script))
      .split("\n--\n")
      .map((part) => part.split("\n").filter(Boolean));
    expect(app!.sort()).toEqual(["dist", "fixtures", "node_modules", "package-lock.json", "package.json", "spec"]);
    expect(installed).toEqual(Object.keys(dependencies));
    expect(assets).toContain("swagger-ui-bundle.js");
  });

  it("stops by itself with exit code 0 on `docker stop` within 5 s (past them Docker would kill it: 137)", async ({
    skip,
  }) => {
    skip(!DOCKER_AVAILABLE, NO_DOCKER);
    const { id } = await start();
    await docker("stop", "--time", "5", id);
    const state = await containerState(id);
    expect(state.ExitCode).toBe(0);
    expect(state.OOMKilled).toBe(false);
    const logs = await run("docker", ["logs", id]);
    expect(logs.stdout + logs.stderr).toContain("SIGTERM: stopping");
  });

  it("keeps each acknowledged create on a --db volume across `docker kill -s KILL`, no temporary file left", async ({
    skip,
  }) => {
    skip(!DOCKER_AVAILABLE, NO_DOCKER);
    const data = await volume();
    const args = ["-v", `${data}:/data`];
    const command = ["node", "dist/cli/mock.js", "--quiet", "--db", "/data/db.json"];
    const headers = {
      "API-KEY": "container-crash-key",
      TOKEN: "container-crash-token",
      "content-type": "application/json",
    };
    const acknowledged = new Map<number, string>();
    const worker = async (url: string, trial: number, index: number, stop: () => boolean) => {
      for (let step = 0; !stop(); step += 1) {
        const street = `t${trial}-w${index}-${step}`;
        try {
          const response = await fetch(`${url}/api/v1/object/property`, {
            method: "POST",
            headers,
            body: JSON.stringify({ street, city: "Austin", state: "TX", zip: "78701" }),
            signal: AbortSignal.timeout(HANG_MS),
          });
          if (response.status === 200)
            acknowledged.set(Number(((await response.json()) as { nid: string }).nid), street);
        } catch {
          return; // the container was killed under this request: it was never acknowledged
        }
      }
    };
    // How long after the tenth acknowledged create of a trial the kill comes (fixed, not drawn: same run, same
    // kills).
    const delays = [0, 150, 400];
    let { id, url } = await start(args, command);
    for (const [trial, delay] of delays.entries()) {
      let stopped = false;
      const workers = Array.from({ length: 4 }, (_, index) => worker(url, trial, index, () => stopped));
      const before = acknowledged.size;
      while (acknowledged.size < before + 10) await new Promise((resolve) => setTimeout(resolve, 2));
      // Not a wait for a verdict: the moment of the kill, which the crash test varies on purpose.
      await new Promise((resolve) => setTimeout(resolve, delay));
      await docker("kill", "--signal", "KILL", id);
      stopped = true;
      await Promise.all(workers);
      expect((await containerState(id)).ExitCode, "killed, not stopped").toBe(137);

      ({ id, url } = await start(args, command));
      const [first] = acknowledged.keys();
      const { uid } = (await (await fetch(`${url}/__db/properties/${first}`)).json()) as { uid: number };
      const records = (await (await fetch(`${url}/__db/properties?uid=${uid}`)).json()) as Array<{
        id: number;
        street: string;
      }>;
      const byId = new Map(records.map((record) => [record.id, record.street]));
      expect(byId.size, "a property is in the state twice").toBe(records.length);
      expect(new Set(byId.values()).size, "a create was applied twice").toBe(records.length);
      expect(
        [...acknowledged].filter(([nid, street]) => byId.get(nid) !== street),
        "acknowledged creates lost",
      ).toEqual([]);
    }
    expect(acknowledged.size).toBeGreaterThanOrEqual(30);
    await docker("stop", "--time", "5", id);
    expect((await containerState(id)).ExitCode).toBe(0);
    // The volume as the next container finds it: the state and its journal, nothing half-written.
    const files = await docker("run", "--rm", "-v", `${data}:/data`, "--entrypoint", "ls", image, "-A", "/data");
    expect(files.split("\n").filter((name) => name !== "db.json" && name !== "db.json.journal")).toEqual([]);
  });

  it("serves from a read-only root file system with every capability dropped, its state on a volume", async ({
    skip,
  }) => {
    skip(!DOCKER_AVAILABLE, NO_DOCKER);
    const data = await volume();
    const { id, url } = await start(
      [
        "--read-only",
        "--cap-drop",
        "ALL",
        "--security-opt",
        "no-new-privileges",
        "-v",
        `${data}:/data`,
        "-e",
        "MOCK_DB=/data/db.json",
      ],
      [],
      "every-second",
    );
    const created = await fetch(`${url}/api/v1/object/property`, {
      method: "POST",
      headers: DEMO_HEADERS,
      body: JSON.stringify({ street: "2 Read Only Rd", city: "Austin", state: "TX", zip: "78701" }),
    });
    expect(created.status).toBe(200);
    const { nid } = (await created.json()) as { nid: string };
    expect((await fetch(`${url}/api/v1/object/property/${nid}`, { headers: DEMO_HEADERS })).status).toBe(200);
    expect((await fetch(`${url}/docs`)).status).toBe(200);
    // Nothing outside the volume can be written, and the container has no capability left.
    expect((await run("docker", ["exec", id, "sh", "-c", "echo x > /app/x"])).status).not.toBe(0);
    expect(/^CapEff:\s+(\w+)/m.exec(await docker("exec", id, "cat", "/proc/1/status"))?.[1]).toMatch(/^0+$/);
    await docker("stop", "--time", "5", id);
    expect((await containerState(id)).ExitCode).toBe(0);
  });

  it("serves the many GETs of a load within --memory 256m on the default fixtures, without being killed", async ({
    skip,
  }) => {
    skip(!DOCKER_AVAILABLE, NO_DOCKER);
    const { id, url } = await start(
      ["--memory", "256m", "--memory-swap", "256m"],
      ["node", "dist/cli/mock.js", "--quiet"],
      "beside",
    );
    // Records the demo account holds in the shipped fixtures, so that every GET of the load is answered in full.
    const seeded = JSON.parse(readFileSync(join(PACKAGE_ROOT, "fixtures", "db.json"), "utf8")) as Database;
    const paths = [
      "/api/v1/object/properties/1",
      "/api/v1/object/agent_cards",
      ...seeded.properties
        .filter((property) => property.uid === 1)
        .slice(0, 8)
        .map((property) => `/api/v1/object/property/${property.id}`),
    ];
    // 16 connections kept alive, 250 GETs each in turn: through node:http, whose client costs the test's own process
    // less than fetch's, for the same requests on the same connections.
    const agent = new Agent({ keepAlive: true, maxSockets: 16 });
    const get = (path: string) =>
      new Promise<number>((resolve, reject) => {
        httpGet(`${url}${path}`, { headers: DEMO_HEADERS, agent }, (response) => {
          response.on("end", () => resolve(response.statusCode ?? 0)).resume();
        }).on("error", reject);
      });
    const statuses = new Map<number, number>();
    try {
      await Promise.all(
        Array.from({ length: 16 }, async (_, connection) => {
          for (let request = 0; request < 250; request += 1) {
            const status = await get(paths[(connection + request) % paths.length]!);
            statuses.set(status, (statuses.get(status) ?? 0) + 1);
          }
        }),
      );
    } finally {
      agent.destroy();
    }
    expect([...statuses.values()].reduce((sum, count) => sum + count, 0)).toBe(16 * 250);
    expect([...statuses.keys()]).toEqual([200]);
    const state = await containerState(id);
    expect(state.OOMKilled).toBe(false);
    expect(state.Running).toBe(true);
  });
});

/** Compose as a plugin (`docker compose`) or standalone (`docker-compose`, Debian's 1.29), whichever answers. */
async function composeCommand(): Promise<string[] | undefined> {
  for (const command of [["docker", "compose"], ["docker-compose"]]) {
    if ((await run(command[0]!, [...command.slice(1), "version"]).catch(() => ({ status: 1 }))).status === 0)
      return command;
  }
  return undefined;
}

describe("the image at 100,000 properties within --memory 512m", () => {
  // One state, written in each form: as `npm run fixtures` writes db.json, and as the mock writes a JSON Lines
  // snapshot.
  let fixtures: Database | undefined;
  const large = () => (fixtures ??= generateFixtures({ seed: DEFAULT_SEED, properties: 100_000 }));

  const forms: Array<[string, string, (db: Database) => string]> = [
    ["one JSON document", "state.json", (db) => `${JSON.stringify(db, null, 2)}\n`],
    // A JSON Lines --db state is a snapshot the mock wrote (--convert-state, or a first start): with its trailer.
    [
      "JSON Lines",
      "state.jsonl",
      (db) => {
        const chunks = stateChunks(db, "lines");
        let text = "";
        for (let next = chunks.next(); ; next = chunks.next()) {
          text += next.value;
          if (next.done) return text;
        }
      },
    ],
  ];
  for (const [form, name, text] of forms)
    it(
      `starts from a --db state as ${form}, answers the list of 80,000 items and persists edits, never ` +
        `killed; the state file left as it is`,
      async ({ skip }) => {
        skip(!DOCKER_AVAILABLE, NO_DOCKER);
        const dir = scratchFolder("plk-512-");
        chmodSync(dir, 0o777); // the image's user writes the journal beside the state
        const file = join(dir, name);
        writeFileSync(file, text(large()));
        const before = createHash("sha256").update(readFileSync(file)).digest("hex");
        const { id, url } = await start(
          ["--memory", "512m", "--memory-swap", "512m", "-v", `${dir}:/data`],
          ["node", "dist/cli/mock.js", "--quiet", "--db", `/data/${name}`],
          "beside",
        );
        const nids = large()
          .properties.filter((property) => property.uid === 1)
          .map((property) => property.id);
        const statuses: number[] = [];
        for (let round = 0; round < 3; round += 1) {
          const list = await fetch(`${url}/api/v1/object/properties/1`, { headers: DEMO_HEADERS });
          statuses.push(list.status);
          if (round === 0) expect(((await list.json()) as unknown[]).length).toBe(nids.length);
          else await list.arrayBuffer();
          for (let edit = 0; edit < 7; edit += 1) {
            const nid = nids[((round * 7 + edit) * 997) % nids.length];
            const response = await fetch(`${url}/api/v1/object/property/${nid}`, {
              method: "PUT",
              headers: DEMO_HEADERS,
              body: JSON.stringify({ title: `Edited ${round}-${edit}` }),
            });
            statuses.push(response.status);
            await response.arrayBuffer();
          }
        }
        expect(statuses.filter((status) => status !== 200)).toEqual([]);
        const state = await containerState(id);
        expect(state.OOMKilled).toBe(false);
        expect(state.Running).toBe(true);
        await docker("stop", "--time", "5", id);
        expect((await containerState(id)).ExitCode).toBe(0);
        // The edits are in the journal; the state file is as it was written, in its own form.
        expect(createHash("sha256").update(readFileSync(file)).digest("hex")).toBe(before);
        expect(
          readFileSync(`${file}.journal`, "utf8")
            .split("\n")
            .filter((line) => line.includes('"put":"properties"')),
        ).toHaveLength(21);
      },
      10 * 60_000,
    );
});

describe("docker-compose.yml, run by a Docker engine", () => {
  it(
    "its example builds the mock, starts the tests once it is healthy, and exits 0",
    async ({ skip }) => {
      skip(!DOCKER_AVAILABLE, NO_DOCKER);
      const compose = await composeCommand();
      if (!compose && (process.env.REQUIRE_DOCKER ?? "0") !== "0")
        throw new Error("neither `docker compose` nor `docker-compose` answers; .ci/run installs docker-compose");
      skip(!compose, "neither `docker compose version` nor `docker-compose version` works on this machine");
      const [command, ...prefix] = compose!;
      const project = ["-p", uniqueName("plk-compose"), "-f", "docker-compose.yml"];
      // The classic builder, as for the image itself (no BuildKit here); the example's test container runs the
      // Dockerfile's base image, which must be there (the official one, or the stand-in).
      const env = { DOCKER_BUILDKIT: "0", COMPOSE_DOCKER_CLI_BUILD: "0" };
      try {
        const up = await run(
          command!,
          [...prefix, ...project, "up", "--build", "--abort-on-container-exit", "--exit-code-from", "tests"],
          { env, cwd: PACKAGE_ROOT, deadlineMs: 15 * 60_000 },
        );
        expect(up.status, `${up.stdout}${up.stderr}`).toBe(0);
        expect(up.stdout).toMatch(/properties\/1: 200 \d+ properties/);
      } finally {
        await run(command!, [...prefix, ...project, "down", "--volumes", "--rmi", "local"], { env, cwd: PACKAGE_ROOT });
      }
    },
    20 * 60_000,
  );
});
