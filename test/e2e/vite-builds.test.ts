/**
 * docs/frontend.md's recipe for builds beyond dev, built with Vite as a frontend project builds it: the guide's
 * vite.config.ts, src/main.ts and src/mocks/browser.ts, the kit resolved through its exports and its built dist/.
 * Without `VITE_MOCK` the production build holds none of the mock (no string only the mock or msw holds, and no
 * worker script) but does hold the typed client; with `VITE_MOCK=1` the demo build holds them all, which shows
 * that the markers searched for are the ones a leak would bring.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHROMIUM, CHROMIUM_AVAILABLE, openChromium } from "../support/chromium.ts";
import { readmeExample } from "../support/readme-examples.ts";
import { PACKAGE_ROOT, startProcess } from "../support/start-process.ts";

const VITE = join(PACKAGE_ROOT, "node_modules", "vite", "bin", "vite.js");
/** Strings only the mock (a problem title, an admin path, an operation id of the contract) or msw holds. */
const MOCK_MARKERS = [
  "Agent Already Exists",
  "/__admin/faults",
  "retrieveTemplateCatalogue",
  "property-listing-kit/msw",
  "mockServiceWorker",
  "[MSW]",
];
/** A string of the typed client: what the app itself uses in production. */
const CLIENT_MARKER = "API-KEY";

let project = "";
beforeAll(() => {
  project = mkdtempSync(join(tmpdir(), "plk-vite-builds-"));
  mkdirSync(join(project, "node_modules"));
  for (const name of ["vite", "msw", "openapi-fetch"])
    symlinkSync(join(PACKAGE_ROOT, "node_modules", name), join(project, "node_modules", name), "dir");
  // dist/ is built once for the whole run (test/support/build-once.ts).
  symlinkSync(PACKAGE_ROOT, join(project, "node_modules", "property-listing-kit"), "dir");
  writeFileSync(join(project, "package.json"), JSON.stringify({ name: "vite-app", type: "module", private: true }));
  writeFileSync(
    join(project, "index.html"),
    '<!doctype html><title>Listings</title><div id="app"></div><script type="module" src="/src/main.ts"></script>\n',
  );
  mkdirSync(join(project, "src", "mocks"), { recursive: true });
  writeFileSync(join(project, "vite.config.ts"), readmeExample("frontend-demo-vite-config"));
  writeFileSync(join(project, "src", "main.ts"), readmeExample("frontend-demo-main"));
  writeFileSync(join(project, "src", "mocks", "browser.ts"), readmeExample("frontend-demo-worker"));
  writeFileSync(
    join(project, "src", "api.ts"),
    readmeExample("frontend-typed-client").split("\n// anywhere in the app")[0]!,
  );
});
afterAll(() => rmSync(project, { recursive: true, force: true }));

/** Builds the app into `out` with the flag given, and reads back every file written. */
async function build(out: string, env: Record<string, string>): Promise<Record<string, string>> {
  // NODE_ENV as a shell that builds has it: vitest's own ("test") would make Vite build with DEV true.
  const run = startProcess(
    process.execPath,
    [VITE, "build", project, "--outDir", join(project, out), "--emptyOutDir", "--logLevel", "warn"],
    { NODE_ENV: "production", ...env },
  );
  const code = await run.exited;
  expect(code, run.output()).toBe(0);
  const files: Record<string, string> = {};
  const read = (folder: string) => {
    for (const entry of readdirSync(join(project, out, folder), { withFileTypes: true })) {
      const path = folder === "" ? entry.name : `${folder}/${entry.name}`;
      if (entry.isDirectory()) read(path);
      else files[path] = readFileSync(join(project, out, path), "utf8");
    }
  };
  read("");
  return files;
}

const found = (files: Record<string, string>, marker: string) =>
  Object.keys(files).filter((name) => name.includes(marker) || files[name]!.includes(marker));

/** The account each build signs in with: a real one in production, the shipped fixtures' demo account in the demo. */
const PRODUCTION_CREDENTIALS = { VITE_API_KEY: "live-key", VITE_API_TOKEN: "live-token" };
const DEMO_CREDENTIALS = { VITE_API_KEY: "demo-key", VITE_API_TOKEN: "demo-token" };

describe("docs/frontend.md's demo and production builds with Vite", () => {
  let demo: Record<string, string> = {};

  it("keeps the mock, msw and the worker script out of the production build, and puts them in the VITE_MOCK=1 build", {
    timeout: 120_000,
  }, async () => {
    const production = await build("dist-production", PRODUCTION_CREDENTIALS);
    demo = await build("dist-demo", { ...DEMO_CREDENTIALS, VITE_MOCK: "1" });
    expect(Object.keys(production)).toContain("index.html");
    expect(found(production, CLIENT_MARKER).length).toBeGreaterThan(0);
    for (const marker of MOCK_MARKERS)
      expect(found(production, marker), `"${marker}" in the production build`).toEqual([]);
    expect(existsSync(join(project, "dist-production", "mockServiceWorker.js"))).toBe(false);

    for (const marker of MOCK_MARKERS)
      expect(found(demo, marker).length, `"${marker}" in the demo build`).toBeGreaterThan(0);
    expect(Object.keys(demo)).toContain("mockServiceWorker.js");
    // The mock is a chunk of its own, loaded only when the flag starts it: the entry holds the app and the worker's
    // address alone.
    const entry = Object.keys(demo).find((name) => name.startsWith("assets/index-") && name.endsWith(".js"))!;
    expect(MOCK_MARKERS.filter((marker) => marker !== "mockServiceWorker" && demo[entry]!.includes(marker))).toEqual(
      [],
    );
  });

  it(`serves the demo build as vite preview would, and the mock answers the app in the page (needs ${CHROMIUM})`, {
    timeout: 120_000,
  }, async ({ skip }) => {
    skip(!CHROMIUM_AVAILABLE || Object.keys(demo).length === 0, `${CHROMIUM} is missing, or the builds above failed`);
    const reached: string[] = [];
    const site = createServer((request, response) => {
      const path = new URL(request.url ?? "/", "http://x").pathname.slice(1) || "index.html";
      reached.push(path);
      const file = demo[path];
      response.statusCode = file === undefined ? 404 : 200;
      response.setHeader(
        "content-type",
        path.endsWith(".html") ? "text/html" : path.endsWith(".js") ? "text/javascript" : "text/plain",
      );
      response.end(file ?? "not here");
    });
    await new Promise<void>((resolve) => site.listen(0, "127.0.0.1", resolve));
    const browser = await openChromium();
    try {
      const tab = await browser.newPage();
      await tab.goto(`http://127.0.0.1:${(site.address() as AddressInfo).port}/`);
      await tab.waitForFunction(
        () =>
          /properties$/.test(
            (
              globalThis as unknown as { document: { querySelector(s: string): { textContent: string } } }
            ).document.querySelector("#app").textContent,
          ),
        undefined,
        { timeout: 60_000 },
      );
      const text = await tab.evaluate(
        () =>
          (
            globalThis as unknown as { document: { querySelector(s: string): { textContent: string } } }
          ).document.querySelector("#app").textContent,
      );
      expect(Number(text.split(" ")[0])).toBeGreaterThan(0);
      // The worker answered the API: no API request reached the page's own server.
      expect(reached.filter((path) => path.startsWith("api/"))).toEqual([]);
    } finally {
      await browser.close();
      site.close();
    }
  });
});
