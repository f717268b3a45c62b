/**
 * The host's network, shared by the test files (test/support/host-network.ts): every file that drives Chromium holds
 * it steady, every file that drives a Docker engine holds it changing, the suite's config takes the holds for them,
 * and the holds keep the two uses apart.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import config from "../../vitest.config.ts";
import { DRIVES_CHROMIUM, DRIVES_DOCKER, holdHostNetwork, hostNetworkUse } from "../support/host-network.ts";
import { PACKAGE_ROOT } from "../support/start-process.ts";

/** The suite's test files, by path from the package's root. */
const FILES = ["test", "src"].flatMap((folder) =>
  readdirSync(join(PACKAGE_ROOT, folder), { recursive: true, encoding: "utf8" })
    .map((path) => `${folder}/${path.split("\\").join("/")}`)
    .filter((path) => path.endsWith(".test.ts")),
);
const source = (path: string) => readFileSync(join(PACKAGE_ROOT, path), "utf8");

/** Lets every callback already due run: a hold that can be taken has been taken by then. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe("the test files' use of the host's network", () => {
  it("is steady for every file that drives Chromium and changing for every file that drives Docker", () => {
    const browsers = FILES.filter((path) => DRIVES_CHROMIUM.test(source(path)));
    const engines = FILES.filter((path) => DRIVES_DOCKER.test(source(path)));
    expect(browsers).toContain("test/e2e/storybook-example.test.ts");
    expect(engines).toEqual(expect.arrayContaining(["test/docker/container.test.ts", "test/bench/bench.test.ts"]));
    expect(browsers.filter((path) => hostNetworkUse(path) !== "steady")).toEqual([]);
    expect(engines.filter((path) => hostNetworkUse(path) !== "changing")).toEqual([]);
    expect(hostNetworkUse("test/contract/runner.test.ts")).toBeUndefined();
  });

  it("is held for each file by the suite's config: a room made once for the run, and a setup file", () => {
    expect(config.test?.globalSetup).toContain("test/support/host-network-room.ts");
    expect(config.test?.setupFiles).toContain("test/support/host-network-setup.ts");
  });
});

describe("holdHostNetwork", () => {
  const rooms: string[] = [];
  const room = () => {
    rooms.push(mkdtempSync(join(tmpdir(), "plk-host-network-test-")));
    return rooms.at(-1)!;
  };
  afterEach(() => {
    for (const folder of rooms.splice(0)) rmSync(folder, { recursive: true, force: true });
  });

  it("lets holders of one use in together, and a holder of the other only once they have all let go", async () => {
    const folder = room();
    const first = await holdHostNetwork(folder, "steady");
    const second = await holdHostNetwork(folder, "steady");
    let changing: (() => void) | undefined;
    const waiting = holdHostNetwork(folder, "changing").then((release) => {
      changing = release;
    });
    await settle();
    expect(changing).toBeUndefined();
    first();
    await settle();
    expect(changing).toBeUndefined();
    second();
    await waiting;
    expect(readdirSync(folder).map((name) => name.split("-")[0])).toEqual(["changing"]);
    // And the other way round: a steady holder waits for the changing one.
    let steady: (() => void) | undefined;
    const next = holdHostNetwork(folder, "steady").then((release) => {
      steady = release;
    });
    await settle();
    expect(steady).toBeUndefined();
    changing!();
    await next;
    steady!();
    expect(readdirSync(folder)).toEqual([]);
  });

  it("gives up after the time it was given, naming the holds it waited on, and leaves no claim behind", async () => {
    const folder = room();
    const steady = await holdHostNetwork(folder, "steady");
    await expect(holdHostNetwork(folder, "changing", 0)).rejects.toThrow(
      new RegExp(`still held steady after 0 min: steady-${process.pid}-\\d+$`),
    );
    steady();
    expect(readdirSync(folder)).toEqual([]);
  });

  it("pays no heed to a hold left by a process that is gone", async () => {
    const folder = room();
    const gone = spawnSync(process.execPath, ["-e", ""]).pid;
    writeFileSync(join(folder, `steady-${gone}-1`), "");
    const release = await holdHostNetwork(folder, "changing");
    release();
    expect(existsSync(join(folder, `steady-${gone}-1`))).toBe(true);
  });
});
