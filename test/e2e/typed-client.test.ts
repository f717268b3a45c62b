/**
 * The README's typed client (openapi-fetch over the types this package exports), as a frontend project would
 * use it: typechecked strictly, then run against a started mock. A changed export, path or schema breaks it.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMockServer } from "../../src/mock/create-mock-server.ts";
import { sharedContract } from "../support/mock-harness.ts";
import { readmeExample } from "../support/readme-examples.ts";
import { PACKAGE_ROOT, startProcess } from "../support/start-process.ts";

const example = readmeExample("typed-client");
const mock = createMockServer({ contract: sharedContract(), validateResponses: true });
let project = "";

beforeAll(() => {
  project = mkdtempSync(join(tmpdir(), "plk-typed-client-"));
  mkdirSync(join(project, "node_modules", "@types"), { recursive: true });
  for (const name of ["openapi-fetch", "openapi-typescript-helpers", "@types/node"]) symlinkSync(join(PACKAGE_ROOT, "node_modules", name), join(project, "node_modules", name), "dir");
  // The package as a consumer resolves it: through package.json's exports, to the declarations of dist/
  // (built by npm ci's prepare; built here when missing).
  symlinkSync(PACKAGE_ROOT, join(project, "node_modules", "property-listing-kit"), "dir");
  if (!existsSync(join(PACKAGE_ROOT, "dist", "index.d.ts"))) execFileSync("npm", ["run", "--silent", "build"], { cwd: PACKAGE_ROOT, stdio: "pipe" });
  writeFileSync(join(project, "package.json"), JSON.stringify({ name: "frontend", type: "module", private: true }));
  writeFileSync(
    join(project, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: {
        strict: true, noUncheckedIndexedAccess: true, module: "nodenext", moduleResolution: "nodenext", target: "es2022", noEmit: true,
        skipLibCheck: true, types: ["node"],
      },
      include: ["*.ts"],
    }),
  );
});
afterAll(() => mock.close());

/** Typechecks `code` as the project's only file; the compiler's output, empty when it passes. */
function typecheck(code: string): string {
  writeFileSync(join(project, "client.ts"), code);
  try {
    execFileSync(process.execPath, [join(PACKAGE_ROOT, "node_modules", "typescript", "bin", "tsc"), "-p", project], { encoding: "utf8", stdio: "pipe" });
    return "";
  } catch (error) {
    return (error as { stdout: string }).stdout;
  }
}

describe("the README's typed client", () => {
  it("typechecks strictly against the exported types", () => {
    expect(typecheck(example)).toBe("");
  }, 120_000);

  it("does not typecheck when it breaks the contract (a string nid in a path, a path without its slash)", () => {
    expect(typecheck(example.replace("{ params: { path: { nid } } }", '{ params: { path: { nid: "1031" } } }'))).toMatch(/error TS2322/);
    expect(typecheck(example.replace('"/api/v1/object/agent_card/"', '"/api/v1/object/agent_card"'))).toMatch(/error TS2345/);
  }, 120_000);

  it("runs against a started mock and prints what it created", async () => {
    const { url } = await mock.listen(0);
    writeFileSync(join(project, "client.ts"), example.replace("http://127.0.0.1:4010", url));
    const run = startProcess(process.execPath, ["--import", "tsx", join(project, "client.ts")]);
    expect(await run.exited, run.output()).toBe(0);
    expect(run.output().trim().split("\n")).toEqual(["1 Main St 3", expect.stringMatching(/^200 \d+$/)]);
    expect(mock.violations).toEqual([]);
  });
});
