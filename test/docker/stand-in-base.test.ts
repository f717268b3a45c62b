/**
 * scripts/docker/stand-in-base.sh reads what to stand in for from the Dockerfile's FROM lines: the same Debian
 * release and Node version, so that changing the FROM changes the stand-in. Its `--plan` prints what it would make
 * without touching Docker, which is what is checked here (no engine needed); test/docker/container.test.ts runs on
 * what it made, in CI.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { PACKAGE_ROOT } from "../support/start-process.ts";
import { readDockerfile, readStages } from "./read-dockerfile.ts";

const SCRIPT = join(PACKAGE_ROOT, "scripts/docker/stand-in-base.sh");
const dir = mkdtempSync(join(tmpdir(), "plk-stand-in-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** `--plan` on a Dockerfile of these lines: its exit code, its key=value lines, and what it said on stderr. */
function plan(lines: string[] | undefined): { status: number | null; plan: Record<string, string>; stderr: string } {
  let file = join(PACKAGE_ROOT, "Dockerfile");
  if (lines) {
    file = join(dir, `Dockerfile-${Math.abs(hash(lines.join("\n")))}`);
    writeFileSync(file, `${lines.join("\n")}\n`);
  }
  const ran = spawnSync("bash", [SCRIPT, "--plan", file], { encoding: "utf8", timeout: 60_000 });
  const entries = ran.stdout
    .split("\n")
    .filter((line) => line.includes("="))
    .map((line) => [line.slice(0, line.indexOf("=")), line.slice(line.indexOf("=") + 1)]);
  return { status: ran.status, plan: Object.fromEntries(entries) as Record<string, string>, stderr: ran.stderr };
}

function hash(text: string): number {
  let value = 0;
  for (const char of text) value = (value * 31 + char.charCodeAt(0)) | 0;
  return value;
}

describe("scripts/docker/stand-in-base.sh --plan", () => {
  it("stands in for the image the Dockerfile's stages are built on, with its Debian release and Node version", () => {
    const image = readStages(readDockerfile(readFileSync(join(PACKAGE_ROOT, "Dockerfile"), "utf8"))).at(-1)!.image;
    const [, node, release] = /^node:(\d+\.\d+\.\d+)-([a-z]+)-slim$/.exec(image)!;
    const { status, plan: made, stderr } = plan(undefined);
    expect(status, stderr).toBe(0);
    expect(made).toMatchObject({ image, node, release, npm: "10" });
    expect(made.mirror).toMatch(/^https?:\/\//);
    expect(made.key).toMatch(/^[0-9a-f]{16}$/);
  });

  it("follows a changed FROM, stage names aside, and keys the kept image by it", () => {
    const current = plan(undefined).plan;
    const changed = plan([
      "FROM node:22.11.0-trixie-slim AS build",
      "RUN npm ci",
      "FROM build AS check",
      "FROM node:22.11.0-trixie-slim",
      'CMD ["node"]',
    ]);
    expect(changed.status, changed.stderr).toBe(0);
    expect(changed.plan).toMatchObject({ image: "node:22.11.0-trixie-slim", node: "22.11.0", release: "trixie" });
    expect(changed.plan.key).not.toBe(current.key);
  });

  it("refuses, saying why, what it cannot stand in for", () => {
    const cases: Array<[string[], RegExp]> = [
      [["FROM node:20.20.2-bookworm-slim AS build", "FROM node:22.11.0-bookworm-slim"], /name several images/],
      [[`FROM node:20.20.2-bookworm-slim@sha256:${"a".repeat(64)}`], /no digest/],
      [["FROM debian:bookworm-slim"], /cannot stand in for "debian:bookworm-slim"/],
      [["FROM node:20-bookworm-slim"], /cannot stand in for "node:20-bookworm-slim"/],
      [["FROM node:20.20.2-bookworm"], /cannot stand in for "node:20.20.2-bookworm"/],
    ];
    for (const [lines, message] of cases) {
      const { status, stderr } = plan(lines);
      expect(status, lines.join(" / ")).not.toBe(0);
      expect(stderr, lines.join(" / ")).toMatch(message);
    }
  });
});
