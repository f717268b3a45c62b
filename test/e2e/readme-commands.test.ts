/**
 * Every command of the `sh` blocks of the README and of the manual's pages (docs/), and every route the admin
 * routes table gives as an example, runs as shown, where a reader runs it (the runner's `npx --no --` lines in a
 * project that has the kit installed by the README's install lines, test/support/consumer-install.ts; the npm
 * scripts in the repository): the commands with only the addresses and file names a test must choose put in (the
 * mock's address for 127.0.0.1:4010 or a staging service, a free port, a recording in a temporary folder). A
 * command that no rule below knows fails the test, so a new one cannot go untested; the few that cannot run here
 * say why, and the Prism commands that a Prism test starts with the README's line say which, as does the one that,
 * on the port and address a test must give it, is such a line with the launcher's default host spelled out (Prism
 * takes seconds to start).
 * Also: every `npm run <script>` that the README and docs/ mention exists (docs/assumptions.md once named one
 * that did not).
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createMockServer } from "../../src/hosts/node/create-mock-server.ts";
import { createHarRecorder } from "../support/har-recorder.ts";
import { sharedContract } from "../support/mock-harness.ts";
import { onPort, README_PRISM, README_PRISM_TESTS, readmeCommands, userDocs } from "../support/readme-commands.ts";
import { consumerInstall } from "../support/consumer-install.ts";
import { freePort, PACKAGE_ROOT, killAll, startProcess, type StartedProcess } from "../support/start-process.ts";
import { HANG_MS } from "../support/deadlines.ts";

const README = userDocs();
const DEMO = { "API-KEY": "demo-key", TOKEN: "demo-token", "content-type": "application/json" };

const commands = readmeCommands();
/** The CI variables the README's runner commands take their credentials from: every account, each its own. */
const CREDENTIALS = {
  CONTRACT_API_KEY: "demo-key",
  CONTRACT_TOKEN: "demo-token",
  CONTRACT_OTHER_API_KEY: "readme-other",
  CONTRACT_OTHER_TOKEN: "readme-other-token",
  CONTRACT_FRESH_API_KEY: `readme-fresh-${process.pid}`,
  CONTRACT_FRESH_TOKEN: "readme-fresh-token",
};

