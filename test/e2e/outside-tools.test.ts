/**
 * The page for outside tools (docs/outside-tools.md), run as a reader would: every command line of its `sh` blocks
 * runs here (the mock as `npm start` starts it, Prism's proxy in front of it, Redocly's bundle), except
 * Schemathesis, a Python program this suite cannot install, whose lines are skipped with that reason while what
 * they name is checked (the spec's address, the headers, the configuration). The page's Schemathesis
 * configuration names, per operation, exactly the documented answers that valid input gets when the state
 * refuses it; and the Dredd-style run it describes (each operation once, from the examples, in the document's
 * order) answers 200 throughout from a fresh mock.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolvePointer } from "../../src/spec/json-pointer.ts";
import { loadSpec } from "../../src/spec/load-spec.ts";
import { onPort } from "../support/readme-commands.ts";
import {
  freePort,
  killAll,
  PACKAGE_ROOT,
  startProcess,
  waitForHealthy,
  type StartedProcess,
} from "../support/start-process.ts";
import { startCommand, type RunningPrism } from "../prism/prism-harness.ts";
import { scratchFolder } from "../support/scratch-folder.ts";

const PAGE = readFileSync(join(PACKAGE_ROOT, "docs", "outside-tools.md"), "utf8");
const spec = loadSpec();
const DEMO = { "API-KEY": "demo-key", TOKEN: "demo-token", "content-type": "application/json" };
const SHOWN_MOCK = "http://127.0.0.1:4010";
const SHOWN_PROXY = "http://127.0.0.1:4012";
const SCHEMATHESIS_SKIP =
  "Schemathesis is a Python program and cannot be installed here: its lines are not run; the test above " +
  "checks what they name";

/**
 * Each line of the page's `sh` blocks, comments off, continued lines joined (as test/support/readme-commands.ts reads
 * them).
 */
