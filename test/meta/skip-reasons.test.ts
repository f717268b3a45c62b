/**
 * A test skipped for a missing prerequisite says why in `npm test`'s own output: the suite's vitest config ends
 * the run with each such test and its reason.
 */
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import config from "../../vitest.config.ts";
import { PACKAGE_ROOT, startProcess } from "../support/start-process.ts";
import { scratchFolder } from "../support/scratch-folder.ts";

describe("a skipped test", () => {
  it("is listed with its reason at the end of a run with the suite's reporters", async () => {
    const project = scratchFolder("plk-skips-");
    mkdirSync(join(project, "node_modules"));
    symlinkSync(join(PACKAGE_ROOT, "node_modules", "vitest"), join(project, "node_modules", "vitest"), "dir");
    writeFileSync(
      join(project, "prerequisite.test.mjs"),
      `import { it } from "vitest";
it("needs a frobnicator", ({ skip }) => { skip(true, "no frobnicator on this machine"); });
it("runs anyway", () => {});
`,
    );
    const reporters = (config.test?.reporters ?? []) as string[];
    expect(reporters).toContain("default");
    const args = [join(PACKAGE_ROOT, "node_modules", "vitest", "vitest.mjs"), "run", "--root", project];
    for (const reporter of reporters)
      args.push("--reporter", reporter.startsWith(".") ? join(PACKAGE_ROOT, reporter) : reporter);
    const run = startProcess(process.execPath, args);
    expect(await run.exited).toBe(0);
    expect(run.output()).toContain(
      "Skipped for a missing prerequisite:\n  prerequisite.test.mjs > needs a frobnicator\n      why: no " +
        "frobnicator on this machine",
    );
  });
});