/** Commands that cannot run inside the test suite, or run in another test, and why. Everything else runs. */
const NOT_RUN: Array<[RegExp, string]> = [
  // Prism takes seconds of CPU to start: the Prism test that checks what it serves starts it with the README's line.
  ...Object.entries(README_PRISM).map(([key, pattern]): [RegExp, string] => [
    pattern,
    `run by ${README_PRISM_TESTS[key as keyof typeof README_PRISM]}`,
  ]),
  [
    /^npm run mock:prism -- --port 5000 --host 0\.0\.0\.0$/,
    "given the free port and the loopback address a test must give it, this is the Prism test's " +
      "`npm run mock:prism -- --port <port>` (test/prism/prism-mock.test.ts) with --host 127.0.0.1, the launcher's " +
      "default: --port and --host reach Prism in test/prism/prism-launcher.test.ts, and " +
      "test/prism/prism-proxy.test.ts starts the launcher with both",
  ],
  [
    /^npm ci && npm start$/,
    "npm ci would reinstall the tree this suite runs from; npm start is run by test/e2e/npm-start.test.ts",
  ],
  [
    /^npx (--no -- )?property-listing-contract --usage usage\.json --write-pact /,
    "it needs a recorded usage; test/usage/usage-to-pact.test.ts runs the bin with these options on one",
  ],
  [/^npm test$/, "the suite itself"],
  [
    new RegExp(
      /^npx (--no -- )?property-listing-contract --usage usage\.json /.source +
        "(" +
        /--base-url https:\/\/staging\.example\.com( --reporter junit --output consumer\.xml)?/.source +
        "|" +
        /--profile (service-profile|profiles\/staging)\.json/.source +
        ")$",
    ),
    "a usage file is recorded by a consumer's suite: test/e2e/contract-cli-usage.test.ts runs both forms as " +
      "a process, on a recorded usage, and test/e2e/example-consumer.test.ts on the example consumer's",
  ],
  [
    new RegExp(
      /^npx (--no -- )?property-listing-contract --usage usage\.json /.source +
        /--base-url https:\/\/staging\.example\.com --rerun /.source +
        /"npx vitest run"( --reporter junit --output consumer\.xml)?$/.source,
    ),
    "it needs a consumer's suite and its recorded usage: test/e2e/example-consumer.test.ts runs --rerun as a " +
      "process on the example consumer against an independent implementation, and " +
      "test/e2e/contract-cli-rerun.test.ts on a recorded usage",
  ],
  [
    /^npx property-listing-mock --record-usage usage\.json --consumer web-app$/,
    "it records until the suite beside it stops it: test/e2e/usage-cli.test.ts starts the mock with these " +
      "flags as a process and reads the file it writes",
  ],
  [
    /^npx --no -- property-listing-contract --reporter junit --output contract\.xml --json-report contract\.json$/,
    "the nightly CI example: test/e2e/ci-example.test.ts runs it as written, with fake secrets in the environment",
  ],
  [
    /^docker (build|run|compose|volume) /,
    "test/docker/container.test.ts builds the image and runs it under a real engine (CI starts one); without " +
      "an engine, test/docker/docker-files.test.ts replays it",
  ],
  // The install into a project: test/support/consumer-install.ts runs these two lines of the README (packing into a
  // temporary folder, installing in an empty project there), for test/e2e/package-consumer.test.ts and the npx lines
  // below.
  [
    /^npm install --save-dev msw$/,
    "test/e2e/msw-versions.test.ts installs msw beside the packed kit (MSW 2, and MSW 3 where Node allows it)",
  ],
  [
    /^npx msw init public\/ --save$/,
    "MSW's own command, writing its worker script into a Vite app's public folder; " +
      "test/browser/msw-worker.test.ts serves that script from msw's package",
  ],
  [
    /^npm run build$/,
    "run by npm ci (prepare), and before a test run whose dist/ is older than a source (test/support/build-once.ts)",
  ],
  [
    /^(VITE_MOCK=1 )?npx vite build( && npx vite preview)?$/,
    "a Vite app's own build (docs/frontend.md): test/e2e/vite-builds.test.ts builds the guide's app both " +
      "ways, and serves the demo build to Chromium",
  ],
  [
    /^npm run bench -- --only (growth|scale) /,
    "a section of the bench at full size takes minutes and gigabytes; test/bench/bench.test.ts runs every " +
      "section with small counts",
  ],
  [
    /^scripts\/docker\/stand-in-base\.sh\b/,
    "needs root, debootstrap and an engine: .ci/run runs it, test/docker/stand-in-base.test.ts checks what " +
      "it plans from the Dockerfile",
  ],
  [/^DOCKER_BUILDKIT=0 docker build /, ".ci/run builds the image so, and test/docker/container.test.ts runs it"],
  [
    /^npm install (--save-dev )?(react|storybook)@/,
    "the Storybook recipe's installs (docs/storybook.md): test/e2e/storybook-example.test.ts installs " +
      "examples/storybook, whose package.json pins the versions these lines name (it checks they agree)",
  ],
  [
    /^npx msw init public --save$/,
    "MSW's own command, writing its worker script into the Storybook recipe's public folder: " +
      "examples/storybook ships the script it wrote",
  ],
  [
    /^(USAGE_FILE=\S+ CHROMIUM_PATH=\S+ )?npx vitest( run)?$/,
    "the Storybook recipe's stories as tests: test/e2e/storybook-example.test.ts runs them in a copy of " +
      "examples/storybook, with USAGE_FILE and CHROMIUM_PATH set",
  ],
  [/^npm pack$/, "run by test/support/consumer-install.ts"],
  [
    /^property-listing-mock --convert-state state\.json state\.jsonl$/,
    "it needs a state file: test/e2e/db-state-files.test.ts runs --convert-state as a process, both ways, " +
      "and on a damaged or existing file",
  ],
  [
    /^npm install -D property-listing-kit$/,
    "the install from the npm registry, once a release is published there; test/e2e/publish.test.ts runs npm " +
      "publish --dry-run on this package, and test/support/consumer-install.ts installs the same archive into " +
      "an empty project",
  ],
  [
    /^npm install --save-dev \.\.\/property-listing-kit\/property-listing-kit-[0-9.]+\.tgz$/,
    "run by test/support/consumer-install.ts",
  ],
  // The page for outside tools: test/e2e/outside-tools.test.ts runs its lines against one mock, in the page's order.
  [
    /^npm start$/,
    "the mock that docs/outside-tools.md points the tools at: test/e2e/outside-tools.test.ts starts it with " +
      "this line, and test/e2e/npm-start.test.ts runs npm start",
  ],
  [
    /^npm run proxy -- --target http:\/\/127\.0\.0\.1:4010$/,
    "Prism's proxy in front of the mock: test/e2e/outside-tools.test.ts starts it with this line",
  ],
  [
    /^npx redocly bundle spec\/openapi\.yaml /,
    "test/e2e/outside-tools.test.ts runs it, writing into a temporary folder",
  ],
  [
    /^schemathesis run /,
    "Schemathesis is a Python program and cannot be installed here: test/e2e/outside-tools.test.ts checks " +
      "what these lines name and skips them with that reason",
  ],
];

