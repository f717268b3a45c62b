/**
 * examples/storybook as a frontend team runs it, with the kit installed from its packed archive (the archive of
 * test/support/consumer-install.ts) and the example's own dependencies from the npm registry: the static
 * Storybook built, two stories opened in Chromium (one through Storybook's own UI, moving on to another story of the
 * same preview), the stories run as tests by the Vitest addon, and the usage they recorded held against
 * spec/usage.schema.json. The build and the test run are offline: every Node process of them has its outgoing
 * connections and name look-ups logged (test/support/offline-guard.mjs), Chromium and any tool that honours
 * HTTP_PROXY are pointed at a proxy that records what it is asked, and the page's requests are watched; none may
 * reach past loopback.
 *
 * The install is kept under the archive's digest and the example's package.json, as consumer-install.ts keeps its
 * own, so a later run with the same package pays only for the build and the two runs. A new archive is installed
 * over a copy of an earlier install of the same package.json, as a team's `npm install` of a new version updates
 * their project: the example's own dependencies (some 260 MB) are installed once per package.json, not once per
 * change to the kit. A typecheck that passed is kept with the install, under the digest of the sources it read:
 * the rest of its input is the install itself, so a later run whose sources are byte for byte the same knows its
 * verdict, and any changed source typechecks again.
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { extname, join, normalize } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHROMIUM, CHROMIUM_AVAILABLE, openChromium, type ChromiumSession } from "../support/chromium.ts";
import {
  consumerInstall,
  installOnce,
  npmInstall,
  removeUnused,
  withoutNpmVariables,
} from "../support/consumer-install.ts";
import { hashFiles } from "../support/files-digest.ts";
import { startForwardingProxy, type ForwardingProxy } from "../support/forwarding-proxy.ts";
import { createMockServer } from "../../src/hosts/node/create-mock-server.ts";
import { sharedContract } from "../support/mock-harness.ts";
import { readmeExample } from "../support/readme-examples.ts";
import { PACKAGE_ROOT, startProcess } from "../support/start-process.ts";
import { expectValidUsage } from "../usage/usage-check.ts";

const WHY =
  `${CHROMIUM} is missing (.ci/run installs Debian's chromium package; REQUIRE_BROWSER=1 makes its absence an ` +
  `error)`;
const EXAMPLE = join(PACKAGE_ROOT, "examples", "storybook");
const GUARD = join(PACKAGE_ROOT, "test", "support", "offline-guard.mjs");
/** Changes whenever the way of installing changes, so that an install made the old way is not reused. */
const RECIPE =
  "examples/storybook's package.json with the packed kit, npm install --prefer-offline --no-audit --no-fund, " +
  "then npm install --save-dev <archive> over a copy of it, v2";
const PREFIX = "plk-storybook-example-";
/** An install of the example's package.json with an earlier archive of the kit, copied for each new archive. */
const BASE_PREFIX = "plk-storybook-base-";
/** What the example's folder holds that a user's copy would not: made by its runs, never copied. */
const MADE_BY_RUNS = new Set(["node_modules", "storybook-static", "usage.json", "package.json", "package-lock.json"]);
/** The mark of a passed typecheck in the kept install, named after the digest of the sources it read. */
const TYPECHECK_PASSED = "typecheck-passed-";

/** The stories, by id, in the order the example's vitest.config.ts runs their files (by path). */
const STORY_IDS = [
  "listing-agentlist--fixture",
  "listing-agentlist--empty",
  "listing-agentlist--seats-full",
  "listing-createlistingform--blank",
  "listing-createlistingform--refused",
  "listing-createlistingform--created",
  "listing-createlistingform--saving",
  "listing-propertycard--fixture",
  "listing-propertycard--own-record",
  "listing-propertycard--slow",
  "listing-propertycard--service-down",
];

/** A build or a replay of the example that has not ended by then hangs (quiet, they take well under a minute). */
const BUILD_DEADLINE_MS = 300_000;
/**
 * A run of the stories that has not ended by then hangs: quiet, it takes some 15 s, and several times that on a busy
 * machine. Three runs at most fit in the test's time.
 */
const STORIES_DEADLINE_MS = 240_000;
/**
 * A run of the stories that has printed nothing for this long hangs, whatever its deadline: quiet, it prints its
 * first line at once and one a file every few seconds. A hung run seen in full runs printed nothing more for minutes.
 */
const STORIES_QUIET_MS = 90_000;

