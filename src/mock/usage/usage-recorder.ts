import type { Contract } from "../../contract/build-contract.ts";
import { mediaTypeOf } from "../../contract/build-contract.ts";
import {
  USAGE_VERSION,
  type UsageAccount,
  type UsageDocument,
  type UsageStartState,
  type UsageTruncation,
} from "../../contract/usage/usage-document.ts";
import { SPEC_SHA256 } from "../../generated/openapi-document.ts";
import type { Answered, ApiCall } from "../http/api-interceptor.ts";
import type { AppliedFaults } from "../services/journal-entry.ts";
import { JsonBytes } from "../json-bytes.ts";
import { encodeReply } from "../http/reply.ts";
import type { MockStore } from "../store/mock-store.ts";
import type { AnswerBasis } from "./answer-basis.ts";
import { collectionOfPath, type OpenTest, type RecordCollection } from "./recorded-test.ts";
import { runningTestName } from "./running-test-name.ts";
import { firstHeader } from "../http/mock-request.ts";
import { credentialValues, recordedHeaders } from "./usage-headers.ts";
import { writeUsageTest, type AnswerPiece } from "./write-usage-test.ts";

/** Where recording stops, so that memory stays bounded whatever a suite does. */
export interface UsageLimits {
  /** Tests recorded in all (default 2,000). */
  maxTests: number;
  /** Interactions recorded per test (default 500); past it the test is marked `truncated`. */
  maxInteractionsPerTest: number;
  /** Bytes of the whole document (default 32 MiB). */
  maxBytes: number;
}

export const DEFAULT_USAGE_LIMITS: UsageLimits = {
  maxTests: 2_000,
  maxInteractionsPerTest: 500,
  maxBytes: 32 * 1024 * 1024,
};
/** Accounts a usage names by role (the usage schema's bound). */
export const MAX_USAGE_ACCOUNTS = 100;
/** The name of the test a call belongs to when none was begun. */
export const UNNAMED_TEST = "(no test named)";
/** A credential shorter than this is not looked for in what is written: it would match ordinary text. */
const MIN_REDACTED_LENGTH = 6;
const MAX_CREDENTIALS = 1_000;
const PREFIX_OPENED = "Opened on first use";
const MAX_PATHS_PER_TEST = 10_000;

/** What the recorder is built from. */
export interface UsageRecorderDeps {
  consumer: string;
  contract: Contract;
  store: MockStore;
  basis: AnswerBasis;
  /** The name of the state the mock is in (`"given"` for records a test gave). */
  currentState: () => string;
  /** Accounts are configured (`--accounts`): none opens on first use. */
  configured: boolean;
  profile?: { source: string; runId: string; recordedAt: string };
  /** The mock's clock, in milliseconds: timestamps it stamps while recording are written as 0. */
  now: () => number;
  limits?: Partial<UsageLimits>;
}

/** What a program does with a mock's usage: name the test that begins, and read the document. */
export interface UsageControl {
  /** Ends the test under way (if any) and begins this one; the state it starts from is the mock's now. */
  beginTest(name: string): void;
  /** The usage document so far (the test under way included). */
  toJSON(): UsageDocument;
  /** The document as written to a file: the same bytes for the same suite. */
  text(): string;
}

/** A test name that can be recorded, or why not. */
export function testNameProblem(name: unknown): string | undefined {
  if (typeof name !== "string") return `must be a string, got ${name === null ? "null" : typeof name}`;
  if (name.length === 0) return "must not be empty";
  if (name.length > 1000) return `must be at most 1000 characters, got ${name.length}`;
  return undefined;
}

/**
 * Records a consumer's usage, test by test: each API call the mock answered with an operation, its request
 * (credentials replaced by the account's role), its answer, and the start records its ids name. Cheap while
 * recording (the answer is kept as the text sent; nothing is parsed), the work is done once per test when it
 * ends (write-usage-test.ts). Bounded: tests, interactions per test, bytes, accounts; past a bound it stops and
 * the document says where.
 */
export class UsageRecorder implements UsageControl {
  readonly #deps: UsageRecorderDeps;
  readonly #limits: UsageLimits;
  /** Ended tests: written (their JSON line), or waiting to be, which happens when the document is first read. */
  readonly #written: Array<string | OpenTest> = [];
  #writtenBytes = 0;
  #open: OpenTest | undefined;
  /** The runner's test (`runningTestName`) when a test last began: a call under another one begins it. */
  #runnerTest: string | undefined;
  #stopped = false;
  #truncated: UsageTruncation | undefined;
  /** Accounts by API key (held here only, never written): their place, uid, source and global role. */
  readonly #accounts = new Map<string, { index: number; uid: string; source: UsageAccount["source"]; role?: string }>();
  readonly #roles: UsageAccount[] = [];
  #globalRoles = 0;
  #fresh: UsageAccount | undefined;
  readonly #credentials = new Set<string>();
  readonly #stampsFrom: number;
  readonly #listeners: Array<() => void> = [];
  readonly #replacer: (key: string, value: unknown) => unknown;
  readonly #pieces = new Map<string, AnswerPiece>();