const mock = createMockServer({ contract: sharedContract(), validateResponses: true });
let url = "";
let dir = "";
afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});
const started: StartedProcess[] = [];

beforeAll(async () => {
  ({ url } = await mock.listen(0));
  dir = mkdtempSync(join(tmpdir(), "plk-readme-"));
  // traffic.har: a client's recorded traffic with the mock, and the same behind a gateway under a path.
  const recorder = createHarRecorder(url, DEMO);
  await recorder.send("GET", "/api/v1/object/template_base");
  await recorder.send("POST", "/api/v1/object/property", {
    body: { street: "1 Main St", city: "Austin", state: "TX", zip: "78701" },
  });
  await recorder.send("GET", "/api/v1/object/agent_cards");
  const har = JSON.stringify(recorder.har());
  writeFileSync(join(dir, "traffic.har"), har);
  writeFileSync(join(dir, "gateway.har"), har.replaceAll(url, "https://gateway.example.com/listing"));
});
afterEach(() => killAll(started));
afterAll(() => mock.close());

/**
 * Runs a command line through the shell, as typed, in the repository (or in `cwd`); resolves with its exit code and
 * output.
 */
async function sh(
  line: string,
  env: NodeJS.ProcessEnv = {},
  cwd?: string,
): Promise<{ code: number | string; output: string }> {
  const process = startProcess("sh", ["-c", line], env, cwd ? { cwd } : {});
  started.push(process);
  const code = await process.exited;
  return { code, output: process.output() };
}

/**
 * Starts a server command (in `cwd`, the repository unless given), waits until it answers at `address`, and stops it.
 */