let project = "";
let scratch = "";
let proxy: ForwardingProxy | undefined;
let browser: ChromiumSession | undefined;
let site: Server | undefined;
const startedAt = Date.now();

beforeAll(async () => {
  if (!CHROMIUM_AVAILABLE) return;
  const { archive } = await consumerInstall();
  const manifest = JSON.parse(readFileSync(join(EXAMPLE, "package.json"), "utf8")) as {
    devDependencies: Record<string, string>;
  };
  manifest.devDependencies["property-listing-kit"] = `file:${archive}`;
  const manifestText = `${JSON.stringify(manifest, null, 2)}\n`;
  const digest = createHash("sha256")
    .update(readFileSync(archive))
    .update(manifestText)
    .update(RECIPE)
    .digest("hex")
    .slice(0, 16);
  project = join(tmpdir(), `${PREFIX}${digest}`);
  removeUnused(PREFIX, project);
  // The package.json as the example has it: the kit's entry is the archive's, which every run names anew.
  const baseDigest = createHash("sha256")
    .update(readFileSync(join(EXAMPLE, "package.json")))
    .update(RECIPE)
    .digest("hex")
    .slice(0, 16);
  const base = join(tmpdir(), `${BASE_PREFIX}${baseDigest}`);
  removeUnused(BASE_PREFIX, base);
  await installOnce(project, async (partial) => {
    // cp keeps node_modules/.bin's links relative, so that they point into the copy.
    const copy = (from: string, to: string) => {
      execFileSync("cp", ["-a", `${from}/.`, to]);
    };
    if (existsSync(base)) {
      copy(base, partial);
      npmInstall(partial, ["--save-dev", archive], "npm install of the packed kit over examples/storybook's install");
      return;
    }
    writeFileSync(join(partial, "package.json"), manifestText);
    npmInstall(partial, [], "npm install of examples/storybook");
    // Copied before any run writes in it: the base of the next archives' installs.
    await installOnce(base, (basePartial) => copy(partial, basePartial));
  });
  // The example's sources as they are now, over the kept install; what an earlier run made is removed.
  for (const made of ["storybook-static", "usage.json"]) rmSync(join(project, made), { recursive: true, force: true });
  for (const entry of readdirSync(EXAMPLE)) {
    if (!MADE_BY_RUNS.has(entry)) cpSync(join(EXAMPLE, entry), join(project, entry), { recursive: true, force: true });
  }
  scratch = mkdtempSync(join(tmpdir(), "plk-storybook-run-"));
  proxy = await startForwardingProxy();
}, 600_000);

afterAll(async () => {
  await browser?.close();
  site?.close();
  await proxy?.close();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
  if (project) console.log(`storybook example: ${Math.round((Date.now() - startedAt) / 1000)} s, install included`);
});

/**
 * The digest of every file of the project that is not the install's nor a run's (the example's sources, config and
 * public folder, whatever an earlier copy left), by path and bytes: with the install, all that tsc reads.
 */
function sourcesDigest(folder: string): string {
  const hash = createHash("sha256");
  for (const entry of readdirSync(folder).sort())
    if (!MADE_BY_RUNS.has(entry) && !entry.startsWith(TYPECHECK_PASSED)) hashFiles(hash, folder, entry);
  return hash.digest("hex").slice(0, 16);
}

/** The environment of the build and of the test run: every way out of the machine watched. */
function offline(log: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...withoutNpmVariables(),
    CI: "1",
    CHROMIUM_PATH: CHROMIUM,
    OFFLINE_GUARD_LOG: log,
    NODE_OPTIONS: `--import ${pathToFileURL(GUARD).href}`,
  };
  for (const name of ["HTTP_PROXY", "HTTPS_PROXY", "http_proxy", "https_proxy", "ALL_PROXY", "all_proxy"])
    env[name] = proxy!.url;
  env.NO_PROXY = env.no_proxy = "localhost,127.0.0.1,::1";
  return env;
}

/**
 * Runs a program of the example to its end, without blocking this process (the recording proxy answers here). At
 * the deadline the program and every process it started (a browser) are killed, and `hung` says so.
 */
