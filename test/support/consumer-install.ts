/**
 * The kit as a consumer installs it, made once and shared by the tests that need it (test/e2e/lean-install.test.ts,
 * test/e2e/package-consumer.test.ts, the runner's `npx` lines and the frontend recipe in
 * test/e2e/readme-commands.test.ts, the CI example in test/e2e/ci-example.test.ts): the README's two
 * install lines, "Install it into your project", as a user runs them. `npm pack` in this clone (into a temporary
 * folder, and without its scripts: dist/ is what the run's global set-up built, and a rebuild would rewrite the
 * files other tests run), then `npm install --save-dev <the archive>` in an empty project in the system's
 * temporary folder, outside the clone, so that nothing the install lacks can be found in the clone's own
 * node_modules. The archive's name must be the one the README installs.
 *
 * The install is kept under the archive's SHA-256 (npm pack writes the same bytes for the same files), so the test
 * files of one run, running at once, and later runs of an unchanged package pay for one install: the first to come
 * takes a lock (a folder, made atomically), the others wait for the finished install. A different archive is a
 * different folder, so a change to the package can never be tested against an older install. Installs not used for
 * an hour are removed.
 *
 * The archive itself is kept too, under the SHA-256 of everything `npm pack` reads (the package's top-level files,
 * the folders its `files` names, byte for byte, and npm's version): a later file of the run, or a later run, with
 * the same package finds it and its install without packing again. A file changed anywhere npm pack looks is a
 * different key, so it is packed afresh.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { basename, delimiter, dirname, join } from "node:path";
import { setTimeout as delay } from "node:timers/promises";
import { hashFiles } from "./files-digest.ts";
import { readmeCommand } from "./readme-commands.ts";
import { PACKAGE_ROOT } from "./start-process.ts";

/** What the tests get: the consumer's project folder (its node_modules installed) and what the archive holds. */
export interface ConsumerInstall {
  /** The consumer project: package.json, node_modules/property-listing-kit and its runtime dependencies. */
  project: string;
  /** The packed archive, inside `project`. */
  archive: string;
  /** Every path the archive ships, as `npm pack` lists them (`dist/index.js`, …). */
  files: string[];
}

/** Changes whenever the way of installing changes, so that an install made the old way is not reused. */
const RECIPE = "the README's npm pack, npm install --save-dev <archive> --prefer-offline --no-audit --no-fund, v2";
const PREFIX = "plk-installed-kit-";
/** A kept archive's name and file list, under the key of what npm pack read to write it. */
const PACKED_PREFIX = "plk-packed-kit-";
const UNUSED_FOR_MS = 60 * 60_000;
/** An install under way takes at most this long; a lock older than this was left by a run that died. */
const INSTALL_DEADLINE_MS = 240_000;

let pending: Promise<ConsumerInstall> | undefined;

/** The shared consumer install of this clone's current package; made on first call, at most once per archive. */
export function consumerInstall(): Promise<ConsumerInstall> {
  pending ??= install();
  return pending;
}

