/**
 * Issue 30, item 6: the spec in every client generator a frontend team is likely to pick. Each generator runs as
 * a user runs it (its own program, on spec/openapi.yaml, into a folder of a temporary project; orval from its
 * configuration file, which gives the started mock as base URL); the code it writes is compiled by this package's
 * TypeScript under `--strict`, all four in one run of the native compiler `npm run typecheck` uses (TypeScript 7,
 * the same verdicts as 5.9 for a fraction of its CPU). Each generated fetch client then calls the four GETs of
 * endpoints 1, 2, 5 and 15 on a started mock, given the credentials and nothing else: no client sends the
 * content-type section 5 requires there, and each gets 200.
 *
 * The generators are devDependencies pinned to exact versions (package.json); none reaches the network.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { parse, stringify } from "yaml";
import { createMockServer } from "../../src/hosts/node/create-mock-server.ts";
import { sharedContract } from "../support/mock-harness.ts";
import { DEMO, tinyFixtures } from "../support/tiny-fixtures.ts";
import { PACKAGE_ROOT } from "../support/start-process.ts";

const run = promisify(execFile);
const SPEC = join(PACKAGE_ROOT, "spec", "openapi.yaml");
const bin = (name: string) => join(PACKAGE_ROOT, "node_modules", ".bin", name);

/** Each generator's program and arguments for a spec and an output folder: its fetch client, defaults otherwise. */
const GENERATORS: Record<string, { program: string; args: (spec: string, out: string) => string[] }> = {
  "hey-api": {
    program: "openapi-ts",
    args: (spec, out) => ["-i", spec, "-o", out, "-c", "@hey-api/client-fetch", "--silent", "--no-log-file"],
  },
  // Its bin is named `openapi`, as @redocly/cli's is: which one node_modules/.bin links depends on the install, so
  // the package's own file.
  "openapi-typescript-codegen": {
    program: "../openapi-typescript-codegen/bin/index.js",
    args: (spec, out) => ["-i", spec, "-o", out, "-c", "fetch"],
  },
  // Its fetch client calls relative URLs unless its configuration gives a base URL, as a user's does outside a
  // browser: its configuration file (written by `orvalConfig`), the spec, the folder and the mock's address.
  orval: { program: "orval", args: (spec, out) => ["--config", orvalConfig(spec, out)] },
  "swagger-typescript-api": {
    program: "swagger-typescript-api",
    args: (spec, out) => ["generate", "-p", spec, "-o", out, "-n", "api.ts", "--silent"],
  },
};

let project = "";
/** The mock the generated clients call; started before they are generated, since orval's holds its address. */
const mock = createMockServer({
  fixtures: tinyFixtures(),
  contract: sharedContract(),
  validateResponses: true,
  quiet: true,
});
let url = "";
/** The compiler's diagnostics (first lines), paths relative to the project. */
let diagnostics: string[] = [];
/** What each generator printed. */
const printed: Record<string, string> = {};

/** Writes orval's configuration for `spec`, its fetch client into `out` with the mock as base URL; its path. */
function orvalConfig(spec: string, out: string): string {
  const file = join(project, "orval.config.cjs");
  const config = { plk: { input: spec, output: { target: join(out, "api.ts"), client: "fetch", baseUrl: url } } };
  writeFileSync(file, `module.exports = ${JSON.stringify(config)};\n`);
  return file;
}

async function generate(name: string, spec: string, out: string): Promise<void> {
  const { program, args } = GENERATORS[name]!;
  const { stdout, stderr } = await run(bin(program), args(spec, join(project, out)), {
    cwd: project,
    encoding: "utf8",
  });
  printed[out] = stdout + stderr;
}

beforeAll(async () => {
  url = (await mock.listen(0, "127.0.0.1")).url;
  project = mkdtempSync(join(tmpdir(), "plk-generators-"));
  // The spec as it was before issue 30 in one respect: ProblemFieldError's location enum inline under its
  // property `in`. openapi-typescript-codegen names such an enum after the property, so the compiler must fail.
  const former = parse(readFileSync(SPEC, "utf8")) as {
    components: { schemas: Record<string, { properties: Record<string, unknown> }> };
  };
  former.components.schemas.ProblemFieldError!.properties.in = { type: "string", enum: ["body", "path", "header"] };
  writeFileSync(join(project, "former.yaml"), stringify(former));
  // One after the other: the machine's cores are shared with the rest of the suite.
  for (const name of Object.keys(GENERATORS)) await generate(name, SPEC, name);
  await generate("openapi-typescript-codegen", join(project, "former.yaml"), "former-codegen");
  writeFileSync(
    join(project, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        target: "es2022",
        lib: ["es2022", "dom", "dom.iterable"],
        module: "esnext",
        moduleResolution: "bundler",
        noEmit: true,
        skipLibCheck: true,
        types: [],
      },
      include: ["**/*.ts"],
    }),
  );
  try {
    await run(process.execPath, [join(PACKAGE_ROOT, "node_modules", "typescript-7", "bin", "tsc"), "-p", "."], {
      cwd: project,
      encoding: "utf8",
    });
  } catch (error) {
    // Diagnostics are the compiler's stdout; anything on stderr means it did not run as a typecheck should.
    if ((error as { stderr: string }).stderr !== "") throw error;
    diagnostics = (error as { stdout: string }).stdout.split("\n").filter((line) => line !== "" && !/^\s/.test(line));
  }
});
afterAll(async () => {
  rmSync(project, { recursive: true, force: true });
  await mock.close();
});