async function run(
  bin: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  deadlineMs = BUILD_DEADLINE_MS,
  quietMs = deadlineMs,
): Promise<{ status: number | null; output: string; hung: boolean }> {
  const started = startProcess(join(project, "node_modules", ".bin", bin), args, env, {
    cwd: project,
    envIsWhole: true,
  });
  let hung = false;
  const kill = () => {
    hung = true;
    started.signal("SIGKILL");
  };
  const timer = setTimeout(kill, deadlineMs);
  // Its output looked at now and then: a program that has printed nothing new for quietMs is as hung as one past
  // its deadline.
  let printed = 0;
  let quietSince = Date.now();
  const watch = setInterval(() => {
    const length = started.output().length;
    if (length !== printed) [printed, quietSince] = [length, Date.now()];
    else if (Date.now() - quietSince >= quietMs) kill();
  }, 5_000);
  const ended = await started.exited;
  clearTimeout(timer);
  clearInterval(watch);
  return { status: typeof ended === "number" ? ended : null, output: started.output(), hung };
}

/**
 * What the guard logged: the connections and look-ups past loopback, those on loopback, and the processes it was loaded
 * into.
 */
function guarded(log: string): { outside: string[]; loopback: number; processes: number } {
  const lines = existsSync(log) ? readFileSync(log, "utf8").split("\n").filter(Boolean) : [];
  const entries = lines.map(
    (line) => JSON.parse(line) as { kind: string; host?: string; port?: number | null; loopback: boolean },
  );
  return {
    outside: entries.filter((entry) => !entry.loopback).map((entry) => `${entry.kind} ${entry.host}:${entry.port}`),
    loopback: entries.filter((entry) => entry.loopback && entry.kind !== "process").length,
    processes: entries.filter((entry) => entry.kind === "process").length,
  };
}

