/**
 * Helpers shared by the Prism end-to-end tests: start `scripts/prism.ts` as a real process on a free port (by
 * itself, or through a command of the README), wait until it answers HTTP (by polling, never a fixed sleep), and
 * build a valid request for any operation.
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { fileURLToPath, pathToFileURL } from "node:url";
import { setTimeout as delay } from "node:timers/promises";
import type { Contract } from "../../src/contract/create-contract.ts";
import type { Operation } from "../../src/contract/operation-table.ts";
import { resolvePointer } from "../../src/spec/json-pointer.ts";
import type {
  ExampleObject,
  MediaTypeObject,
  OpenApiDocument,
  RequestBodyObject,
  ResponseObject,
} from "../../src/spec/openapi-document.ts";
import { HANG_MS } from "../support/deadlines.ts";
import { onPort } from "../support/readme-commands.ts";
import { freePort, startProcess } from "../support/start-process.ts";

export { freePort };

export const LAUNCHER = fileURLToPath(new URL("../../scripts/prism.ts", import.meta.url));
const TSX_LOADER = pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href;

/** Credentials the spec's security schemes ask for; Prism checks presence, not value. */
export const CREDENTIALS = { "API-KEY": "demo-key", TOKEN: "demo-token" } as const;

/** A valid value for every path parameter of the spec. */
export const PATH_VALUES: Record<string, string> = { nid: "1024", uid: "1", "external-id": "crm-000123" };

/**
 * Retries a request to `url` every `intervalMs` until anything answers over HTTP (any status), failing after
 * `deadlineMs` or as soon as `gaveUp()` says the server process is gone.
 */
export async function waitUntilAnswering(
  url: string,
  {
    deadlineMs = HANG_MS,
    intervalMs = 100,
    gaveUp = () => false,
  }: { deadlineMs?: number; intervalMs?: number; gaveUp?: () => boolean } = {},
): Promise<void> {
  const deadline = Date.now() + deadlineMs;
  for (;;) {
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(2_000) });
      await response.body?.cancel();
      return;
    } catch {
      // Not listening yet: try again below.
    }
    if (gaveUp()) throw new Error(`${url}: the server exited before answering`);
    if (Date.now() > deadline) throw new Error(`${url}: no answer within ${deadlineMs} ms`);
    await delay(intervalMs);
  }
}

/** A launcher process that answers on `url`. */
export interface RunningPrism {
  url: string;
  port: number;
  /** Everything the launcher and Prism printed so far (stdout and stderr). */
  output(): string;
  /** Sends SIGTERM (the launcher forwards it to Prism) and waits for the launcher to exit. */
  stop(): Promise<void>;
}

/**
 * Starts `scripts/prism.ts <args> --port <free port>` the way `npm run` does (through tsx), from a foreign
 * working directory so that the launcher has to find Prism and the spec by itself.
 */
export async function startLauncher(args: readonly string[]): Promise<RunningPrism> {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    ["--import", TSX_LOADER, LAUNCHER, ...args, "--port", String(port), "--host", "127.0.0.1"],
    {
      cwd: tmpdir(),
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let output = "";
  const collect = (chunk: Buffer) => {
    output = (output + chunk.toString("utf8")).slice(-200_000);
  };
  child.stdout.on("data", collect);
  child.stderr.on("data", collect);
  const exited = once(child, "exit");
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill("SIGTERM");
    const forced = setTimeout(() => child.kill("SIGKILL"), 5_000);
    await exited;
    clearTimeout(forced);
  };
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitUntilAnswering(url, { gaveUp: () => child.exitCode !== null || child.signalCode !== null });
  } catch (error) {
    await stop();
    throw new Error(`${(error as Error).message}\n--- launcher output ---\n${output}`);
  }
  return { url, port, output: () => output, stop };
}