async function serves(line: string, address: string, cwd?: string): Promise<void> {
  const process = startProcess("sh", ["-c", `${cwd ? `cd '${cwd}' && ` : ""}exec ${line}`]);
  started.push(process);
  const deadline = Date.now() + HANG_MS;
  for (;;) {
    const answer = await fetch(address, { headers: DEMO }).catch(() => undefined);
    if (answer) return void (await answer.body?.cancel());
    if (process.child.exitCode !== null || Date.now() > deadline)
      throw new Error(`${line} did not answer at ${address}:\n${process.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** How each command of the README runs here; the first rule whose pattern matches is used. */
const RULES: Array<{ pattern: RegExp; run: (line: string) => Promise<void> }> = [
  {
    // The steering examples answer an object, or a status asked for on purpose, not a list; the fault rules they
    // add are removed after each, so that no later command meets them.
    pattern: /^curl (?=.*http:\/\/127\.0\.0\.1:4010\/)(?=.*(\/__admin\/(requests|faults|state)|Prefer: ))/,
    run: async (line) => {
      try {
        const { code, output } = await sh(`${line.replaceAll("http://127.0.0.1:4010", url)} --silent --show-error`);
        expect(code, output).toBe(0);
        const asked = /Prefer: code=(\d+)/.exec(line)?.[1];
        if (asked) {
          expect(output).toMatch(new RegExp(`^HTTP/1\\.1 ${asked} `));
          expect(output).toMatch(/^preference-applied: code=/im);
        } else if (line.includes("/__admin/requests"))
          expect(JSON.parse(output)).toEqual({ requests: expect.any(Array) });
        else if (line.includes("/__admin/state") && line.includes("-X POST"))
          expect(JSON.parse(output)).toEqual(expect.objectContaining({ status: "state", state: expect.any(String) }));
        else if (line.includes("/__admin/state"))
          expect(JSON.parse(output)).toEqual({ current: expect.any(String), states: expect.any(Array) });
        else if (line.includes("-X POST"))
          expect(JSON.parse(output)).toEqual(expect.objectContaining({ path: expect.any(String) }));
        else expect(JSON.parse(output)).toEqual({ faults: expect.any(Array) });
      } finally {
        await fetch(`${url}/__admin/faults`, { method: "DELETE" }).then((answer) => answer.body?.cancel());
        // A state loaded by an example is undone, so that the later commands meet the fixtures.
        if (line.includes("/__admin/state"))
          await fetch(`${url}/__admin/reset`, { method: "POST" }).then((answer) => answer.body?.cancel());
      }
    },
  },
  {
    pattern: /^curl .* http:\/\/127\.0\.0\.1:4010\//,
    run: async (line) => {
      const { code, output } = await sh(`${line.replace("http://127.0.0.1:4010", url)} --fail --silent --show-error`);
      expect(code, output).toBe(0);
      // The whole state (a state of one's own is made from it), or a list.
      if (line.endsWith("/__db/db"))
        expect(JSON.parse(output)).toEqual(
          expect.objectContaining({ accounts: expect.any(Array), properties: expect.any(Array) }),
        );
      else expect(JSON.parse(output)).toEqual(expect.any(Array));
    },
  },
  {
    // "Make the mock behave like your service", in the README's order: record a profile (into this test's folder,
    // not the repository), start the mock with it, hold the service to it. The runner's lines run where a user
    // runs them, in a project that has the kit installed; npm start is the repository's script.
    pattern: /--(write-)?profile profiles\/staging\.json$/,
    run: async (line) => {
      const shown = line.replaceAll("profiles/staging.json", join(dir, "staging.json"));
      if (line.startsWith("npm start")) {
        const port = await freePort();
        await serves(onPort(shown, port), `http://127.0.0.1:${port}/healthz`);
        return;
      }
      const { project } = await consumerInstall();
      const { code, output } = await sh(shown.replace("https://staging.example.com", url), CREDENTIALS, project);
      expect(code, output).toBe(0);
      expect(output).toContain(
        line.includes("--write-profile") ? "Service profile written to" : "Holding the service to the profile",
      );
    },
  },
  {
    // The runner's bin as CI runs it, in a project that has the kit installed, the credentials in the environment
    // (docs/runner-in-ci.md).
    pattern: /^npx --no -- property-listing-contract --base-url https:\/\/staging\.example\.com(\s|$)/,
    run: async (line) => {
      const { project } = await consumerInstall();
      const junit = line.includes("--output contract.xml");
      const shown = line
        .replace("https://staging.example.com", url)
        .replace("--output contract.xml", `--output ${join(dir, "contract.xml")}`);
      const { code, output } = await sh(shown, CREDENTIALS, project);
      expect(code, output).toBe(0);
      if (junit) expect(readFileSync(join(dir, "contract.xml"), "utf8")).toMatch(/<testsuites[^>]*failures="0"/);
      else expect(output).toContain("Contract HOLDS");
    },
  },
  {
    // Setting up a test: the mock started from a shipped state, which it then names.
    pattern: /^npm start -- --state [a-z-]+$/,
    run: async (line) => {
      const port = await freePort();
      await serves(onPort(line, port), `http://127.0.0.1:${port}/healthz`);
      const answer = await fetch(`http://127.0.0.1:${port}/__admin/state`);
      expect(((await answer.json()) as { current: string }).current).toBe(line.split(" ").at(-1));
    },
  },
  {
    // The frontend recipe: the mock's program as the install into a project links it
    // (test/support/consumer-install.ts).
    pattern: /^npx property-listing-mock$/,
    run: async (line) => {
      const { project } = await consumerInstall();
      const port = await freePort();
      await serves(`${line} --port ${port}`, `http://127.0.0.1:${port}/api/v1/object/template_base`, project);
    },
  },
  {
    pattern: /^npm run contract -- --recording traffic\.har/,
    run: async (line) => {
      const gateway = line.includes("https://gateway.example.com/listing");
      const shown = line
        .replace("traffic.har", join(dir, gateway ? "gateway.har" : "traffic.har"))
        .replace("recording.xml", join(dir, "recording.xml"));
      const { code, output } = await sh(shown);
      expect(code, output).toBe(0);
      if (line.includes("--output recording.xml"))
        expect(readFileSync(join(dir, "recording.xml"), "utf8")).toContain("<testsuites");
      else expect(output).toContain("3 exchanges checked");
    },
  },
];

