/**
 * The suite's two groups (test/support/run-groups.ts, vitest.config.ts): every file that drives Chromium runs in the
 * first, no file there may start a container, and the groups run one after the other, each file in one of them.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import config from "../../vitest.config.ts";
import { BROWSER_FILES, DRIVES_CHROMIUM, DRIVES_DOCKER, FIRST_GROUP } from "../support/run-groups.ts";
import { PACKAGE_ROOT } from "../support/start-process.ts";

/** The suite's test files, by path from the package's root. */
const FILES = ["test", "src"].flatMap((folder) =>
  (readdirSync(join(PACKAGE_ROOT, folder), { recursive: true }) as string[])
    .map((path) => `${folder}/${path.split("\\").join("/")}`)
    .filter((path) => path.endsWith(".test.ts")),
);
const source = (path: string) => readFileSync(join(PACKAGE_ROOT, path), "utf8");

/** A glob of the shapes the groups use (`*`, and `**` for any folders), as a pattern of the whole path. */
function globPattern(glob: string): RegExp {
  const body = glob
    .split("**/")
    .map((part) =>
      part
        .split("*")
        .map((text) => text.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
        .join("[^/]*"),
    )
    .join("(?:.*/)?");
  return new RegExp(`^${body}$`);
}
const inGroup = (globs: readonly string[]) => (path: string) => globs.some((glob) => globPattern(glob).test(path));

type Project = { test: { name: string; include?: string[]; exclude?: string[]; sequence?: { groupOrder?: number } } };
const projects = (config.test?.projects ?? []) as Project[];

describe("the suite's run groups", () => {
  it("run every file that drives Chromium in the first group", () => {
    const browsers = FILES.filter((path) => DRIVES_CHROMIUM.test(source(path)));
    expect(browsers).toContain("test/e2e/storybook-example.test.ts");
    expect(browsers.filter((path) => !inGroup(BROWSER_FILES)(path))).toEqual([]);
  });

  it("start no container in the first group", () => {
    const engines = FILES.filter((path) => DRIVES_DOCKER.test(source(path)));
    expect(engines).toEqual(expect.arrayContaining(["test/docker/container.test.ts", "test/bench/bench.test.ts"]));
    expect(engines.filter(inGroup(FIRST_GROUP))).toEqual([]);
  });

  it("are the config's two projects, the browsers' first, each file in exactly one", () => {
    expect(projects.map(({ test }) => [test.name, test.sequence?.groupOrder])).toEqual([
      ["browsers", 0],
      ["containers", 1],
    ]);
    const [first, then] = projects.map(
      ({ test }) =>
        (path: string) =>
          inGroup(test.include ?? [])(path) && !inGroup(test.exclude ?? [])(path),
    ) as [(path: string) => boolean, (path: string) => boolean];
    expect(projects[0]!.test.include).toEqual(FIRST_GROUP);
    expect(FILES.filter((path) => first(path) === then(path))).toEqual([]);
    expect(FILES.filter(first).length).toBeGreaterThan(BROWSER_FILES.length);
  });
});
