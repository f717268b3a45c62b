/**
 * `property-listing-kit/testcontainers` against a real Docker engine: the container class started from the image's
 * name and from the Dockerfile, waiting for /healthz, answering the base URL and credentials; `--db`, a profile and
 * accounts. Ryuk (Testcontainers' reaper) is off here, as no registry is reachable to pull its image: the tests stop
 * and remove what they start. Users keep it on. Runs where an engine answers (test/support/docker.ts).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { DEMO_HEADERS, docker, DOCKER_AVAILABLE, kitImage, NO_DOCKER, run, uniqueName } from "../support/docker.ts";
import { PACKAGE_ROOT } from "../support/start-process.ts";

// Before testcontainers is loaded: no reaper image can be pulled on a machine that reaches no registry.
process.env.TESTCONTAINERS_RYUK_DISABLED ??= "true";
const { PropertyListingMockContainer, DEMO_CREDENTIALS } = await import("../../src/testcontainers.ts");
const started: Array<{ stop(): Promise<unknown> }> = [];
const images: string[] = [];
let image = "";

beforeAll(async () => {
  if (DOCKER_AVAILABLE) image = await kitImage();
}, 20 * 60_000);

// Each test's containers stop when it ends: one left running would keep serving and running the image's HEALTHCHECK
// until the end of the file.
afterEach(async () => {
  for (const container of started.splice(0)) await container.stop().catch(() => undefined);
});

afterAll(async () => {
  for (const tag of images.splice(0)) await run("docker", ["rmi", "-f", tag]);
});

async function start<Started extends { stop(): Promise<unknown> }>(container: {
  start(): Promise<Started>;
}): Promise<Started> {
  const running = await container.start();
  started.push(running);
  return running;
}

const PROFILE = {
  profileVersion: 1,
  runId: "testcontainers-1",
  recordedAt: "2026-01-02T03:04:05.000Z",
  observations: {
    "error.unauthorized.wrong": {
      step: "a step",
      observedAt: "2026-01-02T03:04:05.000Z",
      runId: "testcontainers-1",
      statuses: [403],
      mediaTypes: ["application/json; charset=utf-8"],
      example: { error: "bad credentials", kind: "auth" },
      schema: {
        type: "object",
        properties: { error: { type: "string" }, kind: { type: "string" } },
        required: ["error", "kind"],
      },
    },
  },
};

describe("PropertyListingMockContainer (property-listing-kit/testcontainers)", () => {
  it("starts from an image name, healthy, and answers the base URL and demo credentials that the API takes", async ({
    skip,
  }) => {
    skip(!DOCKER_AVAILABLE, NO_DOCKER);
    // As a user imports it: the package's export, the built JavaScript.
    const exported = await import("property-listing-kit/testcontainers");
    const mock = await start(new exported.PropertyListingMockContainer(image));
    expect(mock.getBaseUrl()).toMatch(/^http:\/\/[^/]+:\d+$/);
    expect(mock.getCredentials()).toEqual(DEMO_CREDENTIALS);
    expect(mock.getHeaders()).toEqual(DEMO_HEADERS);
    expect((await fetch(`${mock.getBaseUrl()}/healthz`)).status).toBe(200);
    const answer = await fetch(`${mock.getBaseUrl()}/api/v1/object/properties/1`, { headers: mock.getHeaders() });
    expect(answer.status).toBe(200);
    expect(((await answer.json()) as unknown[]).length).toBeGreaterThan(0);
    const wrong = await fetch(`${mock.getBaseUrl()}/api/v1/object/properties/1`, {
      headers: mock.getHeaders({ apiKey: "demo-key", token: "not-the-token" }),
    });
    expect(wrong.status).toBeGreaterThanOrEqual(400);
  });

  it(
    "builds the kit's Dockerfile and starts the image it built",
    async ({ skip }) => {
      skip(!DOCKER_AVAILABLE, NO_DOCKER);
      const tag = `${uniqueName("plk-testcontainers")}:built`;
      images.push(tag);
      const container = await PropertyListingMockContainer.build({ context: PACKAGE_ROOT, tag });
      expect(await docker("image", "inspect", "--format", "{{.Config.User}}", tag)).toBe("node");
      const mock = await start(container);
      expect(
        (await fetch(`${mock.getBaseUrl()}/api/v1/object/agent_cards`, { headers: mock.getHeaders() })).status,
      ).toBe(200);
    },
    20 * 60_000,
  );

  it("refuses to build where there is no Dockerfile, saying what to do instead", async () => {
    await expect(PropertyListingMockContainer.build({ context: join(PACKAGE_ROOT, "spec") })).rejects.toThrow(
      /Dockerfile is missing: building the image needs a clone/,
    );
  });

  it("withDb keeps a create across a restart of the container, which kills the mock", async ({ skip }) => {
    skip(!DOCKER_AVAILABLE, NO_DOCKER);
    const mock = await start(new PropertyListingMockContainer(image).withDb());
    const created = await fetch(`${mock.getBaseUrl()}/api/v1/object/property`, {
      method: "POST",
      headers: mock.getHeaders(),
      body: JSON.stringify({ street: "3 Restart Ave", city: "Austin", state: "TX", zip: "78701" }),
    });
    expect(created.status).toBe(200);
    const { nid } = (await created.json()) as { nid: string };
    await mock.restart(); // Testcontainers restarts with no grace period: SIGKILL
    const kept = await fetch(`${mock.getBaseUrl()}/api/v1/object/property/${nid}`, { headers: mock.getHeaders() });
    expect(kept.status).toBe(200);
    expect(await kept.json()).toMatchObject({ street: "3 Restart Ave" });
    // Without --db the same restart starts from the seed again.
    const plain = await start(new PropertyListingMockContainer(image));
    const lost = await fetch(`${plain.getBaseUrl()}/api/v1/object/property`, {
      method: "POST",
      headers: plain.getHeaders(),
      body: JSON.stringify({ street: "4 Gone St", city: "Austin", state: "TX", zip: "78701" }),
    });
    const { nid: lostNid } = (await lost.json()) as { nid: string };
    await plain.restart();
    expect(
      (await fetch(`${plain.getBaseUrl()}/api/v1/object/property/${lostNid}`, { headers: plain.getHeaders() })).status,
    ).toBe(404);
  });

  it("withAccounts admits only the listed accounts, and answers the first one's credentials", async ({ skip }) => {
    skip(!DOCKER_AVAILABLE, NO_DOCKER);
    const mock = await start(
      new PropertyListingMockContainer(image).withAccounts([
        { apiKey: "ci-key", token: "ci-token", uid: 1 },
        { apiKey: "other-key", token: "other-token" },
      ]),
    );
    expect(mock.getCredentials()).toEqual({ apiKey: "ci-key", token: "ci-token" });
    const listed = await fetch(`${mock.getBaseUrl()}/api/v1/object/properties/1`, { headers: mock.getHeaders() });
    expect(listed.status).toBe(200);
    expect(((await listed.json()) as unknown[]).length, "uid 1 reaches the seeded properties").toBeGreaterThan(0);
    expect(
      (
        await fetch(`${mock.getBaseUrl()}/api/v1/object/agent_cards`, {
          headers: mock.getHeaders({ apiKey: "other-key", token: "other-token" }),
        })
      ).status,
    ).toBe(200);
    expect(
      (await fetch(`${mock.getBaseUrl()}/api/v1/object/agent_cards`, { headers: mock.getHeaders(DEMO_CREDENTIALS) }))
        .status,
    ).toBe(401);
  });

  it("withProfile answers as the profile says, given as an object or JSON text, and names it at /healthz", async ({
    skip,
  }) => {
    skip(!DOCKER_AVAILABLE, NO_DOCKER);
    for (const profile of [PROFILE, JSON.stringify(PROFILE)]) {
      const mock = await start(new PropertyListingMockContainer(image).withProfile(profile));
      const wrong = await fetch(`${mock.getBaseUrl()}/api/v1/object/agent_cards`, {
        headers: mock.getHeaders({ apiKey: "demo-key", token: "not-the-token" }),
      });
      expect(wrong.status).toBe(403);
      expect(await wrong.json()).toEqual({ error: expect.any(String), kind: "auth" });
      expect(JSON.stringify(await (await fetch(`${mock.getBaseUrl()}/healthz`)).json())).toContain("testcontainers-1");
    }
  });

  it("fails to start on a profile the mock refuses, instead of waiting for a health that never comes", async ({
    skip,
  }) => {
    skip(!DOCKER_AVAILABLE, NO_DOCKER);
    // The mock exits 2 naming what it refuses; the start fails on that exit, with the mock's last lines, rather than
    // at the end of the start-up timeout.
    await expect(new PropertyListingMockContainer(image).withProfile({ profileVersion: 2 }).start()).rejects.toThrow(
      /exited[\s\S]*profile/i,
    );
  });
});

describe("the testcontainers module stays apart", () => {
  it("no other module of the kit imports it or testcontainers, so the core and the bins run without it", () => {
    const sources = readdirSync(join(PACKAGE_ROOT, "src"), { recursive: true, encoding: "utf8" }).filter(
      (path) => path.endsWith(".ts") && path !== "testcontainers.ts",
    );
    const importers = sources.filter((path) =>
      /from "(testcontainers|[./]+testcontainers(\.ts)?)"|import\("testcontainers"\)/.test(
        readFileSync(join(PACKAGE_ROOT, "src", path), "utf8"),
      ),
    );
    expect(importers).toEqual([]);
    expect(readFileSync(join(PACKAGE_ROOT, "dist", "cli", "mock.js"), "utf8")).not.toMatch(
      /from ["']testcontainers["']/,
    );
    const manifest = JSON.parse(readFileSync(join(PACKAGE_ROOT, "package.json"), "utf8")) as Record<
      string,
      Record<string, unknown>
    >;
    expect(manifest.exports!["./testcontainers"]).toEqual({
      types: "./dist/testcontainers.d.ts",
      default: "./dist/testcontainers.js",
    });
    expect(manifest.peerDependenciesMeta!.testcontainers).toEqual({ optional: true });
    expect(manifest.dependencies!.testcontainers).toBeUndefined();
  });
});
