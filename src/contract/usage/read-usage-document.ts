import { readFileSync } from "node:fs";
import { join } from "node:path";
import { usageDocumentValidator } from "../../generated/published-schema-validators.ts";
import { PACKAGE_ROOT } from "../../package-root.ts";
import { USAGE_VERSION, type UsageDocument } from "./usage-document.ts";

/** Where the published JSON Schema of a usage document is, in this package. */
export const USAGE_SCHEMA_PATH = join(PACKAGE_ROOT, "spec", "usage.schema.json");

/** A usage document that can be replayed, or why not: one line per problem, each naming the file. */
export type UsageReading = { ok: true; usage: UsageDocument } | { ok: false; problems: string[] };

/** Problems beyond ten are counted, not listed: a broken file should not flood a terminal. */
const MAX_PROBLEMS = 10;

/**
 * Reads a usage document from its text, all or nothing: JSON, this format's version, valid against
 * `spec/usage.schema.json`, every operation one the contract has (`operations`: its operationIds), every binding
 * pointing at an earlier interaction of its test and every role at an account of the document.
 */
export function readUsageDocument(text: string, source: string, operations: ReadonlySet<string>): UsageReading {
  const refuse = (problems: string[]): UsageReading => ({
    ok: false,
    problems: [
      ...problems.slice(0, MAX_PROBLEMS).map((problem) => `${source}: ${problem}`),
      ...(problems.length > MAX_PROBLEMS ? [`${source}: and ${problems.length - MAX_PROBLEMS} more problems`] : []),
    ],
  });
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return refuse([`not JSON: ${(error as Error).message}`]);
  }
  if (value === null || typeof value !== "object" || Array.isArray(value))
    return refuse(["a usage document is a JSON object"]);
  const version = (value as { usageVersion?: unknown }).usageVersion;
  if (version === 1) {
    return refuse([
      `usageVersion is 1, which named assumptions by their row of docs/assumptions.md (A20); this kit reads ` +
        `version ${USAGE_VERSION}, which names them (seat-limit-status). Record the usage again: run the ` +
        `consumer's tests against this kit's mock with --record-usage (or usage: { consumer }), then use the ` +
        `new file`,
    ]);
  }
  if (version !== USAGE_VERSION) {
    return refuse([
      `usageVersion is ${JSON.stringify(version) ?? "missing"}; this kit reads version ${USAGE_VERSION} ` +
        `(record the usage again with this kit's mock, --record-usage)`,
    ]);
  }
  // Generated from the schema at build time (scripts/generate-validators.ts): a read compiles nothing.
  const validate = usageDocumentValidator();
  if (!validate(value)) {
    return refuse(
      (validate.errors ?? []).map((error) => `${error.instancePath || "/"} ${error.message ?? "is not valid"}`),
    );
  }
  const usage = value as UsageDocument;
  const problems: string[] = [];
  const roles = new Set(usage.accounts.map((account) => account.role));
  usage.tests.forEach((test, t) => {
    test.interactions.forEach((interaction, i) => {
      const at = `/tests/${t}/interactions/${i}`;
      if (!operations.has(interaction.operation))
        problems.push(`${at}/operation: ${interaction.operation} is not an operation of the contract`);
      const role = interaction.request.account;
      if (role !== null && !roles.has(role))
        problems.push(`${at}/request/account: ${role} is not an account of /accounts`);
      interaction.bindings.forEach((binding, b) => {
        if (binding.from === "answer" && binding.interaction >= i) {
          problems.push(
            `${at}/bindings/${b}: interaction ${binding.interaction} is not an earlier interaction of the test`,
          );
        }
        if (binding.from === "account-uid" && !roles.has(binding.account))
          problems.push(`${at}/bindings/${b}: ${binding.account} is not an account of /accounts`);
      });
    });
  });
  return problems.length > 0 ? refuse(problems) : { ok: true, usage };
}

/** Reads a usage file; the problems name the file (a missing or unreadable one too). */
export function readUsageFile(file: string, operations: ReadonlySet<string>): UsageReading {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return {
      ok: false,
      problems: [
        `${file}: cannot read it: ` +
          `${code === "ENOENT" ? "no such file" : code === "EISDIR" ? "it is a folder" : (error as Error).message}`,
      ],
    };
  }
  return readUsageDocument(text, file, operations);
}