/**
 * Starts a command of the README as typed in a shell (`npm run mock:prism`, ...) in the package, on a free port
 * and the loopback, as test/e2e/readme-commands.test.ts would run it.
 */
export async function startCommand(line: string): Promise<RunningPrism> {
  const port = await freePort();
  const started = startProcess("sh", ["-c", `exec ${onPort(line, port)}`]);
  const stop = async () => {
    if (started.child.exitCode !== null || started.child.signalCode !== null) return;
    started.signal("SIGTERM"); // the whole process group: npm, the launcher and Prism, as Ctrl-C would
    const forced = setTimeout(() => started.signal("SIGKILL"), 5_000);
    await started.exited;
    clearTimeout(forced);
  };
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitUntilAnswering(url, {
      gaveUp: () => started.child.exitCode !== null || started.child.signalCode !== null,
    });
  } catch (error) {
    await stop();
    throw new Error(`${(error as Error).message}\n--- output of ${line} ---\n${started.output()}`);
  }
  return { url, port, output: started.output, stop };
}

/** A request as the tests send it; `body` is the JSON value to send, if any. */
export interface TestRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: unknown;
}

/** An answer as the tests read it: the body parsed as JSON when it is JSON, else undefined. */
export interface TestAnswer {
  status: number;
  headers: Headers;
  text: string;
  json: unknown;
}

/** Sends a request, with `extraHeaders` added, and reads the whole answer. */
export async function send(
  baseUrl: string,
  request: TestRequest,
  extraHeaders: Record<string, string> = {},
): Promise<TestAnswer> {
  const response = await fetch(baseUrl + request.path, {
    method: request.method,
    headers: { ...request.headers, ...extraHeaders },
    body: request.body === undefined ? undefined : JSON.stringify(request.body),
  });
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, text, json };
}

/** The operation's path with every parameter filled from {@link PATH_VALUES}. */
export function concretePath(operation: Operation): string {
  return operation.pathTemplate.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = PATH_VALUES[name];
    if (value === undefined) throw new Error(`No test value for path parameter ${name} of ${operation.id}`);
    return encodeURIComponent(value);
  });
}

/**
 * A request the contract accepts: credentials, `content-type: application/json`, path parameters from
 * {@link PATH_VALUES}, and for an operation with a body the first example of its JSON request body.
 */
export function validRequest(contract: Contract, operation: Operation): TestRequest {
  const request: TestRequest = {
    method: operation.method,
    path: concretePath(operation),
    headers: { ...CREDENTIALS, "content-type": "application/json" },
  };
  if (operation.requestBody) {
    const body = deref<RequestBodyObject>(contract.document, operationObject(contract.document, operation).requestBody);
    request.body = firstExample(contract.document, body?.content["application/json"], `${operation.id} request body`);
  }
  return request;
}

/** The first example of the operation's JSON response for `status`. */
export function responseExample(document: OpenApiDocument, operation: Operation, status: string): unknown {
  const response = deref<ResponseObject>(document, operationObject(document, operation).responses[status]);
  return firstExample(document, response?.content?.["application/json"], `${operation.id} ${status} response`);
}

function operationObject(document: OpenApiDocument, operation: Operation) {
  const found = document.paths[operation.pathTemplate]?.[operation.method.toLowerCase() as "get"];
  if (!found) throw new Error(`${operation.method} ${operation.pathTemplate} is not in the spec`);
  return found;
}

function firstExample(document: OpenApiDocument, media: MediaTypeObject | undefined, label: string): unknown {
  const first = Object.values(media?.examples ?? {})[0];
  const example = deref<ExampleObject>(document, first);
  if (example?.value === undefined) throw new Error(`${label} has no example`);
  return example.value;
}

function deref<T>(document: OpenApiDocument, value: unknown): T | undefined {
  if (value !== null && typeof value === "object" && "$ref" in value && typeof value.$ref === "string") {
    return resolvePointer(document, value.$ref) as T | undefined;
  }
  return value as T | undefined;
}