const errorsIn = (folder: string) => diagnostics.filter((line) => line.startsWith(`${folder}/`));

describe.each(Object.keys(GENERATORS))("%s", (name) => {
  it("generates from the spec without a warning about it", () => {
    expect(printed[name]).not.toMatch(/warn|error|fail/i);
  });

  it("writes code that compiles under tsc --strict", () => {
    expect(errorsIn(name)).toEqual([]);
  });
});

it("the compile step fails on bad generated code: the old inline enum of openapi-typescript-codegen", () => {
  expect(errorsIn("former-codegen").join("\n")).toMatch(/ProblemFieldError\.ts.*error TS/);
  // Nothing else failed to compile: the diagnostics are all the former spec's.
  expect(diagnostics.filter((line) => !line.startsWith("former-codegen/"))).toEqual([]);
});

describe("a generated client against the mock, with credentials and no other header", () => {
  /** The four GETs' answers as each client gives them: status and the part of the body a test compares. */
  interface Answers {
    property: [number, unknown];
    byExternalId: [number, unknown];
    list: [number, unknown];
    templates: [number, unknown];
  }
  const expectAll200 = (answers: Answers) => {
    expect(answers).toEqual({
      property: [200, "1001"],
      byExternalId: [200, "1001"],
      list: [200, 1],
      templates: [200, 23],
    });
    // The requests reached the mock without content-type: no client sent one, and none was added here.
    const gets = mock.requests().filter((entry) => entry.method === "GET");
    expect(gets).toHaveLength(4);
    for (const entry of gets) expect(entry.headers).not.toHaveProperty("content-type");
    expect(mock.violations).toEqual([]);
  };
  afterEach(() => mock.reset());

  it("hey-api's: its security schemes carry the credentials", async () => {
    const sdk = await import(join(project, "hey-api", "sdk.gen.ts"));
    const { client } = await import(join(project, "hey-api", "client.gen.ts"));
    client.setConfig({
      baseUrl: url,
      auth: (auth: { name?: string }) => (auth.name === "API-KEY" ? DEMO["API-KEY"] : DEMO.TOKEN),
    });
    const property = await sdk.retrieveProperty({ path: { nid: 1001 } });
    const byExternalId = await sdk.retrievePropertyByExternalId({ path: { "external-id": "crm-1001" } });
    const list = await sdk.listUserProperties({ path: { uid: 1 } });
    const templates = await sdk.retrieveTemplateCatalogue();
    expectAll200({
      property: [property.response.status, property.data?.nid],
      byExternalId: [byExternalId.response.status, byExternalId.data?.nid],
      list: [list.response.status, list.data?.length],
      templates: [templates.response.status, templates.data?.templates.length],
    });
  });

  it("openapi-typescript-codegen's: its configured headers carry the credentials (no API-key schemes)", async () => {
    const { OpenAPI, PropertiesService, TemplatesService } = await import(
      join(project, "openapi-typescript-codegen", "index.ts")
    );
    Object.assign(OpenAPI, { BASE: url, HEADERS: { ...DEMO } });
    // It throws on a status other than 2xx, so a value is a 200.
    expectAll200({
      property: [200, (await PropertiesService.retrieveProperty(1001)).nid],
      byExternalId: [200, (await PropertiesService.retrievePropertyByExternalId("crm-1001")).nid],
      list: [200, (await PropertiesService.listUserProperties(1)).length],
      templates: [200, (await TemplatesService.retrieveTemplateCatalogue()).templates.length],
    });
  });

  it("orval's (with the mock as configured base URL): each call's RequestInit carries the credentials", async () => {
    const api = await import(join(project, "orval", "api.ts"));
    const init = { headers: { ...DEMO } };
    const property = await api.retrieveProperty(1001, init);
    const byExternalId = await api.retrievePropertyByExternalId("crm-1001", init);
    const list = await api.listUserProperties(1, init);
    const templates = await api.retrieveTemplateCatalogue(init);
    expectAll200({
      property: [property.status, property.data.nid],
      byExternalId: [byExternalId.status, byExternalId.data.nid],
      list: [list.status, list.data.length],
      templates: [templates.status, templates.data.templates.length],
    });
  });

  it("swagger-typescript-api's: its security worker carries the credentials", async () => {
    const { Api } = await import(join(project, "swagger-typescript-api", "api.ts"));
    const api = new Api({ baseUrl: url, securityWorker: () => ({ headers: { ...DEMO } }) }).api;
    const property = await api.retrieveProperty(1001);
    const byExternalId = await api.retrievePropertyByExternalId("crm-1001");
    const list = await api.listUserProperties(1);
    const templates = await api.retrieveTemplateCatalogue();
    expectAll200({
      property: [property.status, property.data.nid],
      byExternalId: [byExternalId.status, byExternalId.data.nid],
      list: [list.status, list.data.length],
      templates: [templates.status, templates.data.templates.length],
    });
  });
});
