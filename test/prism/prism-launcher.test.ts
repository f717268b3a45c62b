/**
 * scripts/prism.ts: how the launcher's arguments become Prism's argv (port-less), and its usage error as a
 * real process.
 */
import { spawn, spawnSync } from "node:child_process";
import { once } from "node:events";
import { createRequire } from "node:module";
import { createServer, type AddressInfo } from "node:net";
import { copyFileSync, mkdirSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { DEFAULT_SPEC_PATH } from "../../src/spec/load-spec.ts";
import { parsePrismCommand, PRISM_BIN } from "../../scripts/prism.ts";
import { PACKAGE_ROOT } from "../support/start-process.ts";
import { LAUNCHER } from "./prism-harness.ts";
import { HANG_MS } from "../support/deadlines.ts";
import { scratchFolder } from "../support/scratch-folder.ts";

describe("parsePrismCommand", () => {
  it("mock: the spec, on 127.0.0.1:4011, with examples", () => {
    const result = parsePrismCommand(["mock"]);
    expect(result).toEqual({
      kind: "run",
      command: {
        mode: "mock",
        host: "127.0.0.1",
        port: 4011,
        dynamic: false,
        args: ["mock", DEFAULT_SPEC_PATH, "--port", "4011", "--host", "127.0.0.1"],
      },
    });
  });

  it("mock --dynamic --seed passes both on to Prism", () => {
    const result = parsePrismCommand(["mock", "--dynamic", "--seed", "7"]);
    expect(result.kind === "run" && result.command.args.slice(-3)).toEqual(["--dynamic", "--seed", "7"]);
  });

  it("proxy: the target after the spec, on port 4012, with --errors", () => {
    const result = parsePrismCommand(["proxy", "--target", "http://localhost:8080"]);
    expect(result.kind === "run" && result.command.args).toEqual([
      "proxy",
      DEFAULT_SPEC_PATH,
      "http://localhost:8080",
      "--port",
      "4012",
      "--host",
      "127.0.0.1",
      "--errors",
    ]);
  });

  it("flags win over PORT and HOST, which win over the defaults", () => {
    const env = { PORT: "5000", HOST: "0.0.0.0" };
    const fromEnv = parsePrismCommand(["mock"], env);
    expect(fromEnv.kind === "run" && [fromEnv.command.host, fromEnv.command.port]).toEqual(["0.0.0.0", 5000]);
    const fromFlags = parsePrismCommand(["mock", "--port", "6000", "--host", "::1"], env);
    expect(fromFlags.kind === "run" && [fromFlags.command.host, fromFlags.command.port]).toEqual(["::1", 6000]);
  });

  it.each([
    [["proxy"], /--target URL/],
    [["proxy", "--target", "localhost:8080"], /must be an http\(s\) URL/],
    [["proxy", "--target", "http://x", "--dynamic"], /options of "mock"/],
    [["mock", "--target", "http://x"], /option of "proxy"/],
    [["mock", "--port", "http"], /must be a port number/],
    [["mock", "--port", "70000"], /must be a port number/],
    [["serve"], /Expected "mock" or "proxy"/],
    [[], /Expected "mock" or "proxy", got nothing/],
    [["mock", "--verbose"], /Unknown option '--verbose'/],
  ])("refuses %j", (argv, message) => {
    const result = parsePrismCommand(argv);
    expect(result.kind).toBe("error");
    expect(result.kind === "error" && result.message).toMatch(message);
  });

  it("--help asks for the usage", () => {
    expect(parsePrismCommand(["proxy", "--help"])).toEqual({ kind: "help" });
  });

  it("finds Prism inside this package", () => {
    expect(PRISM_BIN).toMatch(/node_modules\/\.bin\/prism$/);
  });
});

describe("the launcher process", () => {
  it("exits with 2 and says what is missing when proxy has no --target", () => {
    const loader = pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href;
    const run = spawnSync(process.execPath, ["--import", loader, LAUNCHER, "proxy"], {
      cwd: tmpdir(),
      encoding: "utf8",
      timeout: HANG_MS,
    });
    expect(run.status).toBe(2);
    expect(run.stderr).toContain("proxy needs the service to check: --target URL");
    expect(run.stdout).toBe("");
  });

  it("exits with 1 and one line naming the port when the port is taken", async () => {
    const blocker = createServer().listen(0, "127.0.0.1");
    await once(blocker, "listening");
    const { port } = blocker.address() as AddressInfo;
    try {
      const loader = pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href;
      const launcher = spawn(process.execPath, ["--import", loader, LAUNCHER, "mock", "--port", String(port)], {
        cwd: tmpdir(),
        stdio: ["ignore", "pipe", "pipe"],
      });
      let output = "";
      launcher.stdout.on("data", (chunk) => (output += chunk));
      launcher.stderr.on("data", (chunk) => (output += chunk));
      const [code] = (await once(launcher, "close")) as [number];
      expect(code).toBe(1);
      expect(output).toBe(`Port ${port} on 127.0.0.1 is already in use; choose another with --port.\n`);
    } finally {
      blocker.close();
    }
  });

  it("says in one line how to install Prism when it is not installed, with exit code 1", () => {
    // The launcher and what it imports, in a folder whose node_modules has everything but Prism.
    const root = scratchFolder("plk-no-prism-");
    for (const file of ["scripts/prism.ts", "src/spec/load-spec.ts", "src/package-root.ts", "spec/openapi.yaml"]) {
      mkdirSync(dirname(join(root, file)), { recursive: true });
      copyFileSync(join(PACKAGE_ROOT, file), join(root, file));
    }
    copyFileSync(join(PACKAGE_ROOT, "package.json"), join(root, "package.json"));
    mkdirSync(join(root, "node_modules"));
    symlinkSync(join(PACKAGE_ROOT, "node_modules", "yaml"), join(root, "node_modules", "yaml"), "dir");
    const loader = pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href;
    const run = spawnSync(process.execPath, ["--import", loader, join(root, "scripts", "prism.ts"), "mock"], {
      cwd: tmpdir(),
      encoding: "utf8",
      timeout: HANG_MS,
    });
    expect(run.status).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr).toBe(
      "Prism is not installed (an optional peer dependency of this kit): npm install --no-save " +
        "@stoplight/prism-cli@5.14.2\n",
    );
  });
});
