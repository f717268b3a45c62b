/**
 * docs/frontend.md's code, run as a frontend project runs it: the vitest set-up and test of the guide in a project
 * of their own (vitest, msw, jsdom and the kit resolved as a consumer resolves them, through the kit's exports
 * and its built dist/), in the `node` environment and in `jsdom`; and its typed client under setupServer (the same
 * example test/e2e/typed-client.test.ts typechecks and runs against a started mock). A
 * changed export or option breaks them.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { stripVTControlCharacters } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { placeInstalledKit } from "../support/installed-kit.ts";
import { PACKAGE_ROOT } from "../support/start-process.ts";

/** The fenced block marked `<!-- example: NAME ... -->` in docs/frontend.md. */
function guideExample(name: string): string {
  const guide = readFileSync(join(PACKAGE_ROOT, "docs", "frontend.md"), "utf8");
  const match = new RegExp(`<!-- example: ${name}\\b[^>]*-->\\n\`\`\`[a-z]*\\n([\\s\\S]*?)\\n\`\`\`\\n`).exec(guide);
  if (!match) throw new Error(`docs/frontend.md has no block marked <!-- example: ${name} -->`);
  return match[1]!;
}

/** The app code the guide's test imports (`../src/api`): a create through fetch, as the guide describes it. */
const API = `export async function createListing(address: Record<string, string>) {
  const response = await fetch("http://localhost:4010/api/v1/object/property", {
    method: "POST",
    headers: { "API-KEY": "demo-key", TOKEN: "demo-token", "content-type": "application/json" },
    body: JSON.stringify(address),
  });
  if (!response.ok) throw new Error(\`create answered \${response.status}\`);
  return response.json();
}
`;

/** What the guide's typed client runs after here: the handlers listening under setupServer, as in the vitest set-up. */
const HANDLERS_FIRST = `import { setupServer } from "msw/node";
import { createMockHandlers } from "property-listing-kit/msw";
setupServer(...createMockHandlers({ baseUrl: "http://127.0.0.1:4010" }).handlers)
  .listen({ onUnhandledRequest: "error" });
`;

let project = "";
beforeAll(() => {
  project = mkdtempSync(join(tmpdir(), "plk-frontend-guide-"));
  mkdirSync(join(project, "node_modules"));
  for (const name of ["vitest", "msw", "jsdom", "openapi-fetch", "openapi-typescript-helpers"])
    symlinkSync(join(PACKAGE_ROOT, "node_modules", name), join(project, "node_modules", name), "dir");
  if (!existsSync(join(PACKAGE_ROOT, "dist", "msw.js")))
    execFileSync("npm", ["run", "--silent", "build"], { cwd: PACKAGE_ROOT, stdio: "pipe" });
  placeInstalledKit(join(project, "node_modules"));
  writeFileSync(join(project, "package.json"), JSON.stringify({ name: "frontend", type: "module", private: true }));
  mkdirSync(join(project, "test"));
  mkdirSync(join(project, "src"));
  writeFileSync(join(project, "test", "setup.ts"), guideExample("frontend-vitest-setup"));
  writeFileSync(join(project, "test", "listing.test.ts"), guideExample("frontend-vitest-test"));
  writeFileSync(join(project, "src", "api.ts"), API);
  writeFileSync(join(project, "client.ts"), `${HANDLERS_FIRST}${guideExample("typed-client")}\n`);
});
afterAll(() => rmSync(project, { recursive: true, force: true }));

const ENVIRONMENTS = ["node", "jsdom"] as const;

/**
 * The guide's vitest files, run by vitest in the project, in each environment given: one vitest project per
 * environment, named after it, all in one run (one vitest start-up, whose output names each project's result).
 */
function runVitest(environments: ReadonlyArray<(typeof ENVIRONMENTS)[number]>) {
  const projects = environments.map((environment) => ({
    test: { name: environment, environment, setupFiles: ["./test/setup.ts"], include: ["test/**/*.test.ts"] },
  }));
  writeFileSync(
    join(project, "vitest.config.ts"),
    `export default { test: { projects: ${JSON.stringify(projects)} } };\n`,
  );
  return spawnSync(
    process.execPath,
    [join(project, "node_modules", "vitest", "vitest.mjs"), "run", "--root", project],
    { cwd: project, encoding: "utf8", timeout: 120_000, env: { ...process.env, CI: "1" } },
  );
}

describe("docs/frontend.md's examples", () => {
  /** The run in both environments, made once for the two tests that read it. */
  let both: ReturnType<typeof runVitest> | undefined;
  for (const environment of ENVIRONMENTS) {
    it(`runs the vitest set-up and test in the ${environment} environment`, { timeout: 150_000 }, () => {
      both ??= runVitest(ENVIRONMENTS);
      expect(both.status, `${both.stdout}\n${both.stderr}`).toBe(0);
      const output = stripVTControlCharacters(both.stdout);
      expect(output).toMatch(/Tests {2}2 passed \(2\)/);
      // The guide's one test file passed in this environment's project.
      expect(output).toMatch(new RegExp(`✓ +\\|?${environment}\\|? +test/listing\\.test\\.ts \\(1 test\\)`));
    });
  }

  it("fails the guide's test when the mock received no such request (the example can fail)", {
    timeout: 150_000,
  }, () => {
    writeFileSync(
      join(project, "src", "api.ts"),
      API.replace("JSON.stringify(address)", 'JSON.stringify({ ...address, street: "2 Other St" })'),
    );
    try {
      const run = runVitest(["node"]);
      expect(run.status).not.toBe(0);
      expect(run.stdout + run.stderr).toMatch(/toHaveReceived|Expected the mock to have received/);
    } finally {
      writeFileSync(join(project, "src", "api.ts"), API);
    }
  });

  it("runs the typed client against the handlers", { timeout: 60_000 }, () => {
    const run = spawnSync(
      process.execPath,
      [join(PACKAGE_ROOT, "node_modules", "tsx", "dist", "cli.mjs"), "client.ts"],
      { cwd: project, encoding: "utf8", timeout: 50_000 },
    );
    expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0);
    expect(run.stdout.trim().split("\n")).toEqual(["1 Main St 3", expect.stringMatching(/^200 \d+$/)]);
  });
});