async function install(): Promise<ConsumerInstall> {
  const pack = readmeCommand(/^npm pack\b/).split(" ");
  const installLine = readmeCommand(/^npm install --save-dev \.\.\/property-listing-kit\//);
  const shown = /^npm install --save-dev \.\.\/property-listing-kit\/(\S+\.tgz)$/.exec(installLine)?.[1];
  if (!shown)
    throw new Error(
      `The README's install line is not npm install --save-dev ../property-listing-kit/<archive>: ${installLine}`,
    );
  const inputs = join(tmpdir(), `${PACKED_PREFIX}${packInputsKey(pack)}`);
  removeUnused(PACKED_PREFIX, inputs);
  const kept = keptPack(inputs);
  if (kept) {
    if (basename(kept.archive) !== shown)
      throw new Error(
        `The README installs ${shown}, but npm pack writes ${basename(kept.archive)}: the README's install line must ` +
          "name it.",
      );
    return kept;
  }
  const packing = mkdtempSync(join(tmpdir(), "plk-pack-"));
  try {
    const [packed] = JSON.parse(
      execFileSync("npm", [...pack.slice(1), "--json", "--ignore-scripts", "--pack-destination", packing], {
        cwd: PACKAGE_ROOT,
        encoding: "utf8",
        stdio: ["ignore", "pipe", "pipe"],
        env: withoutNpmVariables(),
      }),
    ) as Array<{ filename: string; files: Array<{ path: string }> }>;
    const archiveName = packed!.filename;
    if (archiveName !== shown)
      throw new Error(
        `The README installs ${shown}, but npm pack writes ${archiveName}: the README's install line must name it.`,
      );
    const digest = createHash("sha256")
      .update(readFileSync(join(packing, archiveName)))
      .update(RECIPE)
      .digest("hex")
      .slice(0, 16);
    const project = join(tmpdir(), `${PREFIX}${digest}`);
    const result = { project, archive: join(project, archiveName), files: packed!.files.map((file) => file.path) };
    removeUnused(PREFIX, project);
    await installOnce(project, (partial) => {
      renameSync(join(packing, archiveName), join(partial, archiveName));
      writeFileSync(join(partial, "package.json"), JSON.stringify({ name: "consumer", private: true, type: "module" }));
      // From npm's cache where it can (this machine's is warm); no audit or funding calls.
      npmInstall(partial, ["--save-dev", join(partial, archiveName)], "npm install of the packed kit");
    });
    // Written whole, then renamed: a reader (another test file packing at once) never sees half of it.
    writeFileSync(`${inputs}.${process.pid}.partial`, JSON.stringify(result));
    renameSync(`${inputs}.${process.pid}.partial`, inputs);
    return result;
  } finally {
    rmSync(packing, { recursive: true, force: true });
  }
}

/**
 * The SHA-256 of what `npm pack` reads to write the archive: the package's top-level files (package.json, the README,
 * the licence, the changelog, any ignore file) and every file under the folders `files` names, by path and bytes,
 * with the pack command and npm's version. More than npm ships (a test file, a source map) is read, never less.
 */
function packInputsKey(pack: string[]): string {
  const hash = createHash("sha256").update(`${RECIPE}\n${pack.join(" ")}\nnpm ${npmVersion()}\n`);
  const add = (relative: string) => hashFiles(hash, PACKAGE_ROOT, relative);
  const topLevel = readdirSync(PACKAGE_ROOT).sort();
  for (const entry of topLevel) if (statSync(join(PACKAGE_ROOT, entry)).isFile()) add(entry);
  const { files = [] } = JSON.parse(readFileSync(join(PACKAGE_ROOT, "package.json"), "utf8")) as { files?: string[] };
  const folders = new Set(files.filter((entry) => !entry.startsWith("!")).map((entry) => entry.split("/")[0]!));
  for (const folder of [...folders].sort()) if (statSync(join(PACKAGE_ROOT, folder)).isDirectory()) add(folder);
  return hash.digest("hex").slice(0, 16);
}

/** The version of the npm on PATH, read from its package.json (as `npm --version` would say, without starting it). */
function npmVersion(): string {
  for (const folder of (process.env.PATH ?? "").split(delimiter)) {
    const bin = join(folder, "npm");
    if (!existsSync(bin)) continue;
    const manifest = join(dirname(dirname(realpathSync(bin))), "package.json");
    if (existsSync(manifest)) return (JSON.parse(readFileSync(manifest, "utf8")) as { version: string }).version;
    break;
  }
  return execFileSync("npm", ["--version"], { encoding: "utf8", env: withoutNpmVariables() }).trim();
}

/** The archive and install kept under `inputs`, if both are still there. */
function keptPack(inputs: string): ConsumerInstall | undefined {
  if (!existsSync(inputs)) return undefined;
  const kept = JSON.parse(readFileSync(inputs, "utf8")) as ConsumerInstall;
  // The archive lies in the install, which is complete once its folder has its name (installOnce).
  if (!existsSync(kept.archive)) return undefined;
  const now = new Date();
  // In use: neither is removed as unused.
  utimesSync(inputs, now, now);
  utimesSync(kept.project, now, now);
  return kept;
}

/**
 * Makes the folder `project` once: the first caller takes a lock (a folder, made atomically) and lets `make` fill
 * a folder beside it, renamed to `project` once complete; the others (other test files of the run, or other runs)
 * wait for it. A folder already there is marked in use, so that removeUnused keeps it.
 */
export async function installOnce(project: string, make: (partial: string) => void | Promise<void>): Promise<void> {
  const lock = `${project}.lock`;
  for (;;) {
    if (existsSync(project)) {
      const now = new Date();
      utimesSync(project, now, now); // in use: not removed as unused
      return;
    }
    try {
      mkdirSync(lock);
    } catch {
      // Another test file (or another run) is installing the same archive: wait for it, unless its lock is stale.
      const held = statSync(lock, { throwIfNoEntry: false });
      if (held && Date.now() - held.mtimeMs > INSTALL_DEADLINE_MS) rmSync(lock, { recursive: true, force: true });
      await delay(250);
      continue;
    }
    try {
      const partial = `${project}.partial`;
      rmSync(partial, { recursive: true, force: true });
      mkdirSync(partial);
      await make(partial);
      // Complete, so made visible at once.
      renameSync(partial, project);
      return;
    } finally {
      rmSync(lock, { recursive: true, force: true });
    }
  }
}

/**
 * `npm install <args>` in `cwd`, from npm's cache where it can, with no audit or funding calls; throws what npm said.
 */
export function npmInstall(cwd: string, args: string[], what: string): void {
  const installed = spawnSync("npm", ["install", ...args, "--prefer-offline", "--no-audit", "--no-fund"], {
    cwd,
    encoding: "utf8",
    env: withoutNpmVariables(),
    timeout: INSTALL_DEADLINE_MS - 10_000,
  });
  if (installed.status !== 0) throw new Error(`${what} failed:\n${installed.stdout}\n${installed.stderr}`);
}

/** Removes the folders named `prefix` and a 16-digit key that no run has used for an hour (each is some 30 MiB). */
export function removeUnused(prefix: string, current: string): void {
  for (const name of readdirSync(tmpdir())) {
    if (!new RegExp(`^${prefix}[0-9a-f]{16}$`).test(name)) continue;
    const path = join(tmpdir(), name);
    if (path === current) continue;
    const stat = statSync(path, { throwIfNoEntry: false });
    if (stat && Date.now() - stat.mtimeMs > UNUSED_FOR_MS) rmSync(path, { recursive: true, force: true });
  }
}

/** npm, when it runs this suite, exports its settings (the package's own folder among them) to children. */
export function withoutNpmVariables(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.toLowerCase().startsWith("npm_")));
}
