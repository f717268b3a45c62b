/**
 * The options both hosts take, defined once: their names and types ({@link MockOptions}), and a table of how
 * each is checked ({@link MOCK_OPTIONS}) that the MSW host checks with and the Node host extends with its own
 * (port, files, the request log). A host checks a program's options at its edge, once, and gives the core what
 * it read ({@link coreOptionsOf}); nothing past the edge meets an option it does not know.
 */
import { checkAccountConfigs, type AccountConfig } from "./account-config.ts";
import { definedOnly } from "./defined-only.ts";
import { parseLatency, type Latency } from "./services/latency.ts";
import { MAX_JOURNAL_SIZE } from "./services/request-journal.ts";
import { usageOptionProblem } from "./usage/check-usage-option.ts";
import type { UsageLimits } from "./usage/usage-recorder.ts";

/** The options of the mock that mean the same, and have the same type, in every host. */
export interface MockOptions {
  /**
   * Admit only these accounts (`--accounts`), instead of the seeded ones and instead of opening accounts on
   * first use.
   */
  accounts?: AccountConfig[];
  /** Agent seats of accounts opened on first use (`--agent-seats`); 10, or a played profile's, by default. */
  agentSeats?: number;
  /**
   * No account is opened on first use once the mock holds this many accounts (`--max-accounts`, default 10,000):
   * every new API key a client invents costs memory. A new key beyond it answers 401 saying so.
   */
  maxAccounts?: number;
  /** When set, the admin routes require `Authorization: Bearer <adminToken>` (`--admin-token`). */
  adminToken?: string;
  /**
   * Check every answer against the contract (`--validate-responses`); a mismatch answers 500 and is recorded in
   * `violations`.
   */
  validateResponses?: boolean;
  /** Largest request body accepted, in bytes; 1 MiB by default. */
  bodyLimit?: number;
  /** The clock, in milliseconds (documents' `created` and `changed`, the request journal's timestamps). */
  now?: () => number;
  /**
   * API requests the request journal keeps (`--journal-size`; `GET /__admin/requests`, `mock.requests()`); 0
   * keeps none.
   */
  journalSize?: number;
  /**
   * A delay added to every API answer (`--latency`): milliseconds, a range as the flag writes it (`"100-400"`,
   * uniformly random), or `{ min, max }`.
   */
  latency?: number | string | Latency;
  /** Draws the latency; `Math.random` unless a test wants it fixed. */
  random?: () => number;
  /**
   * The secret auto-login tokens are signed with; random unless given (give one for the same links every run; the
   * Node host keeps it in the `db` state).
   */
  autologinSecret?: string;
  /**
   * Record a consumer's usage: each test's requests and answers, and what each answer rests on. `consumer` names
   * it; `mock.usage.toJSON()` is the document. Tests begin with `mock.usage.beginTest(name)`,
   * `POST /__admin/usage/tests`, or by themselves under `property-listing-kit/vitest`.
   */
  usage?: { consumer: string; limits?: Partial<UsageLimits> };
}

/** How a host checks one of its options: all it needs to know of it beyond its type. */
export interface OptionDescriptor {
  /**
   * What is wrong with a value given (not undefined), in words the host's name goes before (`"journalSize" must
   * be …`), or undefined when it is right. Without it any value of the option's type is taken.
   */
  readonly problem?: (value: unknown) => string | undefined;
  /** The current name of an option this is the former name of: still taken, listed by no message. */
  readonly formerNameOf?: string;
}

/** A host's options by name, each with its descriptor. */
export type OptionTable = Readonly<Record<string, OptionDescriptor>>;

/** Takes any value of the option's type (a function, a flag), or one its host reads and checks where it uses it. */
export const ANY: OptionDescriptor = {};

/** The check of a whole number (seats, accounts, bytes) an option counts with. */
const wholeNumber =
  (name: string) =>
  (value: unknown): string | undefined =>
    Number.isInteger(value) && (value as number) >= 0
      ? undefined
      : `"${name}" must be a whole number, got ${JSON.stringify(value)}.`;

/** The check of a text that means nothing when empty (a token, a path, an address). */
export const nonEmptyString =
  (name: string) =>
  (value: unknown): string | undefined =>
    typeof value === "string" && value !== ""
      ? undefined
      : `"${name}" must be a non-empty string, got ${JSON.stringify(value)}.`;