describe("the commands of the README and docs/", () => {
  it("run by a Prism test are each started there with the README's line", () => {
    for (const [key, file] of Object.entries(README_PRISM_TESTS)) {
      expect(readFileSync(join(PACKAGE_ROOT, file), "utf8"), file).toContain(`readmeCommand(README_PRISM.${key})`);
      expect(
        commands.filter((line) => README_PRISM[key as keyof typeof README_PRISM].test(line)),
        key,
      ).toHaveLength(1);
    }
  });

  it("are all either run below or listed as impossible here, with the reason", () => {
    expect(commands.length).toBeGreaterThan(5);
    const unknown = commands.filter(
      (line) => !NOT_RUN.some(([pattern]) => pattern.test(line)) && !RULES.some((rule) => rule.pattern.test(line)),
    );
    expect(unknown, "commands of the README that no rule of this test runs").toEqual([]);
  });

  for (const line of commands.filter((command) => !NOT_RUN.some(([pattern]) => pattern.test(command)))) {
    it(`runs: ${line}`, async () => {
      await RULES.find((rule) => rule.pattern.test(line))!.run(line);
    });
  }
});

describe("the route examples of the admin routes table", () => {
  it("answer 200 from the mock, each one shown in the admin routes table (docs/mock.md)", async () => {
    const at = README.search(/^#+ Admin routes/m);
    expect(at).toBeGreaterThan(-1);
    const table = README.slice(at, README.indexOf("\n#", at + 5));
    const firstCells = table
      .split("\n")
      .filter((row) => row.startsWith("| `"))
      .map((row) => row.split(" | ")[0]!);
    const routes = firstCells.flatMap((cell) =>
      [...cell.matchAll(/`(?:(GET|POST) )?(\/[^`\s]*)`/g)].map((match) => ({
        method: match[1] ?? "GET",
        path: match[2]!,
      })),
    );
    expect(routes.map((route) => route.path)).toEqual(
      expect.arrayContaining(["/healthz", "/__db/properties", "/__admin/reset"]),
    );
    for (const { method, path } of routes) {
      const answer = await fetch(`${url}${path}`, { method });
      expect(`${method} ${path} ${answer.status}`).toBe(`${method} ${path} 200`);
      await answer.body?.cancel();
    }
  });
});

describe("npm scripts named in the README and docs/", () => {
  it("all exist in package.json", () => {
    const scripts = Object.keys(
      (JSON.parse(readFileSync(join(PACKAGE_ROOT, "package.json"), "utf8")) as { scripts: Record<string, string> })
        .scripts,
    );
    const texts = [
      README,
      ...readdirSync(join(PACKAGE_ROOT, "docs"), { withFileTypes: true })
        .filter((entry) => entry.isFile())
        .map(({ name }) => readFileSync(join(PACKAGE_ROOT, "docs", name), "utf8")),
    ];
    const named = new Set(
      texts.flatMap((text) => [...text.matchAll(/npm run ([a-z][a-z:-]*)/g)].map((match) => match[1]!)),
    );
    expect(named.size).toBeGreaterThan(3);
    // docs/storybook.md names the scripts of examples/storybook, the project a reader copies.
    const storybook = (
      JSON.parse(readFileSync(join(PACKAGE_ROOT, "examples", "storybook", "package.json"), "utf8")) as {
        scripts: Record<string, string>;
      }
    ).scripts;
    const storybookPage = readFileSync(join(PACKAGE_ROOT, "docs", "storybook.md"), "utf8");
    const ofTheExample = (name: string) => name in storybook && storybookPage.includes(`npm run ${name}`);
    expect([...named].filter((name) => !scripts.includes(name) && !ofTheExample(name))).toEqual([]);
  });
});
