/**
 * The typed client of docs/frontend.md (openapi-fetch over the types this package exports), as a frontend project would
 * use it: typechecked strictly, then run against a started mock. A changed export, path or schema breaks it.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMockServer } from "../../src/hosts/node/create-mock-server.ts";
import { sharedContract } from "../support/mock-harness.ts";
import { readmeExample } from "../support/readme-examples.ts";
import { PACKAGE_ROOT, startProcess } from "../support/start-process.ts";

const example = readmeExample("typed-client");
const mock = createMockServer({ contract: sharedContract(), validateResponses: true });
let project = "";
afterAll(() => {
  if (project) rmSync(project, { recursive: true, force: true });
});

beforeAll(() => {
  project = mkdtempSync(join(tmpdir(), "plk-typed-client-"));
  mkdirSync(join(project, "node_modules", "@types"), { recursive: true });
  for (const name of ["openapi-fetch", "openapi-typescript-helpers", "@types/node"])
    symlinkSync(join(PACKAGE_ROOT, "node_modules", name), join(project, "node_modules", name), "dir");
  // The package as a consumer resolves it: through package.json's exports, to the declarations of dist/
  // (built by npm ci's prepare; built here when missing).
  symlinkSync(PACKAGE_ROOT, join(project, "node_modules", "property-listing-kit"), "dir");
  if (!existsSync(join(PACKAGE_ROOT, "dist", "index.d.ts")))
    execFileSync("npm", ["run", "--silent", "build"], { cwd: PACKAGE_ROOT, stdio: "pipe" });
  writeFileSync(join(project, "package.json"), JSON.stringify({ name: "frontend", type: "module", private: true }));
  writeFileSync(
    join(project, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        noUncheckedIndexedAccess: true,
        module: "nodenext",
        moduleResolution: "nodenext",
        target: "es2022",
        noEmit: true,
        skipLibCheck: true,
        types: ["node"],
      },
      include: ["*.ts"],
    }),
  );
});
afterAll(() => mock.close());

/**
 * The example and two copies that break the contract, typechecked together in one compiler run: each file is a
 * module of its own, and the compiler names the file of each error (paths relative to the project).
 */
/** `property-listing-kit/client`'s client, typed through the package's exports and dist/client.d.ts. */
const LISTING_CLIENT = `import { createListingClient, type ListingClient } from "property-listing-kit/client";
const api: ListingClient = createListingClient({
  baseUrl: "http://127.0.0.1:4010",
  apiKey: "demo-key",
  token: "demo-token",
});
const { data, error } = await api.GET("/api/v1/object/property/{nid}", { params: { path: { nid: 1001 } } });
const street: string | null | undefined = data?.street;
const failed: boolean = error !== undefined;
export { street, failed };
`;
const FILES = {
  "client.ts": example,
  "listing-client.ts": LISTING_CLIENT,
  "listing-client-string-nid.ts": LISTING_CLIENT.replace("nid: 1001", 'nid: "1001"'),
  "string-nid.ts": example.replace("{ params: { path: { nid } } }", '{ params: { path: { nid: "1031" } } }'),
  "no-slash.ts": example.replace('"/api/v1/object/agent_card/"', '"/api/v1/object/agent_card"'),
};
/** The first line of each of the compiler's diagnostics (their indented continuations left out). */
let diagnostics: string[] = [];
beforeAll(() => {
  for (const [file, code] of Object.entries(FILES)) writeFileSync(join(project, file), code);
  try {
    execFileSync(process.execPath, [join(PACKAGE_ROOT, "node_modules", "typescript", "bin", "tsc"), "-p", "."], {
      cwd: project,
      encoding: "utf8",
      stdio: "pipe",
    });
  } catch (error) {
    // Diagnostics are the compiler's stdout; anything on stderr means it did not run as a typecheck should.
    if ((error as { stderr: string }).stderr !== "") throw error;
    diagnostics = (error as { stdout: string }).stdout.split("\n").filter((line) => line !== "" && !/^\s/.test(line));
  }
});
const errorsIn = (file: string) => diagnostics.filter((line) => line.startsWith(`${file}(`));

describe("the typed client of docs/frontend.md", () => {
  it("typechecks strictly against the exported types", () => {
    // Every diagnostic is in one of the two broken copies: none in the example, none about the project.
    expect(
      diagnostics.filter(
        (line) =>
          !line.startsWith("string-nid.ts(") &&
          !line.startsWith("no-slash.ts(") &&
          !line.startsWith("listing-client-string-nid.ts("),
      ),
    ).toEqual([]);
  });

  it("does not typecheck when it breaks the contract (a string nid in a path, a path without its slash)", () => {
    expect(errorsIn("string-nid.ts").join("\n")).toMatch(/error TS2322/);
    expect(errorsIn("no-slash.ts").join("\n")).toMatch(/error TS2345/);
    expect(errorsIn("listing-client-string-nid.ts").join("\n")).toMatch(/error TS2322/);
  });

  it("runs against a started mock and prints what it created", async () => {
    const { url } = await mock.listen(0);
    writeFileSync(join(project, "client.ts"), example.replace("http://127.0.0.1:4010", url));
    const run = startProcess(process.execPath, ["--import", "tsx", join(project, "client.ts")]);
    expect(await run.exited, run.output()).toBe(0);
    expect(run.output().trim().split("\n")).toEqual(["1 Main St 3", expect.stringMatching(/^200 \d+$/)]);
    expect(mock.violations).toEqual([]);
  });
});