/** The built Storybook served on loopback, as any static host would serve it. */
async function serveFolder(root: string): Promise<string> {
  const types: Record<string, string> = {
    ".html": "text/html",
    ".js": "text/javascript",
    ".mjs": "text/javascript",
    ".css": "text/css",
    ".json": "application/json",
    ".svg": "image/svg+xml",
    ".woff2": "font/woff2",
    ".png": "image/png",
  };
  site = createServer((request, response) => {
    const path = normalize(decodeURIComponent(new URL(request.url ?? "/", "http://x").pathname)).replace(
      /^(\.\.[/\\])+/,
      "",
    );
    let file = join(root, path);
    if (existsSync(file) && statSync(file).isDirectory()) file = join(file, "index.html");
    if (!file.startsWith(root) || !existsSync(file)) {
      response.writeHead(404).end();
      return;
    }
    response
      .writeHead(200, { "content-type": types[extname(file)] ?? "application/octet-stream" })
      .end(readFileSync(file));
  });
  await new Promise<void>((resolve) => site!.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
}

describe("docs/storybook.md", () => {
  it("shows examples/storybook's files as they are, so that the recipe is the example the test runs", () => {
    const files: Record<string, string> = {
      "storybook-main": ".storybook/main.ts",
      "storybook-listing-mock": ".storybook/listing-mock.ts",
      "storybook-preview": ".storybook/preview.ts",
      "storybook-vitest-setup": ".storybook/vitest.setup.ts",
    };
    for (const [name, file] of Object.entries(files)) {
      // A block may start with a comment naming its file.
      expect(readmeExample(name).replace(/^\/\/ \S+\n/, ""), name).toBe(
        readFileSync(join(EXAMPLE, file), "utf8").trimEnd(),
      );
    }
    // The config is long and mostly Chromium's flags: the page links it rather than copying it.
    const linked = readFileSync(join(PACKAGE_ROOT, "docs", "storybook.md"), "utf8");
    expect(linked).toContain("(../examples/storybook/vitest.config.ts)");
    expect(existsSync(join(EXAMPLE, "vitest.config.ts"))).toBe(true);
    // The install lines name the versions the example pins.
    const pinned = JSON.parse(readFileSync(join(EXAMPLE, "package.json"), "utf8")) as {
      dependencies: Record<string, string>;
      devDependencies: Record<string, string>;
    };
    const page = readFileSync(join(PACKAGE_ROOT, "docs", "storybook.md"), "utf8");
    const install = page.slice(page.indexOf("## Install"), page.indexOf("npx msw init public"));
    const named = [...install.matchAll(/(@?[a-z][\w./-]*)@(\d[\w.-]*)/g)].map((match) => [match[1], match[2]]);
    expect(named.length).toBeGreaterThan(10);
    expect(Object.fromEntries(named)).toEqual(
      Object.fromEntries(
        Object.entries({ ...pinned.dependencies, ...pinned.devDependencies }).filter(
          ([name]) => name !== "property-listing-kit",
        ),
      ),
    );
    const story = readmeExample("storybook-story");
    expect(readFileSync(join(EXAMPLE, "src/components/AgentList.stories.tsx"), "utf8")).toContain(
      story.slice(story.indexOf("/** Every seat taken")),
    );
  });
});

describe(`examples/storybook with the packed kit (needs ${CHROMIUM})`, () => {
  it("typechecks, builds the static Storybook offline, and its stories show their own states in Chromium", {
    timeout: 600_000,
  }, async ({ skip }) => {
    skip(!CHROMIUM_AVAILABLE, WHY);
    // The stories typecheck with the kit's types as installed: the matchers on Storybook's expect, a story's records.
    // Only a pass is kept, and only for these very sources over this very install.
    const passed = join(project, `${TYPECHECK_PASSED}${sourcesDigest(project)}`);
    if (!existsSync(passed)) {
      const typed = await run("tsc", ["-p", "tsconfig.json"], withoutNpmVariables());
      expect(typed.status, typed.output).toBe(0);
      for (const entry of readdirSync(project))
        if (entry.startsWith(TYPECHECK_PASSED)) rmSync(join(project, entry), { force: true });
      writeFileSync(passed, "");
    }

    const log = join(scratch, "build-connections.log");
    const built = await run("storybook", ["build", "--quiet"], offline(log));
    expect(built.status, built.output).toBe(0);
    expect(readFileSync(join(project, "storybook-static", "mockServiceWorker.js"), "utf8")).toContain(
      "PACKAGE_VERSION",
    );
    const { outside, processes } = guarded(log);
    expect(outside).toEqual([]);
    expect(processes).toBeGreaterThan(0); // the guard was loaded into the build: else its silence proves nothing
    expect(proxy!.hops).toEqual([]);

    const origin = await serveFolder(join(project, "storybook-static"));
    browser = await openChromium();
    const away: string[] = [];
    // Each story in a browser of its own (a new context: no service worker installed before), as two people
    // following two links would open them.
    const open = async (path: string) => {
      const tab = await browser!.newPage();
      tab.on("request", (request) => {
        const url = request.url();
        if (!url.startsWith(origin) && !/^(data|blob):/.test(url)) away.push(url);
      });
      await tab.goto(`${origin}${path}`);
      return tab;
    };

    // A story on its own, as a link to it opens it: seats full, and its play adds an agent the service refuses.
    const alone = await open("/iframe.html?id=listing-agentlist--seats-full&viewMode=story");
    await alone.getByText("10 of 10 seats taken").waitFor({ timeout: 60_000 });
    await alone.getByRole("alert").filter({ hasText: "Not Enough Agent Seats" }).waitFor({ timeout: 60_000 });
    await alone.close();

    // Storybook's UI: a story of its own records, then the story beside it in the same preview, which starts from
    // the fixtures again whatever the first one set.
    const ui = await open("/index.html?path=/story/listing-propertycard--own-record");
    const preview = ui.frameLocator("#storybook-preview-iframe");
    await preview
      .getByRole("heading", { name: "Story-Ready Bungalow with Two Floorplans" })
      .waitFor({ timeout: 60_000 });
    await ui.locator('[data-item-id="listing-propertycard--fixture"]').click();
    await preview
      .getByRole("heading", { name: "Light-Filled 1-Bed Property in Fort Toreyhaven" })
      .waitFor({ timeout: 60_000 });
    await expect(preview.getByText("$220,000", { exact: false }).count()).resolves.toBe(1);
    await ui.close();
    // Closed before the stories run starts a Chromium of its own, rather than left idle beside it until the end.
    await browser.close();
    browser = undefined;
    expect(away).toEqual([]);
  });

  it("runs each story as a test in Chromium offline, recorded under its id, the usage valid and replayed", {
    timeout: 3 * STORIES_DEADLINE_MS + BUILD_DEADLINE_MS,
  }, async ({ skip }) => {
    skip(!CHROMIUM_AVAILABLE, WHY);
    const log = join(scratch, "test-connections.log");
    const usageFile = join(scratch, "usage.json");
    const stories = () =>
      run("vitest", ["run"], { ...offline(log), USAGE_FILE: usageFile }, STORIES_DEADLINE_MS, STORIES_QUIET_MS);
    let tested = await stories();
    // A run whose page lost a module of its set-up ("Failed to fetch dynamically imported module"), never connected
    // within vitest's minute, or never started the stories runs no story at all. Chromium does that when the host's
    // network addresses change under it (a container started beside it: the suite keeps those apart, as
    // test/support/host-network.ts says, but a machine's other work may not), and on a first run after an install,
    // while Vite bundles the dependencies it then keeps. A later run loads them. Only those failures are run again,
    // twice at most, and each earlier attempt's output is kept for the message: a story that fails fails the test.
    const lostItsSetUp = () =>
      tested.hung ||
      (tested.status !== 0 &&
        /Failed to fetch dynamically imported module|Failed to connect to the browser session/.test(tested.output) &&
        /Tests\s+no tests/.test(tested.output.replace(/\x1b\[[0-9;]*m/g, "")));
    const attempts: string[] = [];
    for (let again = 0; again < 2 && lostItsSetUp(); again++) {
      attempts.push(`${tested.hung ? "killed at the deadline" : `exit ${tested.status}`}:\n${tested.output}`);
      tested = await stories();
    }
    // A run that passed on a later attempt still says what the earlier ones printed, so that a run's log shows
    // where a hang stopped.
    for (const attempt of attempts) console.warn(`storybook example: a run of the stories before the last, ${attempt}`);
    expect(tested.status, [...attempts, tested.output].join("\n---\n")).toBe(0);
    expect(tested.output.replace(/\x1b\[[0-9;]*m/g, "")).toMatch(new RegExp(`Tests\\s+${STORY_IDS.length} passed`));
    const { outside, processes, loopback } = guarded(log);
    expect(outside).toEqual([]);
    expect(processes).toBeGreaterThan(0);
    expect(loopback).toBeGreaterThan(0); // vitest reaches its browser over loopback, and the guard saw it
    // Chromium 150 as Debian builds it asks Google's sign-in and device check-in services as it starts, whatever
    // the flags the example gives it (which do turn off its autofill queries, time queries, hints and preconnects):
    // the browser's own calls, not Storybook's nor a story's. Nothing else may have gone out.
    const browserOwn = /^(accounts\.google\.com|android\.clients\.google\.com):443$/;
    expect(proxy!.hops.filter((hop) => !(hop.kind === "connect" && browserOwn.test(hop.target)))).toEqual([]);

    const usage = JSON.parse(readFileSync(usageFile, "utf8"));
    expectValidUsage(usage);
    expect(usage.consumer).toBe("listing-storybook");
    const tests = usage.tests as Array<{
      name: string;
      start: { kind: string; name?: string };
      interactions: Array<{ operation: string; response: { status: number } }>;
    }>;
    expect(tests.map((test) => test.name)).toEqual(STORY_IDS);
    const byId = Object.fromEntries(tests.map((test) => [test.name, test]));
    expect(byId["listing-agentlist--seats-full"]!.start).toEqual({ kind: "named", name: "seats-full" });
    expect(
      byId["listing-agentlist--seats-full"]!.interactions.map((interaction) => [
        interaction.operation,
        interaction.response.status,
      ]),
    ).toEqual([
      ["listAgentCards", 200],
      ["createAgentCard", 402],
    ]);
    expect(byId["listing-propertycard--own-record"]!.start.kind).toBe("own");
    expect(
      byId["listing-createlistingform--refused"]!.interactions.map((interaction) => interaction.response.status),
    ).toEqual([400]);
    // A fault the story asked for is not the service's answer: nothing of it is recorded.
    expect(byId["listing-propertycard--service-down"]!.interactions).toEqual([]);
    expect(JSON.stringify(usage)).not.toContain("demo-token");

    // Like any other usage, replayed by the installed kit's runner: here on the kit's own mock as a service.
    const service = createMockServer({ contract: sharedContract() });
    const { url } = await service.listen(0);
    try {
      const credentials = {
        CONTRACT_API_KEY: "demo-key",
        CONTRACT_TOKEN: "demo-token",
        CONTRACT_OTHER_API_KEY: "broker-key",
        CONTRACT_OTHER_TOKEN: "broker-token",
        CONTRACT_FRESH_API_KEY: "storybook-replay-key",
        CONTRACT_FRESH_TOKEN: "storybook-replay-token",
      };
      const replay = await run("property-listing-contract", ["--usage", usageFile, "--base-url", url], {
        ...withoutNpmVariables(),
        ...credentials,
      });
      expect(replay.status, replay.output).toBe(0);
      expect(replay.output).toContain("Consumer usage HOLDS");
    } finally {
      await service.close();
    }
  });
});