  constructor(deps: UsageRecorderDeps) {
    this.#deps = deps;
    this.#limits = { ...DEFAULT_USAGE_LIMITS, ...deps.limits };
    this.#stampsFrom = Math.floor(deps.now() / 1000);
    this.#replacer = (key, value) => {
      if (typeof value === "string") return this.#redact(key, value);
      if ((key === "created" || key === "changed") && typeof value === "number" && value >= this.#stampsFrom) return 0;
      return value;
    };
  }

  /** Told each time a test ends (the next began, or the recording closed). */
  onTestEnd(listener: () => void): void {
    this.#listeners.push(listener);
  }

  beginTest(name: string): void {
    const problem = testNameProblem(name);
    if (problem) throw new TypeError(`beginTest: the test's name ${problem}.`);
    const running = runningTestName();
    // A test the runner began under its own name, that has made no call yet, takes the name the test gives itself
    // (a story names itself by its id inside the runner's test), rather than leaving an empty test behind.
    const open = this.#open;
    if (
      open &&
      running !== undefined &&
      open.name === running &&
      this.#runnerTest === running &&
      open.calls.length === 0
    ) {
      open.bytes += name.length - open.name.length;
      open.name = name;
      return;
    }
    this.#runnerTest = running;
    this.#end();
    if (this.#stopped) return;
    if (this.#written.length >= this.#limits.maxTests)
      return this.#stop({ reason: "max-tests", limit: this.#limits.maxTests, at: { test: name } });
    this.#open = this.#newTest(name);
  }

  /** The mock's state was reset: a test that has made no call yet starts from the new one. */
  stateChanged(): void {
    const open = this.#open;
    if (open && open.calls.length === 0) {
      open.start = this.#startState();
      open.records.clear();
      open.externalIds.clear();
      open.paths.clear();
    }
  }

  /** Before the call is answered: the start records its path names are kept as they are now. */
  before(call: ApiCall): void {
    if (this.#stopped) return;
    const test = this.#current();
    if (!test || test.truncated || test.paths.has(call.path)) return;
    // Paths a test sends are few; a client inventing a new one on every request must not grow the cache past this.
    if (test.paths.size >= MAX_PATHS_PER_TEST) test.paths.clear();
    const found = this.#deps.contract.match(call.method, call.path);
    if (found.kind !== "operation") {
      test.paths.set(call.path, null);
      return;
    }
    test.paths.set(call.path, sortedParams(found.pathParams));
    const collection = collectionOfPath(found.operation.pathTemplate);
    const nid = found.pathParams.nid;
    if (collection && nid !== undefined && /^[0-9]{1,16}$/.test(nid)) this.#capture(test, collection, Number(nid));
    const external = found.pathParams["external-id"];
    if (external !== undefined) {
      const account = this.#deps.store.accountByKey(firstHeader(call.request.headers, "api-key") ?? "");
      const id = account ? this.#deps.store.propertyIdByExternalId(account.id, external) : undefined;
      if (id !== undefined) {
        test.externalIds.set(external, String(id));
        this.#capture(test, "properties", id);
      }
    }
  }

  /**
   * Once answered: the call recorded (an API operation's answered, not a fault a test asked for), from what
   * answering it gave; that passed on, its reply encoded when the text was made here.
   */
  record(call: ApiCall, answered: Answered): Answered {
    const { reply, operationId } = answered;
    if (!reply || this.#stopped || operationId === undefined || injected(answered.fault)) return answered;
    const test = this.#current();
    if (!test || test.truncated) return answered;
    if (test.calls.length >= this.#limits.maxInteractionsPerTest) {
      test.truncated = true;
      this.#truncated ??= {
        reason: "max-interactions-per-test",
        limit: this.#limits.maxInteractionsPerTest,
        at: { test: test.name, interaction: test.calls.length },
      };
      return answered;
    }
    const { headers } = call.request;
    const mediaType = reply.mediaType ? (mediaTypeOf(reply.mediaType) ?? null) : reply.contentType;
    const shape = {
      operationId,
      status: reply.status,
      mediaType,
      ...(reply.profilePoint ? { errorPoint: reply.profilePoint } : {}),
    };
    if (!this.#deps.basis.known(shape)) return answered;
    // The text sent, encoded once (reply.ts): the reply passed on is the encoded one, which the host writes as is.
    const encoded = encodeReply(reply);
    const sent = encoded === reply ? answered : { ...answered, reply: encoded };
    const body = encoded.body;
    const answer =
      body instanceof JsonBytes
        ? typeof body.encoded === "string"
          ? body.encoded
          : body.encoded.slice()
        : body === undefined
          ? undefined
          : String(body);
    const requestBody = answered.body === undefined ? undefined : JSON.stringify(answered.body);
    // What the call takes once written: its answer, and up to three times as much for the basis of its fields
    // (a field resting on an assumption writes its name and the marked place).
    const bytes =
      4 * (typeof answer === "string" ? answer.length : (answer?.byteLength ?? 0)) +
      2 * (requestBody?.length ?? 0) +
      600 +
      2 * call.path.length;
    if (this.#writtenBytes + test.bytes + bytes > this.#limits.maxBytes) {
      test.truncated = true;
      this.#stop({
        reason: "max-bytes",
        limit: this.#limits.maxBytes,
        at: { test: test.name, interaction: test.calls.length },
      });
      return sent;
    }
    const apiKey = firstHeader(headers, "api-key");
    const token = firstHeader(headers, "token");
    for (const value of credentialValues(headers)) {
      if (
        value.length < MIN_REDACTED_LENGTH ||
        this.#credentials.has(value) ||
        this.#credentials.size >= MAX_CREDENTIALS
      )
        continue;
      this.#credentials.add(value);
      // Answers written before may hold it: they are written again.
      this.#pieces.clear();
    }
    let account: string | null = null;
    let credentials: "missing" | "wrong" | undefined;
    if (!apiKey || !token) credentials = "missing";
    else {
      const record = this.#deps.store.accountByKey(apiKey);
      if (record && record.token === token) {
        const role = this.#roleOf(test, apiKey, record.id, record.name);
        if (role === undefined) return sent;
        account = role;
      } else credentials = "wrong";
    }
    if (operationId === "createDocument" || operationId === "updateDocument") {
      const reference = (answered.body as { property_reference?: unknown } | undefined)?.property_reference;
      if (typeof reference === "number" && Number.isSafeInteger(reference))
        this.#capture(test, "properties", reference);
    }
    test.bytes += bytes;
    test.calls.push({
      operation: operationId,
      method: call.method,
      path: call.path,
      params: test.paths.get(call.path) ?? {},
      headers: recordedHeaders(headers),
      account,
      ...(credentials ? { credentials } : {}),
      ...(requestBody === undefined ? {} : { requestBody }),
      status: reply.status,
      mediaType,
      answer,
      ...(reply.profilePoint ? { errorPoint: reply.profilePoint } : {}),
      ...(reply.mediaType && reply.status === 200 ? { profiledMedia: true } : {}),
    });
    return sent;
  }

  /** Ends the test under way: what a close, or the end of the run, does. */
  finish(): void {
    this.#end();
  }

  toJSON(): UsageDocument {
    return JSON.parse(this.text()) as UsageDocument;
  }

  text(): string {
    for (let at = 0; at < this.#written.length; at += 1) {
      const test = this.#written[at]!;
      if (typeof test === "string") continue;
      const text = this.#write(test);
      this.#writtenBytes += text.length - test.bytes;
      this.#written[at] = text;
    }
    const tests = [...(this.#written as string[])];
    if (this.#open) tests.push(this.#write(this.#open));
    const head: Omit<UsageDocument, "tests" | "truncated"> = {
      $schema: "https://property-listing.example/schemas/usage.schema.json",
      usageVersion: USAGE_VERSION,
      consumer: this.#deps.consumer,
      contract: {
        title: this.#deps.contract.document.info.title,
        version: this.#deps.contract.document.info.version,
        sha256: SPEC_SHA256,
      },
      ...(this.#deps.profile ? { profile: this.#deps.profile } : {}),
      accounts: this.#fresh ? [...this.#roles, this.#fresh] : this.#roles,
    };
    const lines = Object.entries(head).map(
      ([key, value]) => `  ${JSON.stringify(key)}: ${JSON.stringify(value, this.#replacer)}`,
    );
    lines.push(`  "tests": [${tests.length === 0 ? "]" : `\n    ${tests.join(",\n    ")}\n  ]`}`);
    if (this.#truncated) lines.push(`  "truncated": ${JSON.stringify(this.#truncated, this.#replacer)}`);
    return `{\n${lines.join(",\n")}\n}\n`;
  }

  #current(): OpenTest | undefined {
    // A test of the runner that no hook began (and that named none of its own) begins on its first call.
    const running = runningTestName();
    if (running !== undefined && running !== this.#runnerTest && testNameProblem(running) === undefined)
      this.beginTest(running);
    if (this.#open) return this.#open;
    if (this.#written.length >= this.#limits.maxTests) {
      this.#stop({ reason: "max-tests", limit: this.#limits.maxTests, at: { test: UNNAMED_TEST } });
      return undefined;
    }
    this.#open = this.#newTest(UNNAMED_TEST);
    return this.#open;
  }

  #newTest(name: string): OpenTest {
    return {
      name,
      start: this.#startState(),
      calls: [],
      records: new Map(),
      externalIds: new Map(),
      paths: new Map(),
      roles: new Map(),
      uids: new Map(),
      freshTaken: false,
      truncated: false,
      bytes: name.length + 200,
    };
  }

  #startState(): UsageStartState {
    const name = this.#deps.currentState();
    return name === "given" ? { kind: "own" } : { kind: "named", name };
  }

  #end(): void {
    const open = this.#open;
    if (!open) return;
    this.#open = undefined;
    this.#written.push(open);
    this.#writtenBytes += open.bytes;
    for (const listener of this.#listeners) listener();
  }

  #write(test: OpenTest): string {
    return writeUsageTest(test, {
      basis: this.#deps.basis,
      pathOf: (id) => this.#deps.contract.operation(id)?.pathTemplate,
      replacer: this.#replacer,
      pieces: this.#pieces,
    });
  }

  #stop(truncation: UsageTruncation): void {
    this.#stopped = true;
    this.#truncated ??= truncation;
  }

  /** A record of the state as it is now, kept (once per test) in case the test's requests name it. */
  #capture(test: OpenTest, collection: RecordCollection, id: number): void {
    const key = `${collection}/${id}`;
    if (test.records.has(key)) return;
    const { store } = this.#deps;
    const record = store.record(collection, id);
    if (!record) return;
    const text = JSON.stringify(record);
    test.records.set(key, text);
    test.bytes += text.length;
  }

  /** The role of an account in a test: `fresh` for the first a seats-full test uses, else its role in the suite. */
  #roleOf(test: OpenTest, apiKey: string, uid: number, name: string): string | undefined {
    let entry = this.#accounts.get(apiKey);
    if (!entry) {
      if (this.#accounts.size >= MAX_USAGE_ACCOUNTS) {
        this.#stop({
          reason: "max-accounts",
          limit: MAX_USAGE_ACCOUNTS,
          at: { test: test.name, interaction: test.calls.length },
        });
        test.truncated = true;
        return undefined;
      }
      const source = this.#deps.configured
        ? "configured"
        : name.startsWith(PREFIX_OPENED)
          ? "opened-on-first-use"
          : "demo";
      entry = { index: this.#accounts.size, uid: String(uid), source };
      this.#accounts.set(apiKey, entry);
    }
    const known = test.roles.get(entry.index);
    if (known) return known;
    let role: string;
    if (!test.freshTaken && test.start.kind === "named" && test.start.name === "seats-full") {
      test.freshTaken = true;
      role = "fresh";
      this.#fresh ??= { role, uid: String(uid), source: entry.source };
    } else {
      if (entry.role === undefined) {
        const n = this.#globalRoles++;
        entry.role = n === 0 ? "primary" : n === 1 ? "other" : `account-${n + 1}`;
        this.#roles.push({ role: entry.role, uid: entry.uid, source: entry.source });
      }
      role = entry.role;
    }
    test.roles.set(entry.index, role);
    test.uids.set(role, String(uid));
    return role;
  }

  /** A string as written: no credential's value, no auto-login token. */
  #redact(key: string, value: string): string {
    let text = value;
    if (key === "uri" || text.includes("/autologin/"))
      text = text.replace(/\/autologin\/[^/?#"\s]+/g, "/autologin/<ACCESS_TOKEN>");
    for (const secret of this.#credentials) if (text.includes(secret)) text = text.split(secret).join("<CREDENTIAL>");
    return text;
  }
}

/**
 * A call answered by a fault a test asked for (`Prefer: code`, a fault rule's status or drop): not the service's
 * answer.
 */
function injected(fault: AppliedFaults | undefined): boolean {
  return (
    fault !== undefined &&
    (fault.prefer?.code !== undefined || fault.rule?.status !== undefined || fault.rule?.drop === true)
  );
}

function sortedParams(params: Record<string, string>): Record<string, string> {
  const keys = Object.keys(params);
  if (keys.length <= 1) return params;
  return Object.fromEntries(keys.sort().map((key) => [key, params[key]!]));
}
