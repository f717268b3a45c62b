/**
 * The release workflow (.github/workflows/release.yml) cannot run here: it needs GitHub's runners, the registry's
 * OIDC provenance and a container registry. What it must do is held here: it starts on a version tag alone, checks
 * that the tag is the package's version, runs the lint and the suite before anything is published, publishes the
 * package with provenance (and only that job may mint an OIDC token), and builds the image for both platforms.
 * `npm publish --dry-run` itself runs in test/e2e/publish.test.ts.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { PACKAGE_ROOT } from "../support/start-process.ts";

interface Step {
  run?: string;
  uses?: string;
  with?: Record<string, unknown>;
}
interface Job {
  needs?: string | string[];
  permissions?: Record<string, string>;
  steps: Step[];
}
interface Workflow {
  on: { push?: { tags?: string[]; branches?: string[] }; [trigger: string]: unknown };
  permissions: Record<string, string>;
  jobs: Record<string, Job>;
}

const workflow = parse(readFileSync(join(PACKAGE_ROOT, ".github/workflows/release.yml"), "utf8")) as Workflow;
const runs = (job: Job) => job.steps.flatMap((step) => (step.run ? [step.run] : []));

describe("the release workflow", () => {
  it("starts on a version tag, and on nothing else", () => {
    expect(Object.keys(workflow.on)).toEqual(["push"]);
    expect(workflow.on.push).toEqual({ tags: ["v*.*.*"] });
  });

  it("checks the tag against the package's version, then lints and runs the suite", () => {
    const test = workflow.jobs.test!;
    expect(runs(test).join("\n")).toMatch(/require\("\.\/package\.json"\)\.version.*GITHUB_REF_NAME/);
    expect(runs(test)).toEqual(expect.arrayContaining(["npm ci", "npm run lint", "npm test"]));
  });

  it("publishes nothing before the tests pass", () => {
    for (const [name, job] of Object.entries(workflow.jobs)) if (name !== "test") expect(job.needs, name).toBe("test");
  });

  it("publishes the package with provenance; only that job may mint an OIDC token", () => {
    expect(workflow.permissions).toEqual({ contents: "read" });
    const npm = workflow.jobs.npm!;
    expect(npm.permissions).toEqual({ contents: "read", "id-token": "write" });
    expect(runs(npm)).toContain("npm publish --provenance --access public");
    for (const [name, job] of Object.entries(workflow.jobs))
      if (name !== "npm") expect(job.permissions?.["id-token"], name).toBeUndefined();
  });

  it("builds and pushes the image for linux/amd64 and linux/arm64", () => {
    const build = workflow.jobs.image!.steps.find((step) => step.uses?.startsWith("docker/build-push-action@"));
    expect(build?.with).toEqual(expect.objectContaining({ platforms: "linux/amd64,linux/arm64", push: true }));
    expect(workflow.jobs.image!.steps.some((step) => step.uses?.startsWith("docker/setup-qemu-action@"))).toBe(true);
  });
});
