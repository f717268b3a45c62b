/**
 * `property-listing-kit/msw` as a consumer installs it beside the MSW it uses: the packed kit and msw, installed in
 * an empty project outside the clone, a script there driving the handlers under `setupServer`. MSW 3 needs Node
 * 22.12 or later, so each Node runs the majors it allows: MSW 2 everywhere, MSW 3 from Node 22.12 (CI runs this
 * file on Node 20, 22 and 24). msw is the consumer's own install, never the kit's: the kit bundles none.
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { describe, expect, it } from "vitest";
import { consumerInstall, installOnce, npmInstall, removeUnused } from "../support/consumer-install.ts";

const [major = 0, minor = 0] = process.versions.node.split(".").map(Number);
const MSW3_ALLOWED = major > 22 || (major === 22 && minor >= 12);
const INSTALL_MS = 240_000;

/** The consumer's script: a handler set under setupServer, and what each call got. */
const SCRIPT = `
import { readFileSync } from "node:fs";
import { setupServer } from "msw/node";
import { createMockHandlers } from "property-listing-kit/msw";

const mock = createMockHandlers({ baseUrl: "http://mock.test" });
const server = setupServer(...mock.handlers);
server.listen({ onUnhandledRequest: "error" });
const headers = { "API-KEY": "demo-key", TOKEN: "demo-token", "content-type": "application/json" };
const call = async (method, path, body, sent = headers) => {
  const response = await fetch("http://mock.test" + path, {
    method,
    headers: sent,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, type: response.headers.get("content-type"), body: await response.json() };
};
const created = await call("POST", "/api/v1/object/property", {
  street: "3 Major St",
  city: "Austin",
  state: "TX",
  zip: "78701",
});
const retrieved = await call("GET", "/api/v1/object/property/" + created.body.nid);
const bad = await call("POST", "/api/v1/object/property", { street: 3 });
const anonymous = await call("GET", "/api/v1/object/properties/1", undefined, { "content-type": "application/json" });
mock.faults.add({ path: "/api/v1/object/template_base", drop: true, times: 1 });
const dropped = await fetch("http://mock.test/api/v1/object/template_base", { headers })
  .then(() => "answered", (error) => error.name);
const journal = mock.requests().length;
mock.reset();
const afterReset = await call("GET", "/api/v1/object/property/" + created.body.nid);
server.close();
const msw = JSON.parse(readFileSync(new URL("./node_modules/msw/package.json", import.meta.url), "utf8")).version;
console.log(JSON.stringify({
  msw,
  created: created.status,
  street: retrieved.body.street,
  bad: [bad.status, bad.type],
  anonymous: anonymous.status,
  dropped,
  journal,
  afterReset: afterReset.status,
}));
`;

/** Changes whenever the way of installing changes, so that a project installed the old way is not reused. */
const RECIPE = "npm install <archive> msw@<range> --omit=dev --prefer-offline --no-audit --no-fund, v1";
const PREFIX = "plk-msw-consumer-";

/**
 * The consumer project for one MSW range: the packed kit and msw installed and the script beside them, made once
 * and kept under the kit's install (named after its archive's SHA-256), the range, the script and the day, so that a
 * change to the package is never tested against an older install, and the newest msw of the range is fetched again
 * at least once a day. Runs after the first skip the install (some 10 s of npm on the 2-core machine).
 */
async function consumerWith(range: string): Promise<string> {
  const kit = await consumerInstall();
  const day = new Date().toISOString().slice(0, 10);
  const key = createHash("sha256")
    .update(`${basename(kit.project)} ${range} ${day} ${RECIPE}\n${SCRIPT}`)
    .digest("hex")
    .slice(0, 16);
  const project = join(tmpdir(), `${PREFIX}${key}`);
  removeUnused(PREFIX, project);
  await installOnce(project, (partial) => {
    writeFileSync(
      join(partial, "package.json"),
      JSON.stringify({ name: "msw-consumer", private: true, type: "module" }),
    );
    npmInstall(partial, [kit.archive, `msw@${range}`, "--omit=dev"], "npm install");
    writeFileSync(join(partial, "check.mjs"), SCRIPT);
  });
  return project;
}

async function runWith(range: string): Promise<Record<string, unknown>> {
  const project = await consumerWith(range);
  const ran = spawnSync(process.execPath, ["check.mjs"], { cwd: project, encoding: "utf8", timeout: 60_000 });
  if (ran.status !== 0) throw new Error(`the consumer's script failed:\n${ran.stdout}\n${ran.stderr}`);
  const bundled = readFileSync(
    join(project, "node_modules", "property-listing-kit", "dist", "hosts", "msw", "create-mock-handlers.js"),
    "utf8",
  );
  expect(bundled).toMatch(/from "msw"/); // the consumer's msw, imported, not a copy
  return JSON.parse(ran.stdout.trim().split("\n").at(-1)!) as Record<string, unknown>;
}

const EXPECTED = {
  created: 200,
  street: "3 Major St",
  bad: [400, "application/problem+json; charset=utf-8"],
  anonymous: 401,
  dropped: "TypeError",
  journal: 5,
  afterReset: 404,
};

describe("property-listing-kit/msw installed beside msw", () => {
  it("works with MSW 2", { timeout: INSTALL_MS + 60_000 }, async () => {
    const results = await runWith("2");
    expect(results).toEqual({ msw: expect.stringMatching(/^2\./), ...EXPECTED });
  });

  it("works with MSW 3 (Node 22.12 or later)", { timeout: INSTALL_MS + 60_000 }, async ({ skip }) => {
    skip(
      !MSW3_ALLOWED,
      `MSW 3 needs Node 22.12 or later; this is Node ${process.versions.node} (CI runs this file on Node 22 ` +
        `and 24 too)`,
    );
    const results = await runWith("3");
    expect(results).toEqual({ msw: expect.stringMatching(/^3\./), ...EXPECTED });
  });
});
