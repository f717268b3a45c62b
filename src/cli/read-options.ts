import { parseArgs } from "node:util";

/** What a program's command line asks for: a run of its command, its help, its version, or a usage error as a value. */
export type ParsedArgs<Command> =
  | { kind: "run"; command: Command }
  | { kind: "help" }
  | { kind: "version" }
  | { kind: "error"; message: string };

/** The values of the options a command line gave: a string for each option that takes one, true for each flag. */
export type OptionValues<Text extends string, Flag extends string> = { [Name in Text]?: string } & {
  [Name in Flag | "help" | "version"]?: boolean;
};

/**
 * Reads argv against the program's options, given as two lists of names: those that take a value and the flags
 * (`--help` and `--version` are every program's, answered here). Strict: an unknown option, a missing value or a
 * positional argument is a usage error.
 */
export function readOptions<const Text extends string, const Flag extends string>(
  argv: readonly string[],
  texts: readonly Text[],
  flags: readonly Flag[],
): Exclude<ParsedArgs<never>, { kind: "run" }> | { kind: "values"; values: OptionValues<Text, Flag> } {
  const options = Object.fromEntries([
    ...texts.map((name) => [name, { type: "string" as const }]),
    ...[...flags, "help", "version"].map((name) => [name, { type: "boolean" as const }]),
  ]);
  let values: OptionValues<Text, Flag>;
  try {
    values = parseArgs({ args: [...argv], strict: true, allowPositionals: false, options }).values as OptionValues<
      Text,
      Flag
    >;
  } catch (error) {
    return { kind: "error", message: (error as Error).message };
  }
  if (values.help) return { kind: "help" };
  if (values.version) return { kind: "version" };
  return { kind: "values", values };
}