const commands = [...PAGE.matchAll(/```sh\n([\s\S]*?)```/g)].flatMap((block) =>
  block[1]!
    .replace(/\\\n\s*/g, "")
    .split("\n")
    .map((line) => line.replace(/\s+#.*$/, "").trim())
    .filter((line) => line !== ""),
);
const command = (pattern: RegExp): string => {
  const found = commands.filter((line) => pattern.test(line));
  if (found.length !== 1)
    throw new Error(`docs/outside-tools.md has ${found.length} commands matching ${pattern}, not one`);
  return found[0]!;
};
const MOCK_LINE = /^npm start$/;
const PROXY_LINE = /^npm run proxy -- --target http:\/\/127\.0\.0\.1:4010$/;
const BUNDLE_LINE = /^npx redocly bundle spec\/openapi\.yaml /;
const SCHEMATHESIS_LINE = /^schemathesis run /;

const started: StartedProcess[] = [];
let mockUrl = "";
let prism: RunningPrism | undefined;

beforeAll(async () => {
  const port = await freePort();
  started.push(startProcess("sh", ["-c", `exec ${onPort(command(MOCK_LINE), port)}`]));
  mockUrl = `http://127.0.0.1:${port}`;
  await waitForHealthy(`${mockUrl}/healthz`);
});
afterAll(async () => {
  await prism?.stop();
  await killAll(started);
});

const METHODS = ["get", "post", "put", "delete"] as const;
/**
 * The spec's operations in the document's order, each with its documented statuses and the requests its examples make.
 */
const operations = Object.entries(spec.paths).flatMap(([path, item]) =>
  METHODS.filter((method) => item[method]).map((method) => {
    const operation = item[method]!;
    const parameters = [...(item.parameters ?? []), ...(operation.parameters ?? [])].map(
      (raw) => ("$ref" in raw ? resolvePointer(spec, raw.$ref) : raw) as { name: string; example?: unknown },
    );
    const body = operation.requestBody as
      | { content: Record<string, { examples?: Record<string, unknown> }> }
      | undefined;
    const [first] = Object.values(body?.content["application/json"]?.examples ?? {});
    const example =
      first && typeof first === "object" && "$ref" in first
        ? resolvePointer(spec, (first as { $ref: string }).$ref)
        : first;
    const concrete = path.replace(/\{([^}]+)\}/g, (_match, name: string) =>
      String(parameters.find((parameter) => parameter.name === name)!.example),
    );
    return {
      operationId: operation.operationId,
      method,
      path: concrete,
      body: (example as { value?: unknown } | undefined)?.value,
      statuses: Object.keys(operation.responses),
    };
  }),
);

describe("docs/outside-tools.md", () => {
  it("has only command lines this test runs, or skips with its reason", () => {
    expect(commands.length).toBeGreaterThanOrEqual(4);
    const known = [MOCK_LINE, PROXY_LINE, BUNDLE_LINE, SCHEMATHESIS_LINE];
    expect(commands.filter((line) => !known.some((pattern) => pattern.test(line)))).toEqual([]);
  });

  it(`${command(MOCK_LINE)}: the mock serves at /openapi.json the spec the tools read`, async () => {
    const answer = await fetch(`${mockUrl}/openapi.json`);
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual(JSON.parse(JSON.stringify(spec)));
  });

  it("the Schemathesis lines name the page's mock or proxy, the spec, and the demo account's headers", async () => {
    const lines = commands.filter((line) => SCHEMATHESIS_LINE.test(line));
    expect(lines).toHaveLength(2);
    for (const line of lines) {
      const [location, ...rest] = line.replace(SCHEMATHESIS_LINE, "").split(" ");
      const options = rest.join(" ");
      const target = /--url (\S+)/.exec(options)?.[1];
      expect([SHOWN_MOCK, SHOWN_PROXY], line).toContain(target);
      if (location === `${SHOWN_MOCK}/openapi.json`) expect((await fetch(`${mockUrl}/openapi.json`)).status).toBe(200);
      else expect(loadSpec(join(PACKAGE_ROOT, location!))).toEqual(spec);
      const headers = Object.fromEntries(
        [...options.matchAll(/--header "([^:]+): ([^"]+)"/g)].map((match) => [match[1]!, match[2]!]),
      );
      expect(headers, line).toEqual(DEMO);
    }
    // The headers are the demo account's: the mock answers them.
    expect((await fetch(`${mockUrl}/api/v1/object/template_base`, { headers: DEMO })).status).toBe(200);
  });

  for (const line of commands.filter((each) => SCHEMATHESIS_LINE.test(each))) {
    it(`runs: ${line}`, ({ skip }) => {
      skip(true, SCHEMATHESIS_SKIP);
    });
  }

  it("the Schemathesis configuration expects, per operation, the documented answers to valid input", () => {
    const config = readSchemathesisToml(/```toml\n([\s\S]*?)```/.exec(PAGE)![1]!);
    const ids = operations.map((operation) => operation.operationId);
    for (const override of config.operations) expect(ids).toEqual(expect.arrayContaining(override.ids));
    for (const operation of operations) {
      // Valid input never gets 400 (Invalid Request), 413 or 415; every other documented refusal depends on the
      // state.
      const expected = [
        "2xx",
        ...operation.statuses.filter((status) => !["200", "400", "413", "415"].includes(status)),
      ].sort();
      const override = config.operations.find((entry) => entry.ids.includes(operation.operationId));
      const effective = [...(override?.statuses ?? config.statuses)].sort();
      if (override) expect(effective, operation.operationId).toEqual(expected);
      else {
        expect(effective, operation.operationId).toEqual(expect.arrayContaining(expected));
        // The shared list may name a 404 that an operation without ids never answers; nothing else.
        expect(
          effective.filter((status) => !expected.includes(status) && status !== "404"),
          operation.operationId,
        ).toEqual([]);
      }
    }
  });

  it(`${command(BUNDLE_LINE)}: one JSON file without $ref, every operation and link in it`, async () => {
    const dir = scratchFolder("plk-outside-tools-");
    const line = command(BUNDLE_LINE).replace("--output openapi.json", `--output ${join(dir, "openapi.json")}`);
    const run = startProcess("sh", ["-c", line]);
    started.push(run);
    expect(await run.exited, run.output()).toBe(0);
    const text = readFileSync(join(dir, "openapi.json"), "utf8");
    expect(text).not.toContain('"$ref"');
    const bundled = JSON.parse(text) as typeof spec;
    expect(Object.keys(bundled.paths)).toEqual(Object.keys(spec.paths));
    expect(bundled.paths["/api/v1/object/agent_card/"]!.post!.responses["200"]).toHaveProperty(
      "links.retrieve.operationId",
      "retrieveAgentCard",
    );
  });

  it(`${command(PROXY_LINE)}: Prism's proxy before the mock passes a valid exchange with no violation`, async () => {
    prism = await startCommand(command(PROXY_LINE).replace(SHOWN_MOCK, mockUrl));
    const answer = await fetch(`${prism.url}/api/v1/object/property/1001`, { headers: DEMO });
    expect(answer.status, await answer.clone().text()).toBe(200);
    expect(answer.headers.get("sl-violations")).toBeNull();
    expect(((await answer.json()) as { nid: string }).nid).toBe("1001");
  });

  it("a Dredd-style run, each operation once from the spec's examples in order, gets 200 from a new mock", async () => {
    expect((await fetch(`${mockUrl}/__admin/reset`, { method: "POST" })).status).toBe(200);
    const answered: string[] = [];
    for (const operation of operations) {
      const answer = await fetch(`${mockUrl}${operation.path}`, {
        method: operation.method.toUpperCase(),
        headers: DEMO,
        ...(operation.body === undefined ? {} : { body: JSON.stringify(operation.body) }),
      });
      answered.push(
        `${operation.operationId} ${answer.status}${answer.status === 200 ? "" : ` ${await answer.text()}`}`,
      );
    }
    expect(answered).toEqual(operations.map((operation) => `${operation.operationId} 200`));
  });
});

/** The Schemathesis settings the page gives: the shared list, and each `[[operations]]` entry's ids and list. */
interface PositiveAcceptance {
  statuses: string[];
  operations: Array<{ ids: string[]; statuses: string[] }>;
}

/**
 * Reads the forms of TOML the page's configuration uses, and refuses any other line, so that the page cannot grow a
 * setting this test does not read. Values are TOML strings and arrays of strings, which read as JSON.
 */
function readSchemathesisToml(text: string): PositiveAcceptance {
  const config: PositiveAcceptance = { statuses: [], operations: [] };
  let table = "";
  for (const raw of text.split("\n")) {
    const line = raw.replace(/^\s*#.*$/, "").trim();
    if (line === "") continue;
    if (line === "[checks.positive_data_acceptance]" || line === "[[operations]]") {
      table = line;
      if (line === "[[operations]]") config.operations.push({ ids: [], statuses: [] });
      continue;
    }
    const [, key, value] = /^([a-z_.-]+) = (.+)$/.exec(line) ?? [];
    const parsed = JSON.parse(value ?? "null") as string | string[];
    const entry = config.operations.at(-1);
    if (table === "[checks.positive_data_acceptance]" && key === "expected-statuses") config.statuses = [parsed].flat();
    else if (table === "[[operations]]" && entry && key === "include-operation-id") entry.ids = [parsed].flat();
    else if (table === "[[operations]]" && entry && key === "checks.positive_data_acceptance.expected-statuses")
      entry.statuses = [parsed].flat();
    else throw new Error(`a line of the page's schemathesis.toml this test does not read: ${raw}`);
  }
  return config;
}