/**
 * Every option of {@link MockOptions} and its check, checked against the interface by the compiler: an option
 * added to one and not the other does not build.
 */
export const MOCK_OPTIONS = {
  accounts: {
    problem: (value) => {
      const checked = checkAccountConfigs(value, "accounts");
      return typeof checked === "string" ? checked : undefined;
    },
  },
  agentSeats: { problem: wholeNumber("agentSeats") },
  maxAccounts: { problem: wholeNumber("maxAccounts") },
  adminToken: { problem: nonEmptyString("adminToken") },
  validateResponses: ANY,
  bodyLimit: { problem: wholeNumber("bodyLimit") },
  now: ANY,
  journalSize: {
    problem: (value) =>
      Number.isInteger(value) && (value as number) >= 0 && (value as number) <= MAX_JOURNAL_SIZE
        ? undefined
        : `"journalSize" must be a whole number from 0 to ${MAX_JOURNAL_SIZE}, got ${JSON.stringify(value)}.`,
  },
  latency: {
    problem: (value) => {
      const read = readLatency(value as MockOptions["latency"] & {});
      return typeof read === "string" ? read.replace("--latency", '"latency"') : undefined;
    },
  },
  random: ANY,
  autologinSecret: ANY,
  usage: { problem: usageOptionProblem },
} as const satisfies { [Name in keyof Required<MockOptions>]: OptionDescriptor };

/**
 * Checks a program's options against a host's table: the object itself, each name (a misspelt one refused with
 * the name it most likely meant), and each value given. A mistake is a bug of the calling program, so it throws
 * a `TypeError` that names the host and the option.
 */
export function checkOptions(options: unknown, table: OptionTable, host: string): void {
  if (options === null || typeof options !== "object" || Array.isArray(options))
    throw new TypeError(`${host} takes an object of options, got ${options === null ? "null" : typeof options}.`);
  const listed = Object.keys(table).filter((name) => table[name]!.formerNameOf === undefined);
  for (const name of Object.keys(options)) {
    if (Object.hasOwn(table, name)) continue;
    const near = Object.keys(table).find(
      (candidate) => candidate.toLowerCase() === name.toLowerCase().replace(/[-_]/g, ""),
    );
    const suggestion = near ? ` (did you mean "${near}"?)` : "";
    throw new TypeError(`${host}: unknown option "${name}"${suggestion}. The options are ${listed.join(", ")}.`);
  }
  for (const [name, value] of Object.entries(options)) {
    if (value === undefined) continue;
    const problem = table[name]!.problem?.(value);
    if (problem !== undefined) throw new TypeError(`${host}: ${problem}`);
  }
}

/** A latency as a program gives it (milliseconds, the flag's text, or `{ min, max }`), read, or what is wrong. */
export function readLatency(latency: number | string | Latency): Latency | string {
  if (typeof latency !== "object" || latency === null) return parseLatency(String(latency));
  return typeof latency.min === "number" && typeof latency.max === "number"
    ? parseLatency(`${latency.min}-${latency.max}`)
    : `--latency must be { min, max } in milliseconds, got ${JSON.stringify(latency)}`;
}

/** The options of {@link MockOptions} as checked, and as the core takes them: the latency read. */
export type CheckedMockOptions = Omit<MockOptions, "latency"> & { latency?: Latency | undefined };

/**
 * What the core takes of the options every host shares, once checked (a host's checked options hold more), in one
 * object without the ones not given, so that the core's own defaults apply.
 */
export function coreOptionsOf(options: CheckedMockOptions): CheckedMockOptions {
  const { usage } = options;
  return definedOnly({
    accounts: options.accounts,
    agentSeats: options.agentSeats,
    maxAccounts: options.maxAccounts,
    adminToken: options.adminToken,
    validateResponses: options.validateResponses ?? false,
    bodyLimit: options.bodyLimit,
    now: options.now,
    journalSize: options.journalSize,
    latency: options.latency,
    random: options.random,
    autologinSecret: options.autologinSecret,
    // The Node host's `usage.file` is its own: the core records, the host writes.
    usage: usage && definedOnly({ consumer: usage.consumer, limits: usage.limits }),
  });
}
