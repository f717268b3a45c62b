/**
 * docs/frontend.md's typed client and override examples, run by vitest in a project of their own with the kit
 * resolved as a consumer resolves it (its exports and built dist/): the override example as the guide writes it,
 * and the first-day trap the typed client avoids, a client made at module level before `server.listen()`.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readmeExample } from "../support/readme-examples.ts";
import { placeInstalledKit } from "../support/installed-kit.ts";
import { PACKAGE_ROOT } from "../support/start-process.ts";

/** The app module of the guide's typed client, with the address and account a test gives it. */
const API = readmeExample("frontend-typed-client")
  .split("\n// anywhere in the app")[0]!
  .replace("import.meta.env.VITE_API_URL ?? location.origin", '"http://localhost:4010"')
  .replace("import.meta.env.VITE_API_KEY", '"demo-key"')
  .replace("import.meta.env.VITE_API_TOKEN", '"demo-token"');

/** A test that imports the app's client before its set-up starts MSW, as a test of a component does. */
const CLIENT_TEST = `import { api } from "../src/api";
import { setupServer } from "msw/node";
import { afterAll, beforeAll, expect, it } from "vitest";
import "property-listing-kit/vitest";
import { createMockHandlers } from "property-listing-kit/msw";

const mock = createMockHandlers({ baseUrl: "http://localhost:4010" });
const server = setupServer(...mock.handlers);
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterAll(() => server.close());

it("reaches the handlers with a client made before server.listen()", async () => {
  const { data, response } = await api.GET("/api/v1/object/properties/{uid}", { params: { path: { uid: 1 } } });
  expect(response.status).toBe(200);
  expect(data?.length).toBeGreaterThan(0);
  expect(mock).toHaveReceived({
    path: "/api/v1/object/properties/1",
    headers: { "api-key": "demo-key", "content-type": "application/json" },
  });
  expect(mock.requests()[0]).toSatisfyContract();
});
`;

let project = "";
beforeAll(() => {
  project = mkdtempSync(join(tmpdir(), "plk-frontend-examples-"));
  mkdirSync(join(project, "node_modules"));
  for (const name of ["vitest", "msw", "openapi-fetch", "openapi-typescript-helpers"])
    symlinkSync(join(PACKAGE_ROOT, "node_modules", name), join(project, "node_modules", name), "dir");
  // dist/ is built once for the whole run (test/support/build-once.ts).
  placeInstalledKit(join(project, "node_modules"));
  writeFileSync(join(project, "package.json"), JSON.stringify({ name: "frontend", type: "module", private: true }));
  mkdirSync(join(project, "src"));
  mkdirSync(join(project, "test"));
  writeFileSync(join(project, "src", "api.ts"), API);
  writeFileSync(join(project, "test", "client.test.ts"), CLIENT_TEST);
  writeFileSync(join(project, "test", "override.test.ts"), readmeExample("frontend-override"));
  writeFileSync(join(project, "vitest.config.ts"), 'export default { test: { include: ["test/**/*.test.ts"] } };\n');
});
afterAll(() => rmSync(project, { recursive: true, force: true }));

describe("docs/frontend.md's typed client and override examples", () => {
  it("pass in a project of their own", { timeout: 150_000 }, () => {
    const run = spawnSync(
      process.execPath,
      [join(project, "node_modules", "vitest", "vitest.mjs"), "run", "--root", project],
      { cwd: project, encoding: "utf8", timeout: 120_000, env: { ...process.env, CI: "1" } },
    );
    expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0);
    expect(run.stdout).toMatch(/2 passed/);
  });
});
