/**
 * The example consumer of examples/consumer as its own project, and its vitest suite run as its team runs it: the
 * suite records its usage against the kit's MSW handlers (`usage: { consumer: "listing-web" }`) and writes it to
 * the file given. Shared by the end-to-end test of the example and the Pact verifier's test of its pact.
 */
import { execFile } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { placeInstalledKit } from "./installed-kit.ts";
import { PACKAGE_ROOT } from "./start-process.ts";

const EXAMPLE = join(PACKAGE_ROOT, "examples", "consumer");

/**
 * The example copied to a temporary folder, its dependencies resolved as an install would resolve them: the kit a
 * package folder of its own (test/support/installed-kit.ts), the others the clone's.
 */
export function exampleConsumerProject(): string {
  const project = mkdtempSync(join(tmpdir(), "plk-example-consumer-"));
  for (const entry of ["package.json", "vitest.config.ts", "src", "test"])
    cpSync(join(EXAMPLE, entry), join(project, entry), { recursive: true });
  mkdirSync(join(project, "node_modules"));
  for (const name of ["msw", "openapi-fetch", "openapi-typescript-helpers", "vitest"])
    symlinkSync(join(PACKAGE_ROOT, "node_modules", name), join(project, "node_modules", name), "dir");
  placeInstalledKit(join(project, "node_modules"));
  return project;
}

/**
 * Runs the example's suite (`vitest run`, and `vitestArgs` after it) in `project`, writing the usage to `usageFile`.
 */
export function runExampleSuite(
  project: string,
  usageFile: string,
  extra: NodeJS.ProcessEnv = {},
  vitestArgs: readonly string[] = [],
): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [join(PACKAGE_ROOT, "node_modules", "vitest", "vitest.mjs"), "run", ...vitestArgs],
      { cwd: project, env: { ...process.env, USAGE_FILE: usageFile, ...extra }, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) =>
        resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, output: `${stdout}\n${stderr}` }),
    );
  });
}
