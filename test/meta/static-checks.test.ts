/**
 * The checks `npm test` makes besides the tests, each as its npm script: the typecheck of the sources, scripts and
 * tests; the generated files being what the spec generates; the spec's lint. They run here, as tests, so that
 * they use the cores while other test files wait on the processes they started, instead of before the whole
 * suite, one after the other. The lint of the code (`npm run lint:code`: Biome, typescript-eslint, knip) is not
 * among them: its type-aware rules take a type check of their own, so CI runs `npm run lint` once, beside the suite.
 */
import { describe, expect, it } from "vitest";
import { startProcess } from "../support/start-process.ts";

/** Runs `npm run <name>` in the package root; its exit code and everything it printed. */
async function npmRun(name: string): Promise<{ code: number | string; output: string }> {
  const run = startProcess("npm", ["run", "--silent", name]);
  const code = await run.exited;
  return { code, output: run.output() };
}

// The spec's lint takes some 6 s of CPU on a quiet machine and the typecheck (TypeScript 7) 4; several times that
// on a busy one.
const TIMEOUT_MS = 300_000;

describe("npm test's static checks", () => {
  it("npm run typecheck: the sources, the scripts and the tests typecheck", { timeout: TIMEOUT_MS }, async () => {
    const { code, output } = await npmRun("typecheck");
    expect(code, output).toBe(0);
  });

  it("npm run generate:check: src/generated/ and docs/assumptions.md are what the spec generates", {
    timeout: TIMEOUT_MS,
  }, async () => {
    const { code, output } = await npmRun("generate:check");
    expect(code, output).toBe(0);
  });

  it("npm run lint:spec: the spec passes Redocly's lint, Spectral's spectral:oas, and the OpenAPI 3.1 schema", {
    timeout: TIMEOUT_MS,
  }, async () => {
    const { code, output } = await npmRun("lint:spec");
    expect(code, output).toBe(0);
  });
});
